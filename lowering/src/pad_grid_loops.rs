//! `pad-grid-loops`: a stage II loop bound to `blockIdx` whose trip count
//! the host cannot know before the launch runs over a bound of it that
//! the host does know, each block testing whether its position is real.
//!
//! A grid's size is fixed when the kernel is launched, so the host must
//! compute it; but a loop over the stored rows of a doubly compressed
//! format (DCSR's `indptr_i[1] - indptr_i[0]`), or one whose bounds come
//! from an enclosing bound loop (a triangular `j < i`), has a trip count
//! that only GPU memory or another block knows. Every value such a bound
//! reads lies in a known range: `assume_domain` says an `indptr` holds
//! values in `[0, nnz]`, an enclosing loop's position lies in its own
//! bounds, and sums and differences combine ranges. The loop then runs
//! `max(0, upper(ub) - lower(lb))` positions `q`, computes its real
//! bounds inside (on the GPU), and runs its body for `lb + q < ub` only:
//! `for p in lb..ub {A}` becomes
//! `for q in 0..span { if lb + q < ub {A[p := lb + q]} }`.
//!
//! Thread loops are left alone: a block's size is limited to 1024
//! threads, which a bound such as `nnz` exceeds; `sparse-pos-split` with a
//! constant factor gives them a constant trip count instead.

use crate::{
    axis::{detach, key},
    ir_builder::Builder,
    ir_query::{constant_index, evaluate_index, op_name},
    pass_registry::{PassDef, PassFailed, PassOptions},
    sparse_pos_ops::{insert_loop, loop_label, loop_position, replace_loop, FOR},
};
use melior::{
    dialect::arith,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use std::{cell::RefCell, collections::HashMap};

pub const PASS: PassDef = PassDef {
    name: "PadGridLoops",
    argument: "pad-grid-loops",
    description: "Give a blockIdx-bound stage II loop whose trip count the host cannot compute a host-computable bound, guarding the extra positions",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

/// Deeper bound expressions are not what lowering builds.
const MAX_DEPTH: usize = 32;

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut domains = HashMap::new();
    let mut loops = Vec::new();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
        match op_name(&op).as_str() {
            "sparse_pos.assume_domain" => {
                if let (Ok(buffer), Ok(lo), Ok(hi)) = (op.operand(0), op.operand(1), op.operand(2)) {
                    domains.insert(key(buffer), (op, detach(lo), detach(hi)));
                }
            }
            FOR if bound_to_block(op) => loops.push(op),
            _ => {}
        }
        melior::ir::operation::WalkResult::Advance
    });
    let ranges = Ranges { domains, built: RefCell::default() };
    // Outer loops first: an inner loop's range may read the outer one's
    // bounds, which padding it leaves in place.
    for loop_op in loops {
        if !ranges.known_before_launch(loop_op) {
            pad(context, &ranges, loop_op);
        }
    }
    for launch in crate::ir_query::outermost(root, |op| op_name(op) == FOR && bound(*op)) {
        sink_host_reads(context, launch);
    }
    Ok(())
}

/// Values the launch rooted at `launch` uses from before it that read
/// GPU memory on the way (a split guard's `indptr[i + 1] - indptr[i]`)
/// are computed again at the start of its body, on the GPU: the host's
/// reads of them are then dead. The launch's own bounds stay the host's.
/// Only reads of memory that nothing writes between the read and the
/// launch, or in the launch, are read again (a structure array): such a
/// write would give the copy another value. The others stay on the host,
/// where `place-device-memory` names them.
fn sink_host_reads<'c>(context: &'c Context, launch: OperationRef<'c, 'c>) {
    let Some(body) = launch.region(0).ok().and_then(|region| region.first_block()) else { return };
    let Some(first) = body.first_operation() else { return };
    let Some(builder) = Builder::before(context, unsafe { OperationRef::from_raw(first.to_raw()) }) else { return };
    let builder = builder.at(launch.location());
    let mut users: Vec<(OperationRef<'c, 'c>, usize, Value<'c, 'c>)> = Vec::new();
    launch.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op != launch {
            for (index, operand) in op.operands().enumerate() {
                let operand = detach(operand);
                if crate::ir_query::defined_outside(operand, launch)
                    && reads_memory(operand)
                    && reads(operand)
                        .into_iter()
                        .all(|(read, memory)| written_until(read, launch).is_some_and(|w| !w.contains(&memory)))
                    && !allocates(operand, launch)
                {
                    users.push((op, index, operand));
                }
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    let mut copies = HashMap::new();
    for (op, index, value) in users {
        let copy = clone_tree(&builder, launch, value, &mut copies);
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_operand(index, copy);
    }
}

fn bound_to_block(op: OperationRef<'_, '_>) -> bool {
    op.attribute("bind")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .is_some_and(|bind| bind.value().starts_with("blockIdx"))
}

fn bound(op: OperationRef<'_, '_>) -> bool {
    op.attribute("bind").is_ok()
}

/// The outermost bound loop around `op`, `op` included when it is one.
fn launch_root<'c>(op: OperationRef<'c, 'c>) -> OperationRef<'c, 'c> {
    let mut root = op;
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        if op_name(&parent) == FOR && bound(parent) {
            root = parent;
        }
        current = parent.parent_operation();
    }
    root
}

/// The op defining `value`, if an op does.
fn defining<'c>(value: Value<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let result = crate::ir_query::op_result(value).ok()?;
    Some(unsafe { OperationRef::from_raw(result.owner().to_raw()) })
}

/// Whether `op` is in the same block as an ancestor of `at` (or `at`
/// itself) and before it: what it defines is visible at `at`.
fn comes_before(op: OperationRef<'_, '_>, at: OperationRef<'_, '_>) -> bool {
    let Some(block) = op.block() else { return false };
    let mut current = Some(unsafe { OperationRef::from_raw(at.to_raw()) });
    while let Some(ancestor) = current {
        if ancestor.block() == Some(block) {
            return op.is_before_in_block(ancestor);
        }
        current = ancestor.parent_operation();
    }
    false
}

struct Ranges<'c> {
    /// `assume_domain` ops by the buffer they describe, with `lo` and `hi`.
    domains: HashMap<usize, (OperationRef<'c, 'c>, Value<'c, 'c>, Value<'c, 'c>)>,
    /// The ranges built for the loop being padded, by value: bounds share
    /// subexpressions, which would otherwise be walked once per path.
    built: RefCell<HashMap<usize, Option<(Value<'c, 'c>, Value<'c, 'c>)>>>,
}

impl<'c> Ranges<'c> {
    /// Whether the host knows the loop's bounds before launching it:
    /// computed outside the launch and without reading memory.
    fn known_before_launch(&self, loop_op: OperationRef<'c, 'c>) -> bool {
        let root = launch_root(loop_op);
        loop_op.operands().all(|bound| evaluate_index(bound).is_some() || host_value(detach(bound), root))
    }

    /// `[lower, upper]` of `value`, built with `builder` (before the loop
    /// being padded, outside the launch) from values the host knows.
    /// Positions and trip counts are never negative: the unsigned ops
    /// (`divui`, `minui`, ...) are bounded as if their operands were at
    /// least 0, the lower bounds clamped to it first.
    fn range(
        &self,
        builder: &Builder<'c>,
        root: OperationRef<'c, 'c>,
        value: Value<'c, 'c>,
        depth: usize,
    ) -> Option<(Value<'c, 'c>, Value<'c, 'c>)> {
        if let Some(known) = self.built.borrow().get(&key(value)) {
            return *known;
        }
        let range = self.range_of(builder, root, value, depth);
        self.built.borrow_mut().insert(key(value), range);
        range
    }

    fn range_of(
        &self,
        builder: &Builder<'c>,
        root: OperationRef<'c, 'c>,
        value: Value<'c, 'c>,
        depth: usize,
    ) -> Option<(Value<'c, 'c>, Value<'c, 'c>)> {
        if let Some(constant) = constant_index(value) {
            let constant = builder.index(constant);
            return Some((constant, constant));
        }
        if host_value(value, root) {
            // Bounds are computed in index, whatever the host value's type.
            let value = if value.r#type() == Type::index(builder.context) { value } else { builder.to_index(value) };
            return Some((value, value));
        }
        if depth > MAX_DEPTH {
            return None;
        }
        // A loop's position lies in its bounds.
        if let Ok(argument) = crate::ir_query::block_argument(value) {
            let parent = argument.owner().parent_operation()?;
            let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(parent.to_raw()) };
            if op_name(&parent) != FOR || argument.argument_number() != 0 {
                return None;
            }
            let (lower, _) = self.range(builder, root, detach(parent.operand(0).ok()?), depth + 1)?;
            let (_, upper) = self.range(builder, root, detach(parent.operand(1).ok()?), depth + 1)?;
            return Some((lower, builder.sub(upper, builder.index(1))));
        }
        let op = defining(value)?;
        let operand = |n: usize| op.operand(n).ok().map(detach);
        let range = |n: usize| self.range(builder, root, operand(n)?, depth + 1);
        let location = builder.location;
        let nonnegative = |v| builder.value(arith::maxsi(v, builder.index(0), location));
        match op_name(&op).as_str() {
            "sparse_pos.load" => {
                let (domain, lo, hi) = self.domains.get(&key(operand(0)?))?;
                comes_before(*domain, root).then_some((*lo, *hi))
            }
            "arith.index_cast" | "arith.index_castui" => {
                let (lower, upper) = range(0)?;
                let index = Type::index(builder.context);
                let cast = |v: Value<'c, 'c>| if v.r#type() == index { v } else { builder.to_index(v) };
                Some((cast(lower), cast(upper)))
            }
            "arith.addi" => {
                let ((l0, u0), (l1, u1)) = (range(0)?, range(1)?);
                Some((builder.add(l0, l1), builder.add(u0, u1)))
            }
            "arith.subi" => {
                let ((l0, u0), (l1, u1)) = (range(0)?, range(1)?);
                Some((builder.sub(l0, u1), builder.sub(u0, l1)))
            }
            "arith.muli" => {
                let (other, factor) = match (constant_index(operand(0)?), constant_index(operand(1)?)) {
                    (_, Some(factor)) => (0, factor),
                    (Some(factor), _) => (1, factor),
                    _ => return None,
                };
                let (lower, upper) = range(other)?;
                let factor = builder.index(factor.checked_abs()?);
                match constant_index(operand(1 - other)?)? >= 0 {
                    true => Some((builder.mul(lower, factor), builder.mul(upper, factor))),
                    false => None,
                }
            }
            "arith.ceildivui" | "arith.divui" if constant_index(operand(1)?).is_some_and(|d| d > 0) => {
                let (lower, upper) = range(0)?;
                let divisor = builder.index(constant_index(operand(1)?)?);
                let divide = |v| match op_name(&op).as_str() {
                    "arith.divui" => builder.div(nonnegative(v), divisor),
                    _ => builder.value(arith::ceildivui(nonnegative(v), divisor, location)),
                };
                Some((divide(lower), divide(upper)))
            }
            name @ ("arith.minsi" | "arith.minui" | "arith.maxsi" | "arith.maxui") => {
                let ((l0, u0), (l1, u1)) = (range(0)?, range(1)?);
                let unsigned = name.ends_with("ui");
                let operand = |v| if unsigned { nonnegative(v) } else { v };
                let pick = |a, b| match name {
                    "arith.minsi" | "arith.minui" => builder.value(arith::minsi(operand(a), operand(b), location)),
                    _ => builder.value(arith::maxsi(operand(a), operand(b), location)),
                };
                Some((pick(l0, l1), pick(u0, u1)))
            }
            _ => None,
        }
    }
}

/// Whether the host can compute `value` before the launch rooted at
/// `root`: it is defined outside it and reads no memory on the way.
fn host_value(value: Value<'_, '_>, root: OperationRef<'_, '_>) -> bool {
    crate::ir_query::defined_outside(value, root) && !reads_memory(value)
}

/// The ops computing `value`, through any chain of operands (each value
/// visited once), short of the values `stop` leaves.
fn computing<'c>(value: Value<'c, 'c>, stop: impl Fn(Value<'c, 'c>) -> bool) -> Vec<OperationRef<'c, 'c>> {
    let mut pending = vec![detach(value)];
    let mut seen = std::collections::HashSet::new();
    let mut ops = Vec::new();
    while let Some(value) = pending.pop() {
        if !seen.insert(key(value)) || stop(value) {
            continue;
        }
        let Some(op) = defining(value) else { continue };
        pending.extend(op.operands().map(detach));
        ops.push(op);
    }
    ops
}

/// Whether `op` reads memory: a load, or a search of an axis's structure.
fn is_read(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    name.ends_with(".load") || name == "sparse_pos.find" || name == "sparse_pos.parent_position"
}

/// Whether computing `value` reads memory, through any chain of ops.
fn reads_memory(value: Value<'_, '_>) -> bool {
    computing(detach(value), |_| false).iter().any(is_read)
}

/// The memory (`buffer::array` keys) that may be written after `read`
/// and up to the end of `launch`: by the ops after it in its block up to
/// the one holding the launch, all of that one included (a host loop
/// around the launch writes again before its next read). `None` for any
/// memory (the launch is not after the read in a block around it).
fn written_until(read: OperationRef<'_, '_>, launch: OperationRef<'_, '_>) -> Option<std::collections::HashSet<usize>> {
    let mut written = std::collections::HashSet::new();
    let block = read.block()?;
    // The op of `read`'s block that holds the launch.
    let mut holder = Some(unsafe { OperationRef::from_raw(launch.to_raw()) });
    while let Some(op) = holder.filter(|op| op.block() != Some(block)) {
        holder = op.parent_operation().map(|p| unsafe { OperationRef::from_raw(p.to_raw()) });
    }
    let holder = holder?;
    let mut next = read.next_in_block();
    while let Some(op) = next {
        let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
        op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
            written.extend(writes(unsafe { OperationRef::from_raw(inner.to_raw()) }, 0));
            melior::ir::operation::WalkResult::Advance
        });
        if op == holder {
            return Some(written);
        }
        next = op.next_in_block();
    }
    // The launch is not after the read.
    None
}

/// The memory (`buffer::array` keys) `op` itself may write: a store's or
/// an atomic update's, a copy's target, and every memref a call passes to
/// a callee that writes any (or whose body is not in the module).
fn writes(op: OperationRef<'_, '_>, depth: usize) -> Vec<usize> {
    let operands: Vec<Value> = op.operands().map(detach).collect();
    let memory = |n: usize| operands.get(n).map(|&m| crate::buffer::array(m)).into_iter().collect();
    match op_name(&op).as_str() {
        "sparse_pos.store" | "sparse_iter.store" | "memref.store" | "vector.store" | "memref.atomic_rmw"
        | "memref.copy" => memory(1),
        "vector.maskedstore" | "vector.scatter" | "vector.compressstore" | "memref.generic_atomic_rmw" => memory(0),
        "func.call" if depth > 8 || callee_writes(op, depth) => operands
            .iter()
            .filter(|v| melior::ir::r#type::TypeLike::is_mem_ref(&v.r#type()))
            .map(|&m| crate::buffer::array(m))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether the function `call` calls writes memory, or has no body here.
fn callee_writes(call: OperationRef<'_, '_>, depth: usize) -> bool {
    let Some(callee) =
        crate::ir_query::callee(call).filter(|f| f.region(0).ok().and_then(|r| r.first_block()).is_some())
    else {
        return true;
    };
    let mut found = false;
    callee.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        found |= !writes(unsafe { OperationRef::from_raw(op.to_raw()) }, depth + 1).is_empty();
        if found {
            melior::ir::operation::WalkResult::Interrupt
        } else {
            melior::ir::operation::WalkResult::Advance
        }
    });
    found
}

/// Whether computing `value` (down to what the host knows) allocates a
/// buffer: a copy inside the launch would be another buffer.
fn allocates<'c>(value: Value<'c, 'c>, root: OperationRef<'_, '_>) -> bool {
    computing(value, |v| host_value(v, root)).iter().any(|op| {
        matches!(op_name(op).as_str(), "sparse_iter.alloc_buffer" | "memref.alloc" | "memref.alloca" | "gpu.alloc")
    })
}

/// The reads computing `value`, with the memory (`buffer::array` keys)
/// each reads: a load's, a search's axis's structure arrays.
fn reads<'c>(value: Value<'c, 'c>) -> Vec<(OperationRef<'c, 'c>, usize)> {
    let mut found = Vec::new();
    for op in computing(value, |_| false).into_iter().filter(is_read) {
        if op_name(&op).ends_with(".load") {
            found.extend(op.operand(0).ok().map(|m| (op, crate::buffer::array(detach(m)))));
        } else if let Some(axis) = op.operand(0).ok().and_then(|a| crate::axis::Axis::read(detach(a))) {
            found.extend([axis.indptr, axis.indices].into_iter().flatten().map(|m| (op, crate::buffer::array(m))));
        }
    }
    found
}

/// Copies the ops computing `value` into `builder`'s block, down to what
/// the host knows (which reaches the kernel as a launch argument) and to
/// block arguments, so that bounds read from GPU memory are read there.
/// `copies` holds the values already copied at `builder`, each copied once.
fn clone_tree<'c>(
    builder: &Builder<'c>,
    root: OperationRef<'c, 'c>,
    value: Value<'c, 'c>,
    copies: &mut HashMap<usize, Value<'c, 'c>>,
) -> Value<'c, 'c> {
    if let Some(&copy) = copies.get(&key(value)) {
        return copy;
    }
    let Some(op) = defining(value).filter(|_| !host_value(value, root)) else { return value };
    let operands: Vec<Value<'c, 'c>> = op.operands().map(|v| clone_tree(builder, root, detach(v), copies)).collect();
    let copy = builder.insert_clone(op);
    let mut copy_mut = unsafe { OperationRefMut::from_raw(copy.to_raw()) };
    for (index, operand) in operands.into_iter().enumerate() {
        copy_mut.set_operand(index, operand);
    }
    for (number, result) in op.results().enumerate() {
        let copied = copy.result(number).expect("a clone has its original's results");
        copies.insert(key(result.into()), detach(copied.into()));
    }
    copies[&key(value)]
}

/// Rewrites `loop_op` as the module doc says, if its bounds have a range.
fn pad<'c>(context: &'c Context, ranges: &Ranges<'c>, loop_op: OperationRef<'c, 'c>) {
    let root = launch_root(loop_op);
    let (Ok(lb), Ok(ub)) = (loop_op.operand(0), loop_op.operand(1)) else { return };
    let (lb, ub) = (detach(lb), detach(ub));
    // The span goes before the launch: a grid's size is the host's.
    let Some(builder) = Builder::before(context, root) else { return };
    let builder = builder.at(loop_op.location());
    let location = builder.location;
    // Ranges built before another loop are not visible here.
    ranges.built.borrow_mut().clear();
    // The range's arithmetic is dead when a bound has none; canonicalize
    // removes it, and the loop keeps its bounds for lower-loop-bindings to
    // report.
    let Some(((lower, _), (_, upper))) = ranges.range(&builder, root, lb, 0).zip(ranges.range(&builder, root, ub, 0))
    else {
        return;
    };
    let span = builder.trip(lower, upper);
    let Ok(kind) = loop_op.attribute("kind") else { return };
    let Some(at_loop) = Builder::before(context, loop_op) else { return };
    let at_loop = at_loop.at(location);
    let (padded, inside) = insert_loop(&at_loop, &loop_label(loop_op), kind, at_loop.index(0), span);
    let Ok(offset) = loop_position(padded) else { return };
    let mut copies = HashMap::new();
    let real_lb = clone_tree(&inside, root, lb, &mut copies);
    let real_ub = clone_tree(&inside, root, ub, &mut copies);
    let position = inside.add(real_lb, offset);
    let real = inside.cmp(arith::CmpiPredicate::Slt, position, real_ub);
    let (_, end) = inside.guard(real);
    // A loop without a body cannot be one lower-sparse-iter made; it stays.
    let _ = replace_loop(loop_op, padded, position, end);
}
