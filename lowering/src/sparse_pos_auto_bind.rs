//! `sparse-pos-auto-bind`: the default GPU schedule, for kernels nobody
//! scheduled by hand. Every outermost position loop becomes a grid of
//! blocks (a reduction one with atomic writes); inside it, the innermost
//! spatial loops whose bounds do not depend on the block become the
//! threads of a block (threadIdx.x, unless some loop of the nest already
//! is), or, where there are none, the spatial loops around nothing but
//! reductions (SDDMM's non-zeros, each thread a dot product). Where no
//! loop inside can be the threads (SpMV's rows), the outermost loop is
//! split into blocks of 128 threads instead. A reduction loop whose
//! updates are not sums, and a loop whose positions may touch one element
//! where one of them stores (a triangular solve reading earlier rows'
//! results), stay sequential and the loops inside them are scheduled
//! instead; where such a loop's host part would need GPU memory (its
//! inner loops' bounds read from indptr), the whole nest runs as one
//! thread. Loops already bound are left alone (a grid loop the hand
//! schedule bound is not split into blocks of threads), so this
//! completes a partial hand schedule. Correct for any stage II program;
//! fast only where the threads have work; hand schedules do better.

use crate::ir_query::{computable_before, constant_index, constant_of, encloses, evaluate_index, op_name, outermost};
use crate::pass_registry::{PassDef, PassFailed, PassOptions};
use crate::sparse_pos_bind::DIMENSIONS;
use crate::sparse_pos_ops::{
    bound_loops, carried_conflict, constant_trip, find_store, loop_kind, one_thread_mark, LoopKind, FOR,
};
use melior::ir::{
    attribute::{Attribute, StringAttribute},
    block::{BlockLike, BlockRef},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
    RegionLike, Value, ValueLike,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosAutoBind",
    argument: "sparse-pos-auto-bind",
    description: "Default GPU schedule: outermost loops to blocks, uniform innermost spatial loops to threads",
    options: &[],
    dependent_dialects: "",
    run,
};

fn is_loop(op: &OperationRef<'_, '_>) -> bool {
    op.name().as_string_ref().as_str() == Ok(FOR)
}

/// Whether `op` reads or writes a buffer in scope "local" allocated
/// outside it: each thread has a copy of its own, so such a loop is one
/// thread's work; its positions on threads would each see another copy.
fn uses_outer_local_buffer(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        let buffer = match inner.name().as_string_ref().as_str() {
            Ok("sparse_pos.load") => inner.operand(0).ok(),
            Ok("sparse_pos.store") => inner.operand(1).ok(),
            _ => None,
        };
        found = buffer
            .and_then(crate::buffer::BufferDef::read)
            .is_some_and(|def| def.values.is_none() && def.scope() == "local" && !encloses(op, def.op));
        match found {
            true => WalkResult::Interrupt,
            false => WalkResult::Advance,
        }
    });
    found
}

/// Whether a loop that threads could share sits under `op`.
fn contains_loop(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
        if inner.to_raw().ptr != op.to_raw().ptr && is_loop(&inner) && one_thread_mark(inner).is_none() {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `value` is known outside `outer`: a constant, or what
/// `lower-loop-bindings` can compute before the launch.
fn outside(value: Value<'_, '_>, outer: OperationRef<'_, '_>) -> bool {
    constant_of(value).is_some() || computable_before(value, outer)
}

/// Equal values, or constants of equal value.
fn same_value(a: Value<'_, '_>, b: Value<'_, '_>) -> bool {
    a == b || matches!((constant_of(a), constant_of(b)), (Some(x), Some(y)) if x == y)
}

/// Whether `op` runs exactly once: from constant 0 to constant 1.
fn is_single(op: OperationRef<'_, '_>) -> bool {
    let bound = |n: usize| op.operand(n).ok().and_then(constant_index);
    bound(0) == Some(0) && bound(1) == Some(1)
}

/// The only loop directly in `op`'s body, if there is exactly one.
fn only_loop_in<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    use melior::ir::{block::BlockLike, RegionLike};
    let body = op.region(0).ok()?.first_block()?;
    let mut found = None;
    let mut next = body.first_operation();
    while let Some(inner) = next {
        next = inner.next_in_block();
        if is_loop(&inner) {
            if found.is_some() {
                return None;
            }
            found = Some(unsafe { OperationRef::from_raw(inner.to_raw()) });
        }
    }
    found
}

/// Whether a loop under `top` (itself included) is bound to `dimension`.
fn binds(top: OperationRef<'_, '_>, dimension: &str) -> bool {
    !bound_loops(top, |bound| bound == dimension).is_empty()
}

/// Whether two loops have the same bounds: threads of one block size.
fn same_bounds(a: OperationRef<'_, '_>, b: OperationRef<'_, '_>) -> bool {
    a.operands().zip(b.operands()).all(|(x, y)| same_value(x, y))
}

/// Whether some store under `top` is in none of `loops`: to a sparse
/// buffer, or to a tile that `sparse-pos-cache-read` copies into.
fn stores_outside(top: OperationRef<'_, '_>, loops: &[OperationRef<'_, '_>]) -> bool {
    let mut outside = false;
    top.walk(WalkOrder::PreOrder, |op| {
        if matches!(op.name().as_string_ref().as_str(), Ok("sparse_pos.store" | "memref.store")) {
            let mut parent = op.parent_operation();
            let mut covered = false;
            while let Some(current) = parent {
                if loops.iter().any(|l| l.to_raw().ptr == current.to_raw().ptr) {
                    covered = true;
                    break;
                }
                parent = current.parent_operation();
            }
            if !covered {
                outside = true;
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    outside
}

/// Whether every store under `top` reduces into the element it
/// overwrites (`m[i] = m[i] + v`, or a maximum or minimum) in a type the
/// GPU updates atomically, and nothing in `top` reads the arrays it
/// updates but those updates (`W += e; Z += W` reads W's partial sums):
/// the only updates that blocks running a reduction loop's positions at
/// once can make. The updates of one array are by one reduction: a sum
/// and a maximum of one element do not commute.
fn accumulates_only(top: OperationRef<'_, '_>) -> bool {
    let atomic = |store: OperationRef<'_, '_>| {
        // The element's own type: a vector element has no atomic update.
        let element = store.operand(0).ok().map(|value| value.r#type());
        crate::ir_query::reduction_within(store, top)
            .is_some_and(|(_, _, reduction)| element.is_some_and(|element| reduction.atomic_on_gpu(element)))
    };
    if find_store(top, |store| !atomic(store)).is_some() {
        return false;
    }
    let (mut own_loads, mut arrays) = (Vec::new(), Vec::new());
    let mut other_read = false;
    let mut mixed = false;
    top.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op_name(&op) == "sparse_pos.store" {
            let reduction = crate::ir_query::reduction_within(op, top);
            own_loads.extend(reduction.map(|(load, _, _)| load.to_raw().ptr));
            if let (Some(array), Some((_, _, reduction))) = (op.operand(1).ok().map(crate::buffer::array), reduction) {
                mixed |= arrays.iter().any(|&(other, by)| other == array && by != reduction);
                arrays.push((array, reduction));
            }
        }
        WalkResult::Advance
    });
    if mixed {
        return false;
    }
    top.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) != "sparse_pos.load" {
            return WalkResult::Advance;
        }
        let accumulated =
            op.operand(0).is_ok_and(|buffer| arrays.iter().any(|&(array, _)| array == crate::buffer::array(buffer)));
        if accumulated && !own_loads.contains(&op.to_raw().ptr) {
            other_read = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    !other_read
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let hand_bound: Vec<_> = bound_loops(root, |_| true).into_iter().map(|op| op.to_raw().ptr).collect();
    for top in outermost(root, is_loop) {
        schedule(top);
    }
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for function in outermost(root, |op| op.name().as_string_ref().as_str() == Ok("func.func")) {
        launch_host_code(context, function);
        // Host code that needs GPU memory (a sequential loop's bounds read
        // from indptr, a store whose run defines what follows) cannot stay
        // on the host: the nest it is in runs as one thread instead. A hand
        // schedule is the user's to change.
        let mut fallen_back = false;
        for op in top_level_ops(function) {
            let hand = bound_loops(op, |_| true).iter().any(|inner| hand_bound.contains(&inner.to_raw().ptr));
            if !op.has_attribute("bind") && holds_binding(op) && !hand && host_needs_memory(op) {
                unbind_all(op);
                fallen_back = true;
            }
        }
        if fallen_back {
            launch_host_code(context, function);
        }
    }
    Ok(())
}

/// The ops of the blocks of `function`'s body.
fn top_level_ops<'c, 'a>(function: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    for region in function.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            block = current.next_in_region();
            let mut next = current.first_operation();
            while let Some(op) = next {
                next = op.next_in_block();
                ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
            }
        }
    }
    ops
}

/// Whether code in `top` outside every bound loop stores to a buffer, or
/// does anything but compute and read with a value read from one: the
/// host can do neither with GPU memory. A read whose value only bound
/// loops use is fine: their launch reads it again itself.
fn host_needs_memory(top: OperationRef<'_, '_>) -> bool {
    const READS: [&str; 4] = ["sparse_pos.load", "sparse_pos.find", "sparse_pos.parent_position", "memref.load"];
    let reads = |op: OperationRef| READS.contains(&op.name().as_string_ref().as_str().unwrap_or_default());
    let mut found = false;
    top.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
        if inner.has_attribute("bind") {
            return WalkResult::Skip;
        }
        let name = inner.name().as_string_ref().as_str().unwrap_or_default().to_string();
        let computes = crate::sparse_pos_ops::movable(&inner) || reads(inner);
        found = matches!(name.as_str(), "sparse_pos.store" | "memref.store")
            || (!computes && inner.operands().any(|v| crate::ir_query::computed_through(v, reads)));
        if found {
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Takes the bindings (and their atomic writes) off every loop in `op`.
fn unbind_all(op: OperationRef<'_, '_>) {
    op.walk(WalkOrder::PreOrder, |inner| {
        let mut inner = unsafe { OperationRefMut::from_raw(inner.to_raw()) };
        inner.remove_attribute("bind").ok();
        inner.remove_attribute("atomic").ok();
        WalkResult::Advance
    });
}

/// Wraps the serial runs of `op`'s blocks, and of the blocks of the host
/// code around launches in them (an `scf.for` holding an iteration).
fn launch_host_code(context: &melior::Context, op: OperationRef<'_, '_>) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            block = current.next_in_region();
            for run in serial_runs(current) {
                launch_serially(context, &run);
            }
            let mut next = current.first_operation();
            while let Some(inner) = next {
                next = inner.next_in_block();
                let inner: OperationRef = unsafe { OperationRef::from_raw(inner.to_raw()) };
                if !inner.has_attribute("bind") && holds_binding(inner) {
                    launch_host_code(context, inner);
                }
            }
        }
    }
}

/// Runs of a function body's ops that touch buffers with no loop bound
/// around them (an init region's store into a rank-0 output, a maximum
/// over every position that blocks cannot share): on the GPU the host
/// cannot run them, so each run becomes one thread of one block. Runs
/// start and end at such ops, hold nothing but them and arithmetic, and
/// define nothing used after them.
fn serial_runs<'c, 'a>(body: BlockRef<'c, 'a>) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let mut runs = Vec::new();
    let mut run: Vec<OperationRef<'c, 'a>> = Vec::new();
    let mut close = |run: &mut Vec<OperationRef<'c, 'a>>| {
        while run.last().is_some_and(|op| !touches_buffers(*op)) {
            run.pop();
        }
        let defined_inside = |value: Value| run.iter().any(|op| op.results().any(|r| Value::from(r) == value));
        let used_after = run.last().is_some_and(|last| {
            let mut next = last.next_in_block();
            let mut used = false;
            while let Some(op) = next {
                used |= operands_within(op).into_iter().any(|v| defined_inside(v));
                next = op.next_in_block();
            }
            used
        });
        if !run.is_empty() && !used_after {
            runs.push(std::mem::take(run));
        }
        run.clear();
    };
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let op: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let serial = touches_buffers(op) && !holds_binding(op);
        let arithmetic =
            op.region_count() == 0 && op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("arith."));
        if serial || (arithmetic && !run.is_empty()) {
            run.push(op);
        } else {
            close(&mut run);
        }
    }
    close(&mut run);
    runs
}

/// Whether `op` (or an op in it) reads or writes a buffer at positions.
fn touches_buffers(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        if matches!(inner.name().as_string_ref().as_str(), Ok("sparse_pos.load" | "sparse_pos.store")) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

fn holds_binding(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        if inner.has_attribute("bind") {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// The operands of `op` and of the ops nested in it.
fn operands_within<'c>(op: OperationRef<'c, '_>) -> Vec<Value<'c, 'c>> {
    let mut operands = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
        operands.extend(inner.operands().map(crate::axis::detach));
        WalkResult::Advance
    });
    operands
}

/// Moves `run` into a loop of one position bound to blockIdx.x: a
/// launch of one block of one thread.
fn launch_serially(context: &melior::Context, run: &[OperationRef<'_, '_>]) {
    let Some(&first) = run.first() else { return };
    let first: OperationRef = unsafe { OperationRef::from_raw(first.to_raw()) };
    let location = first.location();
    let Some(builder) = crate::ir_builder::Builder::before(context, first) else { return };
    let builder = builder.at(location);
    let spatial = crate::sparse_pos_ops::kind_attribute(context, LoopKind::Spatial);
    let (serial, inside) =
        crate::sparse_pos_ops::insert_loop(&builder, SERIAL, spatial, builder.index(0), builder.index(1));
    unsafe { OperationRefMut::from_raw(serial.to_raw()) }
        .set_discardable_attribute("bind", StringAttribute::new(context, "blockIdx.x").into());
    for &op in run {
        inside.insert_existing(unsafe { OperationRef::from_raw(op.to_raw()) });
    }
}

/// The label of a loop `launch_serially` makes.
pub const SERIAL: &str = "serial";

/// Binds the nest under `top`: `top` to the blocks (blockIdx.x, or the
/// first block dimension no loop inside is bound to) and uniform innermost
/// spatial loops to the threads. A reduction loop whose updates blocks
/// cannot share (a maximum, a product, an overwrite), or a loop whose
/// positions pass data to each other (a triangular solve's rows), stays
/// sequential, on the host, and the loops in it are scheduled instead, a
/// launch per position.
fn schedule(mut top: OperationRef<'_, '_>) {
    let context_ref = top.context();
    let context = unsafe { context_ref.to_ref() };
    let bind = |op: OperationRef<'_, '_>, to: &str, atomic: bool| {
        let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        op.set_discardable_attribute("bind", StringAttribute::new(context, to).into());
        if atomic {
            op.set_discardable_attribute("atomic", Attribute::unit(context));
        }
    };
    // A loop of one position (an ELL bucket's placeholder root) makes a
    // grid of one block: the loop it wraps is the real grid.
    while !top.has_attribute("bind") && is_single(top) {
        match only_loop_in(top) {
            Some(inner) => top = inner,
            None => break,
        }
    }
    // A grid loop the hand schedule bound keeps its positions: a split
    // into blocks of threads would replace the user's loop with two.
    let hand_bound = top.has_attribute("bind");
    if !top.has_attribute("bind") {
        let reduction = loop_kind(top) == LoopKind::Reduction;
        // A loop marked to unroll or vectorize is one thread's work.
        let sequential = (reduction && !accumulates_only(top))
            || carried_conflict(top, top, false).is_some()
            || one_thread_mark(top).is_some();
        // A hand schedule may have bound a loop inside to blockIdx.x
        // (the inner part of a split): this one takes the next dimension.
        let free = DIMENSIONS[..3].iter().copied().find(|&dimension| !binds(top, dimension));
        match free {
            Some(grid) if !sequential => bind(top, grid, reduction),
            _ => {
                let outer = top.to_raw().ptr;
                for inner in outermost(top, |op| is_loop(op) && op.to_raw().ptr != outer) {
                    schedule(inner);
                }
                return;
            }
        }
    }
    if binds(top, "threadIdx.x") {
        complete_thread_loops(context, top);
        return;
    }
    // Innermost spatial loops first; else spatial loops whose inner loops
    // are all reductions (SDDMM's non-zeros around a dot product), each
    // thread running those in turn.
    let threads = thread_loops(top, contains_loop);
    let threads = match threads.is_empty() {
        true => thread_loops(top, contains_spatial_loop),
        false => threads,
    };
    if threads.is_empty() && !binds(top, "threadIdx.y") && !binds(top, "threadIdx.z") {
        if !hand_bound {
            split_into_blocks(context, top, "threadIdx.x", BLOCK_THREADS);
        }
        return;
    }
    // One launch has one block size: only loops with the bounds of the
    // first candidate share the threads. And every store must then sit
    // in one of them, or each thread of the block would repeat it.
    let Some(first) = threads.first().copied() else { return };
    let threads: Vec<_> = threads.into_iter().filter(|&op| same_bounds(op, first)).collect();
    if stores_outside(top, &threads) {
        if !hand_bound {
            split_into_blocks(context, top, "threadIdx.x", BLOCK_THREADS);
        }
        return;
    }
    // One thread loop: its threads never read what others of the block
    // wrote, so no barrier, which threadIdx.y would put out of reach.
    let alone = binds_only(top, "blockIdx.x") && threads.len() == 1;
    let trip = |n: usize| first.operand(n).ok().and_then(evaluate_index);
    let too_many = trip(1).zip(trip(0)).is_some_and(|(upper, lower)| upper - lower > MAX_BLOCK_THREADS);
    for op in threads {
        // A block has at most 1024 threads: each takes a chunk's position,
        // the chunks in turn.
        let op = match too_many {
            true => {
                let label = crate::sparse_pos_ops::loop_label(op);
                match crate::sparse_pos_split::split(context, op, &label, BLOCK_THREADS * 2, false) {
                    Ok((_, inner)) => inner,
                    Err(_) => return,
                }
            }
            false => op,
        };
        bind(op, "threadIdx.x", false);
    }
    // Few threads (a narrow ELL bucket's non-zeros): several of the
    // grid's positions share a block, on threadIdx.y.
    if let (true, Some(upper), Some(lower)) = (alone && !too_many && !hand_bound, trip(1), trip(0)) {
        let width = upper - lower;
        if (1..MIN_BLOCK_THREADS).contains(&width) {
            let rows = 1i64 << (BLOCK_THREADS / width).ilog2();
            split_into_blocks(context, top, "threadIdx.y", rows);
        }
    }
}

/// A hand schedule bound some loop to threadIdx.x (a feature loop): the
/// unbound loops that could be the same threads, outside every loop bound
/// to threadIdx.x (an init nest's feature loop), take it too, as the
/// default schedule would have bound them together; otherwise each thread
/// would repeat their stores. One with the same bounds is bound whole; one
/// with others (the hand schedule split the compute nest's feature loop,
/// not the init nest's) is split by the threads' number first, its inner
/// loop (guarded where it has fewer positions) bound.
fn complete_thread_loops(context: &melior::Context, top: OperationRef<'_, '_>) {
    let bound = bound_loops(top, |dimension| dimension == "threadIdx.x");
    let Some(first) = bound.first().copied() else { return };
    let threads = constant_trip(first).filter(|&n| n > 1);
    let bind = |op: OperationRef<'_, '_>| {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }
            .set_discardable_attribute("bind", StringAttribute::new(context, "threadIdx.x").into());
    };
    for op in thread_loops(top, contains_loop) {
        // thread_loops leaves the bound loops out.
        let apart = bound.iter().all(|&b| !encloses(b, op) && !encloses(op, b));
        if !apart {
            continue;
        }
        if same_bounds(op, first) {
            bind(op);
            continue;
        }
        // A loop that stores nothing is as right run whole by each thread.
        // (A tile's copy stores to memory, not to a buffer.)
        let stores = !crate::ir_query::ops_where(op, WalkOrder::PreOrder, |inner| {
            matches!(crate::ir_query::op_name(&inner).as_str(), "sparse_pos.store" | "memref.store" | "vector.store")
        })
        .is_empty();
        let Some(threads) = threads.filter(|_| stores) else { continue };
        let label = crate::sparse_pos_ops::loop_label(op);
        let program = std::iter::successors(Some(op), |p| p.parent_operation()).last().unwrap_or(op);
        let taken = [format!("{label}.o"), format!("{label}.i")]
            .iter()
            .any(|new| !crate::sparse_pos_ops::find_loops(program, new).is_empty());
        if label.is_empty() || taken {
            continue;
        }
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if let Ok((_, inner)) = crate::sparse_pos_split::split(context, op, &label, threads, false) {
            bind(inner);
        }
    }
}

/// The spatial loops under `top` with bounds known outside it, unbound,
/// for which `excluded` is false.
fn thread_loops<'c, 'a>(
    top: OperationRef<'c, 'a>,
    excluded: fn(OperationRef<'_, '_>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut threads = Vec::new();
    top.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        let candidate = is_loop(&op)
            && op.to_raw().ptr != top.to_raw().ptr
            && !op.has_attribute("bind")
            && one_thread_mark(op).is_none()
            && loop_kind(op) == LoopKind::Spatial
            && !excluded(op)
            && !uses_outer_local_buffer(op)
            && carried_conflict(op, top, true).is_none()
            && op.operands().all(|bound| outside(bound, top));
        if candidate {
            threads.push(op);
        }
        WalkResult::Advance
    });
    threads
}

fn contains_spatial_loop(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
        if inner.to_raw().ptr != op.to_raw().ptr
            && is_loop(&inner)
            && one_thread_mark(inner).is_none()
            && loop_kind(inner) == LoopKind::Spatial
        {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Threads a block when no loop inside the grid's loop can be its
/// threads (SpMV's rows, each a sequential dot product).
const BLOCK_THREADS: i64 = 128;

/// CUDA's most threads in a block.
const MAX_BLOCK_THREADS: i64 = 1024;

/// Fewer threads than this in a block leave most of an SM's warp slots
/// empty: the grid's positions then share blocks.
const MIN_BLOCK_THREADS: i64 = 64;

/// The grid's loop `top` (bound to blockIdx.x) goes to blocks of
/// `factor` positions, on `threads`: with nothing inside for the threads
/// (`threadIdx.x`), a block a position would leave all but one thread
/// idle; with few (`threadIdx.y`), most of the block.
fn split_into_blocks(context: &melior::Context, top: OperationRef<'_, '_>, threads: &str, factor: i64) {
    let top: OperationRef = unsafe { OperationRef::from_raw(top.to_raw()) };
    // A loop of few positions gains nothing from threads.
    let few = top.operand(1).ok().and_then(evaluate_index).is_some_and(|n| n <= 1);
    // A tile that `sparse-pos-cache-read` fills for each position is the
    // block's: its threads cannot each fill it for a position of their own.
    // Nor can a row's lanes share a buffer in scope "shared" that each
    // position uses as its own.
    let few = few || fills_tile(top) || carried_conflict(top, top, threads == "threadIdx.x").is_some();
    let bound = top.attribute("bind").ok().and_then(|a| StringAttribute::try_from(a).ok());
    // sparse-pos-split refuses a marked loop (and says so).
    let few = few || one_thread_mark(top).is_some();
    if few || factor <= 1 || bound.is_none_or(|b| b.value() != "blockIdx.x") {
        return;
    }
    let atomic = top.has_attribute("atomic");
    let label = crate::sparse_pos_ops::loop_label(top);
    let mut unbound = unsafe { OperationRefMut::from_raw(top.to_raw()) };
    unbound.remove_attribute("bind").ok();
    unbound.remove_attribute("atomic").ok();
    let Ok((outer, inner)) = crate::sparse_pos_split::split(context, top, &label, factor, false) else {
        return;
    };
    for (op, to) in [(outer, "blockIdx.x"), (inner, threads)] {
        let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        op.set_discardable_attribute("bind", StringAttribute::new(context, to).into());
        if atomic {
            op.set_discardable_attribute("atomic", Attribute::unit(context));
        }
    }
}

/// Whether a `memref.store` under `top` writes memory allocated outside it.
fn fills_tile(top: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    top.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() != Ok("memref.store") {
            return WalkResult::Advance;
        }
        let tile = op.operand(1).ok().and_then(|m| crate::ir_query::op_result(m).ok()).map(|r| r.owner());
        if tile.is_none_or(|tile| !encloses(top, tile)) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `top` is the only bound loop of its nest, bound to `dimension`.
fn binds_only(top: OperationRef<'_, '_>, dimension: &str) -> bool {
    let mut others = false;
    top.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr != top.to_raw().ptr && op.has_attribute("bind") {
            others = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    let bound = top.attribute("bind").ok().and_then(|a| StringAttribute::try_from(a).ok());
    !others && bound.is_some_and(|b| b.value() == dimension)
}
