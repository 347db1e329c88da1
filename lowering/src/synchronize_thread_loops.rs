//! `synchronize-thread-loops`: loops bound to threads (stage III `scf.for`
//! with `bind = "threadIdx.*"`, before `lower-loop-bindings`) run as one
//! block of threads, and a later loop may read or overwrite memory that an
//! earlier one touched from *other* threads: a zeroing nest and an
//! accumulation nest that map elements to threads differently, or a
//! cooperative copy and its use. Sequentially that is ordered; on the GPU
//! it needs a `gpu.barrier` between them, and also at the end of a
//! sequential loop around both when the next iteration's first loop
//! conflicts with this one's last.
//!
//! No barrier is needed where each element stays with one thread: every
//! access to the memory has the same index and the same guards, up to
//! loops of equal bounds and binding. A barrier must be reached by every
//! thread of the block, so it is only placed outside all loops bound to
//! threads; a conflict inside one (rows on threadIdx.y, say) is an error
//! that names both loops, unless it is a row's own: inside one loop bound
//! to threadIdx.y or z, on tiles that `privatize-row-tiles` gave each of
//! its positions (every access indexed first by its position). Only the
//! threads of a row then meet, at a row barrier (`gpu.barrier {sptir.row}`),
//! which `lower-loop-bindings` sizes and `lower-row-barriers` lowers.
//! Accesses to tiles inside row loops but outside threadIdx.x loops run on
//! every thread of their row alike, and are checked like the loops. A loop
//! on the same lanes as a warp-shuffled loop after it needs no barrier
//! before it where the shuffled loop touches the memory only in its
//! accumulations: the lanes meet in the shuffle before the first lane adds.

use crate::{
    axis::{detach, key},
    ir_builder::Builder,
    ir_query::{describe_pair, encloses, op_name, reduction, root_memref, thread_dependent, users, view_root, VIEWS},
    lower_loop_bindings::{binding, is_for},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    reduction::Reduction,
    sparse_pos_bind::{DIMENSIONS, SHUFFLE_LOOP},
    sparse_pos_cache_read::SHARED,
};
use melior::{
    dialect::ods::gpu,
    ir::{
        attribute::Attribute,
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::TypeLike,
        RegionLike, Value, ValueLike,
    },
    Context,
};
use std::collections::{HashMap, HashSet};

pub const PASS: PassDef = PassDef {
    name: "SynchronizeThreadLoops",
    argument: "synchronize-thread-loops",
    description: "Put gpu.barrier between loops bound to threads that pass data from thread to thread",
    options: &[],
    dependent_dialects: "gpu",
    run,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Read,
    Write,
    /// A half of an atomic update by this reduction: updates by one
    /// reduction commute with one another, a sum and a maximum do not.
    Atomic(Reduction),
}

struct Access<'c> {
    op: OperationRef<'c, 'c>,
    memory: usize,
    /// The memref that `memory` names (`view_root`).
    root: Value<'c, 'c>,
    kind: Kind,
}

/// The marker of a barrier that only the threads of one row (equal
/// threadIdx.y and z) reach.
pub const ROW_BARRIER: &str = "sptir.row";

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let bound = |op: &OperationRef<'_, '_>| is_for(op) && binding(op).is_some();
    for outer in crate::ir_query::outermost(root, bound) {
        // A launch whose sizes come from inside it (a clamp=true split's
        // inner loop bound) is lower-loop-bindings' to refuse, with that
        // reason; its accesses would be judged by a mapping it cannot have.
        if !sized_before(outer) {
            continue;
        }
        synchronize(context, outer)?;
    }
    Ok(())
}

/// Whether every loop bound to the GPU in `outer` (itself included) has
/// bounds that can be computed before it.
fn sized_before(outer: OperationRef<'_, '_>) -> bool {
    let bound = crate::ir_query::ops_where(outer, WalkOrder::PreOrder, |op| is_for(&op) && binding(&op).is_some());
    bound.iter().all(|op| op.operands().take(2).all(|v| crate::ir_query::computable_before(detach(v), outer)))
}

fn is_thread_loop(op: &OperationRef<'_, '_>) -> bool {
    is_for(op) && binding(op).is_some_and(|d| d >= 3)
}

fn label(op: OperationRef<'_, '_>) -> String {
    crate::ir_query::stage3_label(op).unwrap_or_else(|| "?".into())
}

fn describe(op: OperationRef<'_, '_>) -> String {
    if is_thread_loop(&op) {
        format!("loop \"{}\" ({})", label(op), binding(&op).map(|d| DIMENSIONS[d]).unwrap_or("sequential"))
    } else if is_sequential_loop(&op) && op.has_attribute("sptir.label") {
        format!("sequential loop \"{}\"", label(op))
    } else {
        format!("the {} that every thread runs", op_name(&op))
    }
}

fn synchronize<'c>(context: &'c Context, outer: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    // The thread loops, and the memory ops outside every thread loop (run
    // by all threads alike), in program order.
    let mut units: Vec<OperationRef<'c, 'c>> = Vec::new();
    outer.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        let around = ancestors(op, outer, false);
        let shared = op.region_count() == 0
            && op.operands().any(|v| v.r#type().is_mem_ref())
            && (!around.iter().any(is_thread_loop)
                || (!around.iter().any(|l| is_thread_loop(l) && binding(l) == Some(3)) && touches_tile(op)));
        if is_thread_loop(&op) || shared {
            units.push(op);
        }
        WalkResult::Advance
    });
    if !units.iter().any(is_thread_loop) {
        return Ok(()); // one thread a block
    }
    let accesses: Vec<Vec<Access<'c>>> = units.iter().map(|&u| accesses_of(outer, u)).collect();
    // Where barriers go, and whether one row's threads suffice there.
    let mut barriers_before: Vec<(OperationRef<'c, 'c>, bool)> = Vec::new();

    for (i, &first) in units.iter().enumerate() {
        for (j, &second) in units.iter().enumerate().skip(i) {
            if i != j && (encloses(first, second) || encloses(second, first)) {
                continue;
            }
            if !is_thread_loop(&first) && !is_thread_loop(&second) {
                continue;
            }
            // Memory allocated inside a unit is each of its positions' own,
            // in order and on the GPU alike. A thread's own copy that only
            // code every thread runs writes holds, in each thread, all that
            // the program wrote: any thread may read any element of it.
            let written_by_thread_loop = |memory: Value<'c, 'c>| {
                [(first, &accesses[i]), (second, &accesses[j])].iter().any(|(unit, list)| {
                    is_thread_loop(unit) && list.iter().any(|a| a.root == memory && !matches!(a.kind, Kind::Read))
                })
            };
            let conflicts: Vec<_> = conflicts(outer, &accesses[i], &accesses[j])
                .into_iter()
                .filter(|&(memory, _)| !allocated_inside(memory, first) && !allocated_inside(memory, second))
                .filter(|&(memory, _)| !thread_private(outer, memory) || written_by_thread_loop(memory))
                .collect();
            let Some(&(_, pair)) = conflicts.first() else {
                continue;
            };
            if let Some(&(memory, pair)) = conflicts.iter().find(|&&(memory, _)| thread_private(outer, memory)) {
                let allocation = crate::ir_query::op_result(memory).map(|r| op_name(&r.owner())).unwrap_or_default();
                return Err(emit_error(
                    second.location(),
                    format!(
                        "synchronize-thread-loops: {} touches memory that {} touches from other threads ({}), but each thread has its own copy of it (a {allocation} inside the launch: a buffer in scope \"local\"), which no barrier passes between threads; map its elements to threads the same way in both, keep the loops in one thread, or use scope \"shared\"",
                        describe(second),
                        describe(first),
                        describe_pair(pair)
                    ),
                ));
            }
            // The innermost op around both, and the sequential loop
            // around both whose next iteration follows this one.
            // A loop conflicts with itself only across iterations of a
            // sequential loop around it: what is inside it is one thread's.
            let around = if i == j {
                ancestors(first, outer, false)
            } else {
                ancestors(common_ancestor(first, second, outer), outer, true)
            };
            let repeat = around.iter().copied().find(is_sequential_loop);
            if i == j && repeat.is_none() {
                continue;
            }
            if i != j && repeat.is_none() && meet_in_shuffle(first, second, &conflicts, &accesses[j]) {
                continue;
            }
            let thread_parents: Vec<OperationRef<'c, 'c>> = around.iter().copied().filter(is_thread_loop).collect();
            let row = match thread_parents[..] {
                [parent] => conflicts.iter().all(|&(root, _)| row_private(root, parent)),
                _ => false,
            };
            if let Some(&parent) = thread_parents.first().filter(|_| !row) {
                let (what, inside, advice) = match repeat.filter(|_| i == j) {
                    Some(repeat) => (
                        format!("its other threads touch in another iteration of {}", describe(repeat)),
                        "it is",
                        "in every iteration",
                    ),
                    None => (format!("{} touches from other threads", describe(first)), "both are", "in both"),
                };
                // Alike indices under different guards: a split's tail
                // guard that one side has and the other lacks.
                let guards = match agreement(outer, [pair.0, pair.1].into_iter()) {
                    Some(false) => "; these two index it alike but under different guards (a split's tail guard around one, say: `clamp=true` on that split bounds its loop instead)",
                    _ => "",
                };
                return Err(emit_error(
                    second.location(),
                    format!(
                        "synchronize-thread-loops: {} touches memory that {what} ({}), and {inside} inside {}, where no barrier can be reached by every thread of the block; map elements to threads the same way {advice}{guards}",
                        describe(second),
                        describe_pair(pair),
                        describe(parent)
                    ),
                ));
            }
            if i != j {
                let (from, to) = (child_toward(around[0], first), child_toward(around[0], second));
                // A barrier already between the two serves both.
                let between =
                    following(from).into_iter().take_while(|&op| op != to).chain([to]).any(|op| {
                        barriers_before.iter().any(|&(anchor, placed_row)| anchor == op && (row || !placed_row))
                    });
                if !between {
                    place(&mut barriers_before, to, row);
                }
            }
            if let Some(repeat) = repeat {
                let terminator = repeat
                    .region(0)
                    .ok()
                    .and_then(|r| r.first_block())
                    .and_then(|b| b.terminator())
                    .map(|t| unsafe { OperationRef::<'c, 'c>::from_raw(t.to_raw()) })
                    .ok_or_else(|| emit_error(repeat.location(), "loop without terminator"))?;
                place(&mut barriers_before, terminator, row);
            }
        }
    }
    for (anchor, row) in barriers_before {
        let builder = Builder::before(context, anchor)
            .ok_or_else(|| emit_error(anchor.location(), "op is not in a block"))?
            .at(anchor.location());
        let barrier = builder.insert(gpu::barrier(context, anchor.location()));
        if row {
            unsafe { OperationRefMut::from_raw(barrier.to_raw()) }
                .set_discardable_attribute(ROW_BARRIER, Attribute::unit(context));
        }
    }
    Ok(())
}

/// Whether the lanes of `first` meet in `second`'s warp shuffle before
/// `second` touches the memories in `conflicts`: `second` is shuffled,
/// `first` runs on the same lanes (binding and bounds), and `second`
/// touches those memories only in accumulations, which the shuffle
/// lowering makes one addition by the first lane after the lanes' sums
/// meet. A row's zeroing on its lanes then needs no barrier before the
/// shuffled sums are added in.
fn meet_in_shuffle<'c>(
    first: OperationRef<'c, 'c>,
    second: OperationRef<'c, 'c>,
    conflicts: &[(Value<'c, 'c>, (OperationRef<'c, 'c>, OperationRef<'c, 'c>))],
    second_accesses: &[Access<'c>],
) -> bool {
    let same_lanes = is_thread_loop(&first)
        && binding(&first) == binding(&second)
        && first.operand_count() == 3
        && second.operand_count() == 3
        && first.operands().zip(second.operands()).all(|(a, b)| same(a, b, 0));
    if !second.has_attribute(SHUFFLE_LOOP) || !same_lanes {
        return false;
    }
    let accumulated: Vec<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)> = second_accesses
        .iter()
        .filter(|a| op_name(&a.op) == "memref.store")
        .filter_map(|a| reduction(a.op).map(|(load, _, _)| (a.op, load)))
        .collect();
    conflicts.iter().all(|&(root, _)| {
        second_accesses
            .iter()
            .filter(|a| a.root == root)
            .all(|a| accumulated.iter().any(|&(store, load)| a.op == store || a.op == load))
    })
}

/// Whether `memory` is allocated inside `unit`.
fn allocated_inside(memory: Value<'_, '_>, unit: OperationRef<'_, '_>) -> bool {
    crate::ir_query::op_result(memory).is_ok_and(|result| encloses(unit, result.owner()))
}

/// Whether `memory` is each thread's own: allocated inside the launch
/// (`outer`) and not a shared tile. Outside every loop bound to threads
/// the program gives one copy to all positions, the GPU one to each
/// thread: they agree only where no position reads another's elements.
pub fn thread_private(outer: OperationRef<'_, '_>, memory: Value<'_, '_>) -> bool {
    crate::ir_query::op_result(memory).is_ok_and(|result| {
        let allocation = result.owner();
        matches!(op_name(&allocation).as_str(), "memref.alloca" | "memref.alloc")
            && !allocation.has_attribute(SHARED)
            && encloses(outer, allocation)
    })
}

/// Whether `op` takes a shared tile (`sparse-pos-cache-read`'s).
fn touches_tile(op: OperationRef<'_, '_>) -> bool {
    op.operands().any(|v| {
        v.r#type().is_mem_ref()
            && crate::ir_query::op_result(view_root(v)).is_ok_and(|tile| tile.owner().has_attribute(SHARED))
    })
}

/// Whether `memory` belongs to the positions of `row`, a loop bound to
/// threadIdx.y or z: a tile whose every access is inside the loop and
/// indexed first by its position.
fn row_private(memory: Value<'_, '_>, row: OperationRef<'_, '_>) -> bool {
    let Ok(tile) = crate::ir_query::op_result(memory) else { return false };
    let position = row.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok());
    let Some(position) = position.map(Value::from) else { return false };
    matches!(binding(&row), Some(4 | 5))
        && tile.owner().has_attribute(SHARED)
        && users(memory).iter().all(|user| {
            let index = match op_name(user).as_str() {
                "memref.load" => 1,
                "memref.store" => 2,
                _ => return false,
            };
            encloses(row, *user) && user.operand(index).is_ok_and(|i| i == position)
        })
}

/// Where the two loops' accesses meet on some memory from different
/// threads: one writes what the other reads or writes (two atomic
/// additions commute), and the elements do not stay with one thread. For
/// each such memory, its memref and the first such pair of accesses, one
/// from each.
#[allow(clippy::type_complexity)]
fn conflicts<'c>(
    outer: OperationRef<'_, '_>,
    first: &[Access<'c>],
    second: &[Access<'c>],
) -> Vec<(Value<'c, 'c>, (OperationRef<'c, 'c>, OperationRef<'c, 'c>))> {
    let mut memories: Vec<(usize, Value<'c, 'c>)> = first.iter().map(|a| (a.memory, a.root)).collect();
    memories.dedup_by_key(|(memory, _)| *memory);
    memories
        .into_iter()
        .filter_map(|(memory, root)| {
            let here: Vec<&Access> = first.iter().filter(|a| a.memory == memory).collect();
            let there: Vec<&Access> = second.iter().filter(|a| a.memory == memory).collect();
            let meet = here.iter().find_map(|a| {
                there
                    .iter()
                    .find(|b| {
                        !(matches!((a.kind, b.kind), (Kind::Read, Kind::Read))
                            || matches!((a.kind, b.kind), (Kind::Atomic(x), Kind::Atomic(y)) if x == y))
                    })
                    .map(|b| (a.op, b.op))
            });
            meet.filter(|_| !stays_with_thread(outer, here.iter().chain(&there).map(|a| a.op))).map(|pair| (root, pair))
        })
        .collect()
}

/// Every access has the same index and guards as the first (guards that
/// every thread answers alike on loops the index does not follow aside),
/// and a thread position reaches the index.
fn stays_with_thread<'c>(outer: OperationRef<'_, '_>, ops: impl Iterator<Item = OperationRef<'c, 'c>>) -> bool {
    agreement(outer, ops).is_some_and(|guards_agree| guards_agree)
}

/// Whether every access has the same index as the first, and a thread
/// position reaches it: `None` if not, else whether their guards agree too.
fn agreement<'c>(outer: OperationRef<'_, '_>, mut ops: impl Iterator<Item = OperationRef<'c, 'c>>) -> Option<bool> {
    let Some(first) = ops.next() else { return Some(true) };
    // An element whose index no thread position reaches is every thread's.
    let (values, guards) = access_key(outer, first);
    if !values.iter().any(|&v| thread_dependent(v)) {
        return None;
    }
    let mut guards_agree = true;
    for op in ops {
        let (other_values, other_guards) = access_key(outer, op);
        if values.len() != other_values.len() || !values.iter().zip(&other_values).all(|(&a, &b)| same(a, b, 0)) {
            return None;
        }
        guards_agree &= guards.len() == other_guards.len()
            && guards.iter().zip(&other_guards).all(|(&(a, x), &(b, y))| x == y && same(a, b, 0));
    }
    Some(guards_agree)
}

/// An access's index values, and the guards around it (each condition
/// with whether the access is in its `then`) but those that every thread
/// answers alike on loops the index does not follow.
fn access_key<'c>(
    outer: OperationRef<'_, '_>,
    op: OperationRef<'c, 'c>,
) -> (Vec<Value<'c, 'c>>, Vec<(Value<'c, 'c>, bool)>) {
    let mut values: Vec<Value<'c, 'c>> = op.operands().map(detach).filter(|v| !v.r#type().is_mem_ref()).collect();
    // Stored values differ; only where they go matters.
    if matches!(op_name(&op).as_str(), "memref.store" | "vector.store" | "memref.atomic_rmw") {
        values.remove(0);
    }
    let mut guards = Vec::new();
    let positions: HashSet<usize> = values.iter().flat_map(|&v| loop_positions(v)).collect();
    let mut current = op;
    while let Some(parent) = current.parent_operation() {
        if parent == outer {
            break;
        }
        if op_name(&parent) == "scf.if" {
            let in_then = crate::ir_query::in_then(parent, op);
            // A guard that every thread answers alike, on loops that
            // the index does not follow (a feature tail around an
            // accumulation that its zeroing lacks), only leaves out
            // some of the thread's own accesses.
            if let Ok(condition) = parent.operand(0).map(detach) {
                let own = !thread_dependent(condition) && loop_positions(condition).is_disjoint(&positions);
                if !own {
                    guards.push((condition, in_then));
                }
            }
        }
        current = unsafe { OperationRef::from_raw(parent.to_raw()) };
    }
    (values, guards)
}

/// The loops whose positions `value` is computed from (keys of the loops'
/// induction variables), through arithmetic and loads; a value a loop
/// carries counts as its position.
fn loop_positions(value: Value<'_, '_>) -> HashSet<usize> {
    let mut positions = HashSet::new();
    let mut seen = HashSet::new();
    let mut pending = vec![detach(value)];
    while let Some(value) = pending.pop() {
        if !seen.insert(key(value)) {
            continue;
        }
        if let Ok(argument) = crate::ir_query::block_argument(value) {
            if argument.owner().parent_operation().is_some_and(|parent| is_for(&parent)) {
                if let Ok(position) = argument.owner().argument(0) {
                    positions.insert(key(position.into()));
                }
            }
        } else if let Ok(result) = crate::ir_query::op_result(value) {
            pending.extend(result.owner().operands().map(detach));
        }
    }
    positions
}

/// Structural equality of two index computations: the same value, ops of
/// the same name, attributes and operands, or the positions of two loops
/// with the same binding and bounds (two loops bound to one thread
/// dimension run the same position on a thread).
fn same(a: Value<'_, '_>, b: Value<'_, '_>, depth: usize) -> bool {
    if a == b {
        return true;
    }
    if depth > 32 || a.r#type() != b.r#type() {
        return false;
    }
    match (crate::ir_query::op_result(a), crate::ir_query::op_result(b)) {
        (Ok(x), Ok(y)) => {
            let (p, q) = (x.owner(), y.owner());
            x.result_number() == y.result_number()
                && p.name() == q.name()
                && p.region_count() == 0
                && q.region_count() == 0
                && p.operand_count() == q.operand_count()
                && p.attributes().count() == q.attributes().count()
                && p.attributes().zip(q.attributes()).all(|((n, u), (m, v))| n == m && u == v)
                && p.operands().zip(q.operands()).all(|(u, v)| same(u, v, depth + 1))
        }
        (Err(_), Err(_)) => {
            let (Ok(x), Ok(y)) = (crate::ir_query::block_argument(a), crate::ir_query::block_argument(b)) else {
                return false;
            };
            let (Some(p), Some(q)) = (x.owner().parent_operation(), y.owner().parent_operation()) else {
                return false;
            };
            x.argument_number() == 0
                && y.argument_number() == 0
                && is_for(&p)
                && is_for(&q)
                && binding(&p) == binding(&q)
                && p.operand_count() == 3
                && q.operand_count() == 3
                && p.operands().zip(q.operands()).all(|(u, v)| same(u, v, depth + 1))
        }
        _ => false,
    }
}

/// The memory accesses inside `nest`. Inside a loop bound with
/// `atomic`, an accumulation's load and store are the two halves of an
/// atomic addition (or maximum, or minimum); its other accesses (a row's zeroing, the copy into a
/// shared-memory tile and the reads of it) stay plain, as
/// `lower-loop-bindings` leaves them, and are ordered like any other (a
/// `shuffle` loop's are plain too: one lane reads and writes the total).
fn accesses_of<'c>(outer: OperationRef<'c, 'c>, nest: OperationRef<'c, 'c>) -> Vec<Access<'c>> {
    let mut atomic_halves = HashMap::new();
    nest.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        let in_atomic_loop = || ancestors(op, outer, false).iter().any(|l| is_for(l) && l.has_attribute("atomic"));
        if op_name(&op) == "memref.store" && in_atomic_loop() {
            if let Some((load, _, reduction)) = reduction(op) {
                atomic_halves.extend([(op.to_raw().ptr, reduction), (load.to_raw().ptr, reduction)]);
            }
        }
        WalkResult::Advance
    });
    let mut list = Vec::new();
    nest.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        let name = op_name(&op);
        let kind = match name.as_str() {
            "memref.dim" | "memref.extract_aligned_pointer_as_index" => return WalkResult::Advance,
            _ if VIEWS.contains(&name.as_str()) => return WalkResult::Advance,
            _ if atomic_halves.contains_key(&op.to_raw().ptr) => Kind::Atomic(atomic_halves[&op.to_raw().ptr]),
            "memref.load" | "vector.load" => Kind::Read,
            _ => Kind::Write,
        };
        for memory in op.operands().filter(|v| v.r#type().is_mem_ref()) {
            list.push(Access { op, memory: root_memref(memory), root: view_root(memory), kind });
        }
        WalkResult::Advance
    });
    list
}

/// A loop whose positions one block runs in turn: unbound, or a grid loop
/// that `lower-loop-bindings` strides.
fn is_sequential_loop(op: &OperationRef<'_, '_>) -> bool {
    (matches!(op_name(op).as_str(), "scf.for" | "scf.while") && binding(op).is_none())
        || crate::lower_loop_bindings::strided_grid_loop(op)
}

/// The ops enclosing `op` up to and including `outer`, innermost first
/// (`op` itself first when `inclusive`).
fn ancestors<'c>(op: OperationRef<'c, 'c>, outer: OperationRef<'c, 'c>, inclusive: bool) -> Vec<OperationRef<'c, 'c>> {
    let mut list = if inclusive { vec![op] } else { Vec::new() };
    let mut current = op;
    while current != outer {
        match current.parent_operation() {
            Some(parent) => {
                let parent = unsafe { OperationRef::<'c, 'c>::from_raw(parent.to_raw()) };
                list.push(parent);
                current = parent;
            }
            None => break,
        }
    }
    list
}

/// The innermost op that encloses both (or is one of them).
fn common_ancestor<'c>(
    a: OperationRef<'c, 'c>,
    b: OperationRef<'c, 'c>,
    outer: OperationRef<'c, 'c>,
) -> OperationRef<'c, 'c> {
    let theirs = ancestors(b, outer, true);
    ancestors(a, outer, true).into_iter().find(|op| theirs.contains(op)).unwrap_or(outer)
}

/// Records a barrier before `anchor`; one there already becomes a full
/// barrier unless both suffice for a row.
fn place<'c>(barriers: &mut Vec<(OperationRef<'c, 'c>, bool)>, anchor: OperationRef<'c, 'c>, row: bool) {
    match barriers.iter_mut().find(|(a, _)| *a == anchor) {
        Some((_, placed_row)) => *placed_row &= row,
        None => barriers.push((anchor, row)),
    }
}

/// The ops after `op` in its block.
fn following<'c>(op: OperationRef<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    let mut ops = Vec::new();
    let mut next = op.next_in_block();
    while let Some(current) = next {
        let current = unsafe { OperationRef::<'c, 'c>::from_raw(current.to_raw()) };
        ops.push(current);
        next = current.next_in_block();
    }
    ops
}

/// The op in `common`'s body that is or holds `op`.
fn child_toward<'c>(common: OperationRef<'c, 'c>, op: OperationRef<'c, 'c>) -> OperationRef<'c, 'c> {
    let mut current = op;
    while let Some(parent) = current.parent_operation() {
        if parent == common {
            break;
        }
        current = unsafe { OperationRef::from_raw(parent.to_raw()) };
    }
    current
}
