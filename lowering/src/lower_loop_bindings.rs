//! `lower-loop-bindings`: stage III loops bound to GPU dimensions (the
//! `bind` attribute that `sparse-pos-bind` sets, kept on `scf.for`) become
//! one `gpu.launch` per outermost bound loop. A loop bound to `blockIdx.d`
//! sets grid dimension `d` to its trip count and becomes `lb + blockIdx.d`;
//! one bound to `threadIdx.d` does the same with the block. The trip counts
//! must be known before the launch, so their bounds must be defined outside
//! the outermost bound loop. Loops marked `atomic` have their stores marked
//! `sptir.atomic` for `lower-atomic-accumulations` (their bodies must
//! reduce into memory: `x = x + v`, or a maximum or minimum); loops marked `shuffle` (threadIdx.x, a
//! constant power-of-two trip count up to 32, so that each row of threads
//! is a cluster of lanes inside one warp) have them marked `sptir.shuffle`
//! with that count for `lower-shuffle-accumulations`. A
//! launch whose outermost bound loop is a thread loop has a grid of one
//! block (canonicalization folds away loops of one iteration, such as the
//! placeholder axis of an ELL bucket). A tile that `sparse-pos-cache-read`
//! made (`memref.alloca {sptir.shared}`) and that only the launch uses
//! becomes the launch's workgroup memory (a workgroup attribution), shared
//! by the block's threads.

use crate::{
    axis::detach,
    ir_builder::{erase, hoist_before, move_until_terminator, replace_uses, Builder},
    ir_query::{
        accumulation, computable_before, constant_index, defined_outside, encloses, holds_sync, marked_ops, op_name,
        outermost, reduction, root_memref, shared_reduction, static_shape, touches_memory, users, view_root,
        LANE_CLUSTERS,
    },
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    sparse_pos_bind::{DIMENSIONS, SHUFFLE_LOOP},
    sparse_pos_cache_read::SHARED,
    synchronize_thread_loops::ROW_BARRIER,
};
use melior::{
    dialect::{arith, ods::gpu},
    ir::{
        attribute::{Attribute, DenseI32ArrayAttribute, IntegerAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::{IntegerType, MemRefType, ShapedTypeLike},
        Block, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};

/// CUDA's largest grid (x, y, z) and block (x, y, z) sizes.
const LAUNCH_LIMITS: [i64; 6] = [i32::MAX as i64, 65535, 65535, 1024, 1024, 64];

/// The marker of a store that other threads may update at the same time.
pub const ATOMIC: &str = "sptir.atomic";

/// The marker of a store whose sum the lanes of a cluster (its value: the
/// cluster size) add together before one of them stores it.
pub const SHUFFLE: &str = "sptir.shuffle";

pub const PASS: PassDef = PassDef {
    name: "LowerLoopBindings",
    argument: "lower-loop-bindings",
    description: "Turn scf.for loops bound to blockIdx/threadIdx into gpu.launch",
    options: &[],
    dependent_dialects: "arith,gpu,memref,scf",
    run,
};

/// The GPU dimension (index into `DIMENSIONS`) a loop is bound to.
pub fn binding(op: &OperationRef<'_, '_>) -> Option<usize> {
    let bind = op.attribute("bind").ok().and_then(|a| StringAttribute::try_from(a).ok())?;
    DIMENSIONS.iter().position(|&d| d == bind.value())
}

pub fn is_for(op: &OperationRef<'_, '_>) -> bool {
    op.name().as_string_ref().as_str() == Ok("scf.for")
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in outermost(root, |op| is_for(op) && binding(op).is_some()) {
        launch(context, op)?;
    }
    Ok(())
}

fn launch<'c>(context: &'c Context, outer: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = outer.location();
    let mut bound: Vec<(OperationRef<'c, 'c>, usize)> = Vec::new();
    outer.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if is_for(&op) {
            if let Some(dimension) = binding(&op) {
                bound.push((op, dimension));
            }
        }
        WalkResult::Advance
    });
    let builder =
        Builder::before(context, outer).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let one = builder.index(1);
    let mut sizes = [one; 6];
    // Sibling loops may share a dimension (an init nest and the compute nest
    // both over threads) if they agree on its bounds; nested ones may not.
    let mut bounds: [Option<(Value<'c, 'c>, Value<'c, 'c>, OperationRef<'c, 'c>)>; 6] = [None; 6];
    for &(op, dimension) in &bound {
        let operand = |n| op.operand(n).map(detach).map_err(|_| emit_error(location, "malformed scf.for"));
        let (lower, upper) = (operand(0)?, operand(1)?);
        // A split's chunk count, computed where the split was.
        if computable_before(lower, outer) && computable_before(upper, outer) {
            hoist_before(lower, outer);
            hoist_before(upper, outer);
        }
        if !defined_outside(lower, outer) || !defined_outside(upper, outer) {
            return Err(emit_error(
                op.location(),
                format!(
                    "lower-loop-bindings: {} is bound to {}, but its bounds are computed inside the outermost bound loop (from a position of an enclosing loop or from memory read there: a row's length, a triangular bound, the end of a chunk that a split with clamp=true made), and a launch needs its sizes before it starts: bind a loop whose bounds are known before the launch, or leave this one unbound (each thread then runs it whole)",
                    crate::ir_query::stage3_label(op).map_or("the loop".to_string(), |label| format!("loop \"{label}\"")),
                    DIMENSIONS[dimension]
                ),
            ));
        }
        match bounds[dimension] {
            None => {
                bounds[dimension] = Some((lower, upper, op));
                sizes[dimension] = builder.trip(lower, upper);
            }
            Some((first_lower, first_upper, first)) => {
                if encloses(first, op) {
                    return Err(emit_error(
                        op.location(),
                        format!("lower-loop-bindings: nested loops are both bound to {}", DIMENSIONS[dimension]),
                    ));
                }
                if (first_lower, first_upper) != (lower, upper) {
                    let describe = |op: OperationRef<'_, '_>, lower: Value<'_, '_>, upper: Value<'_, '_>| {
                        let name =
                            crate::ir_query::stage3_label(op).map_or("a loop".into(), |l| format!("loop \"{l}\""));
                        match (constant_index(lower), constant_index(upper)) {
                            (Some(l), Some(u)) => format!("{name} ({} positions)", (u - l).max(0)),
                            _ => format!("{name} (positions known at run time)"),
                        }
                    };
                    return Err(emit_error(
                        op.location(),
                        format!(
                            "lower-loop-bindings: {} and {} are both bound to {} in one launch, whose threads run the same positions of each: give them the same bounds (split one by the other's size) or bind only one",
                            describe(first, first_lower, first_upper),
                            describe(op, lower, upper),
                            DIMENSIONS[dimension]
                        ),
                    ));
                }
            }
        }
    }

    // A launch the device cannot make fails at run time, on the GPU only;
    // sizes known here are checked against CUDA's limits where they are.
    let mut threads = 1i64;
    for dimension in 0..6 {
        let Some((lower, upper, op)) = bounds[dimension] else { continue };
        let (Some(lower), Some(upper)) = (constant_index(lower), constant_index(upper)) else { continue };
        let size = (upper - lower).max(0);
        if size > LAUNCH_LIMITS[dimension] {
            return Err(emit_error(
                op.location(),
                format!(
                    "lower-loop-bindings: {} is bound to {} and has {size} positions, but CUDA allows at most {limit} along it: split it (sparse-pos-split{{loop={} factor={limit}}}) and bind its inner loop, so that each thread or block walks the outer one",
                    crate::ir_query::stage3_label(op).map_or("the loop".to_string(), |label| format!("loop \"{label}\"")),
                    DIMENSIONS[dimension],
                    crate::ir_query::stage3_label(op).unwrap_or_else(|| "LABEL".to_string()),
                    limit = LAUNCH_LIMITS[dimension]
                ),
            ));
        }
        if dimension >= 3 {
            threads = threads.saturating_mul(size);
        }
    }
    if threads > 1024 {
        return Err(emit_error(
            location,
            format!("lower-loop-bindings: the loops bound to threads make blocks of {threads} threads, but CUDA allows at most 1024"),
        ));
    }
    size_row_barriers(context, outer, &bounds)?;
    let strided = strided_dimensions(&bound, &bounds, threads);
    for (dimension, cap) in strided.iter().enumerate() {
        if let Some(cap) = cap {
            sizes[dimension] = builder.value(arith::minui(sizes[dimension], builder.index(*cap), location));
        }
    }

    // Heap memory allocated in a kernel would be each thread's own, where
    // the program (run in order) meant one buffer.
    let mut heap = None;
    outer.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("memref.alloc") {
            heap = Some(unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) });
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if let Some(alloc) = heap {
        return Err(emit_error(
            alloc.location(),
            "lower-loop-bindings: a buffer in global memory is allocated inside loops bound to the GPU, where each thread would allocate its own; give the sparse_iter.alloc_buffer scope \"shared\" (one per block) or \"local\" (one per thread), or allocate it outside the bound loops",
        ));
    }

    // A store outside every loop bound to a dimension the launch uses runs
    // once per thread (or block) along it: wrong for an update (each would
    // add again), and racy where others then add to that memory (a late
    // thread's store would undo an earlier one's addition). Harmless, along
    // threads only, for a value that does not come from that memory when
    // only warp-shuffled loops along those dimensions touch it: their lanes
    // meet before the first one writes (a non-zero's zeroing in SDDMM).
    let mut used: Vec<usize> = bound.iter().map(|&(_, d)| d).collect();
    used.sort_unstable();
    used.dedup();
    let mut stray = None;
    outer.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if name != "memref.store" && name != "memref.atomic_rmw" {
            return WalkResult::Advance;
        }
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        // Each thread repeats it in its own copy, as the program meant.
        let own_copy = op
            .operand(1)
            .is_ok_and(|m| crate::synchronize_thread_loops::thread_private(outer, crate::ir_query::view_root(m)));
        if own_copy {
            return WalkResult::Advance;
        }
        let missing: Vec<usize> = used
            .iter()
            .copied()
            .filter(|&d| !bound.iter().any(|&(l, dimension)| dimension == d && encloses(l, op)))
            .collect();
        let repeatable = || {
            name == "memref.store"
                && missing.iter().all(|&d| d >= 3)
                && op.operand(1).is_ok_and(|m| {
                    let memory = root_memref(m);
                    !reads_memory(detach(op.operand(0).expect("a store has a value")), memory, 0)
                        && bound
                            .iter()
                            .filter(|(_, d)| missing.contains(d))
                            .all(|(l, _)| l.has_attribute(SHUFFLE_LOOP) || !touches_memory(*l, memory))
                })
        };
        match missing.first() {
            Some(&d) if !repeatable() => {
                // The loop the store is in, by its stage II label (a
                // compiler-made copy loop shares its iteration's location).
                let ancestors = || std::iter::successors(op.parent_operation(), |p| p.parent_operation());
                let inside = ancestors().take_while(|p| *p != outer).find_map(|p| crate::ir_query::stage3_label(p));
                // A loop of one position is folded away: the store sits
                // directly in a bound loop.
                let directly = match inside {
                    Some(_) => None,
                    None => ancestors().find_map(|p| crate::ir_query::stage3_label(p)),
                };
                stray = Some((op.location(), d, inside, directly));
                WalkResult::Interrupt
            }
            _ => WalkResult::Advance,
        }
    });
    if let Some((at, dimension, inside, directly)) = stray {
        let along = if dimension >= 3 { "thread of the block" } else { "block" };
        let store = match (inside, directly) {
            (Some(label), _) => format!("this store (in loop \"{label}\")"),
            (None, Some(label)) => {
                format!("this store (directly in loop \"{label}\": a loop of one position around it was folded away)")
            }
            (None, None) => "this store".to_string(),
        };
        return Err(emit_error(
            at,
            format!(
                "lower-loop-bindings: {store} is outside every loop bound to {0}, which the launch uses, so each {along} along {0} would repeat it; bind its loop to {0} too",
                DIMENSIONS[dimension]
            ),
        ));
    }

    let tiles = shared_tiles(outer)?;
    let (ids, terminator) = insert_launch(context, &builder, sizes);
    unsafe { OperationRefMut::from_raw(outer.to_raw()) }.move_before(terminator);
    attribute_workgroup_memory(context, terminator, &tiles)?;

    // Innermost first, so each loop is still in place when inlined.
    for &(op, dimension) in bound.iter().rev() {
        let marker = if op.has_attribute("atomic") {
            Some((ATOMIC, Attribute::unit(context)))
        } else if op.has_attribute(SHUFFLE_LOOP) {
            Some((SHUFFLE, cluster_size(context, op, dimension)?))
        } else {
            None
        };
        match strided[dimension] {
            Some(_) => stride_loop(context, op, ids[dimension], ids[dimension + 6], marker)?,
            None => inline_loop(context, op, ids[dimension], marker)?,
        }
    }
    Ok(())
}

/// Whether `op` is a loop on blockIdx.y or z of a trip count only the run
/// knows, which a block walks in turn (`strided_dimensions`): a sequential
/// loop to the threads inside it, which meet at its end where they share
/// memory (`synchronize-thread-loops`).
pub fn strided_grid_loop(op: &OperationRef<'_, '_>) -> bool {
    let constant = |n: usize| op.operand(n).ok().map(detach).and_then(constant_index).is_some();
    is_for(op) && matches!(binding(op), Some(1 | 2)) && !(constant(0) && constant(1))
}

/// Gives each row barrier under `outer` (`synchronize-thread-loops`'
/// `sptir.row`) the row's thread count, the block's x size, which must be
/// known here. `lower-row-barriers` synchronizes a row alone: a row whose
/// size divides 32 is that many consecutive lanes of one warp; a row of
/// whole warps (a multiple of 32) takes one of the hardware's 15 named
/// barriers, so a block has at most `MAX_NAMED_ROWS` such rows.
fn size_row_barriers<'c>(
    context: &'c Context,
    outer: OperationRef<'c, 'c>,
    bounds: &[Option<(Value<'c, 'c>, Value<'c, 'c>, OperationRef<'c, 'c>)>; 6],
) -> Result<(), PassFailed> {
    let barriers: Vec<_> =
        marked_ops(outer, ROW_BARRIER).into_iter().filter(|op| op_name(op) == "gpu.barrier").collect();
    let Some(&first) = barriers.first() else { return Ok(()) };
    let size_of = |dimension: usize| match bounds[dimension] {
        None => Some(1),
        Some((lower, upper, _)) => constant_index(lower).zip(constant_index(upper)).map(|(l, u)| (u - l).max(1)),
    };
    let size = size_of(3);
    let rows = size_of(4).zip(size_of(5)).map(|(y, z)| y * z);
    let fits = |size: i64| {
        32 % size == 0 || (size % 32 == 0 && rows.is_some_and(|rows| rows <= crate::lower_row_barriers::MAX_NAMED_ROWS))
    };
    let Some(size) = size.filter(|&size| fits(size)) else {
        let got = match (size, rows) {
            (None, _) => "a size known only at run time".to_string(),
            (Some(size), Some(rows)) if size % 32 == 0 => format!("{size} threads in each of {rows} rows"),
            (Some(size), None) if size % 32 == 0 => {
                format!("{size} threads in a number of rows known only at run time")
            }
            (Some(size), _) => format!("{size} threads"),
        };
        return Err(emit_error(
            first.location(),
            format!("lower-loop-bindings: only the threads of one row (threadIdx.x) meet at this barrier, so a row must lie inside one warp or take one of {} named barriers: the loop bound to threadIdx.x needs a constant trip count that divides 32, or a multiple of 32 with at most {} rows (threadIdx.y and z) of a constant count, got {got}", crate::lower_row_barriers::MAX_NAMED_ROWS, crate::lower_row_barriers::MAX_NAMED_ROWS),
        ));
    };
    for barrier in barriers {
        unsafe { OperationRefMut::from_raw(barrier.to_raw()) }.set_discardable_attribute(
            ROW_BARRIER,
            IntegerAttribute::new(IntegerType::new(context, 64).into(), size).into(),
        );
    }
    Ok(())
}

/// For each thread dimension whose size only the run knows, the most
/// threads it may have (`None` for the others): its loops then step by
/// the block's size, each thread taking every `cap`-th position, so that a
/// loop longer than a block still runs (a feature loop compiled without
/// its size). `threads` is the product of the sizes known here. Loops that
/// meet at barriers or shuffles keep one position a thread: their threads
/// must take the same number of steps. Likewise a loop on blockIdx.y or z
/// of a size only the run knows takes at most CUDA's 65535 blocks, each
/// stepping by the grid's size (blocks never wait for one another); x,
/// whose limit no index space here reaches, keeps a block a position.
fn strided_dimensions<'c>(
    bound: &[(OperationRef<'c, 'c>, usize)],
    bounds: &[Option<(Value<'c, 'c>, Value<'c, 'c>, OperationRef<'c, 'c>)>; 6],
    threads: i64,
) -> [Option<i64>; 6] {
    let is_dynamic = |d: usize| {
        bounds[d].is_some_and(|(lower, upper, _)| constant_index(lower).is_none() || constant_index(upper).is_none())
    };
    let mut strided = [None; 6];
    for d in [1, 2] {
        if bound.iter().any(|&(op, dimension)| dimension == d && strided_grid_loop(&op)) {
            strided[d] = Some(LAUNCH_LIMITS[d]);
        }
    }
    let dynamic: Vec<usize> = (3..6)
        .filter(|&d| {
            is_dynamic(d)
                && bound
                    .iter()
                    .filter(|&&(_, dimension)| dimension == d)
                    .all(|&(op, _)| !op.has_attribute(SHUFFLE_LOOP) && !holds_sync(op))
        })
        .collect();
    if dynamic.is_empty() {
        return strided;
    }
    // The dynamic dimensions share what the known ones leave of 1024, as
    // equal powers of two where there are several.
    let budget = (1024 / threads.max(1)).max(1);
    let share = match dynamic.len() {
        1 => budget,
        n => 1i64 << ((budget as f64).log2().floor() as u32 / n as u32),
    };
    for d in dynamic {
        strided[d] = Some(share.min(LAUNCH_LIMITS[d]).max(1));
    }
    strided
}

/// Makes a bound loop each thread's own: from `lb + id * step` by
/// `size * step`, `size` being the block's size along its dimension;
/// marks its stores with `marker` if given.
fn stride_loop<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    id: Value<'c, 'c>,
    size: Value<'c, 'c>,
    marker: Option<(&str, Attribute<'c>)>,
) -> Result<(), PassFailed> {
    let location = op.location();
    let builder =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let operand = |n| op.operand(n).map(detach).map_err(|_| emit_error(location, "malformed scf.for"));
    let (lower, step) = (operand(0)?, operand(2)?);
    let start = builder.add(lower, builder.mul(id, step));
    let stride = builder.mul(size, step);
    if let Some((name, value)) = marker {
        let block = op.region(0).ok().and_then(|r| r.first_block());
        let position = block
            .and_then(|b| b.argument(0).ok())
            .map(|a| detach(a.into()))
            .ok_or_else(|| emit_error(location, "loop without position"))?;
        mark_accumulations(op, position, name, value)?;
    }
    let mut loop_op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    loop_op.set_operand(0, start);
    loop_op.set_operand(2, stride);
    let _ = loop_op.remove_discardable_attribute("bind");
    Ok(())
}

/// Whether `index` differs at each value of `position`, the rest fixed:
/// the position itself, plus or minus values that do not follow it (or
/// plus a value and minus it again), times a non-zero constant, or cast
/// (wrapping aside). A store at such an
/// index writes an element no other position writes.
fn one_to_one<'c>(index: Value<'c, '_>, position: Value<'_, '_>, depth: usize) -> bool {
    if index == position {
        return true;
    }
    let Ok(result) = crate::ir_query::op_result(index) else { return false };
    let owner = result.owner();
    let operands: Vec<Value> = owner.operands().map(detach).collect();
    let follows = |v: Value<'_, '_>| depth < 16 && one_to_one(v, position, depth + 1);
    let fixed = |v: Value<'_, '_>| !crate::ir_query::depends_on(v, position);
    // `x - y` as its operands.
    let difference = |v: Value<'c, 'c>| -> Option<(Value<'c, 'c>, Value<'c, 'c>)> {
        let owner = crate::ir_query::op_result(v).ok()?.owner();
        let operands: Vec<Value> = owner.operands().map(detach).collect();
        (op_name(&owner) == "arith.subi").then(|| (operands[0], operands[1]))
    };
    match (op_name(&owner).as_str(), &operands[..]) {
        // A fused loop's flat index `start + (p - start)`, `start` its
        // row's (which follows p), is p.
        ("arith.addi", &[a, b]) if difference(b).is_some_and(|(x, y)| y == a && follows(x)) => true,
        ("arith.addi", &[a, b]) if difference(a).is_some_and(|(x, y)| y == b && follows(x)) => true,
        ("arith.addi" | "arith.subi", &[a, b]) => (follows(a) && fixed(b)) || (fixed(a) && follows(b)),
        ("arith.muli", &[a, b]) => {
            (follows(a) && constant_index(b).is_some_and(|c| c != 0))
                || (follows(b) && constant_index(a).is_some_and(|c| c != 0))
        }
        ("arith.index_cast" | "arith.index_castui", &[a]) => follows(a),
        _ => false,
    }
}

/// Whether `value` may come from memory `memory` (a `root_memref` key):
/// through a load of it, or through a block argument other than a loop's
/// position (a carried value), which is assumed to.
fn reads_memory(value: Value<'_, '_>, memory: usize, depth: usize) -> bool {
    if depth > 32 {
        return true;
    }
    match crate::ir_query::op_result(value) {
        Ok(result) => {
            let owner = result.owner();
            let name = op_name(&owner);
            if matches!(name.as_str(), "memref.load" | "vector.load")
                && owner.operand(0).is_ok_and(|m| root_memref(m) == memory)
            {
                return true;
            }
            // A load's memref is where it reads, checked above; its indices
            // may come from memory. An op with regions (a binary search's
            // loop) reads what its ops read: the memory itself, or values
            // from outside that may come from it.
            let mut inputs: Vec<Value> = owner.operands().collect();
            if owner.region_count() > 0 {
                if crate::ir_query::touches_memory(owner, memory) {
                    return true;
                }
                owner.walk(WalkOrder::PreOrder, |inner| {
                    let inner: OperationRef<'_, '_> = unsafe { OperationRef::from_raw(inner.to_raw()) };
                    inputs.extend(
                        inner
                            .operands()
                            .filter(|&v| crate::ir_query::defined_outside(v, owner))
                            .map(|v| unsafe { Value::from_raw(v.to_raw()) }),
                    );
                    WalkResult::Advance
                });
            }
            inputs
                .into_iter()
                .filter(|v| !melior::ir::r#type::TypeLike::is_mem_ref(&v.r#type()))
                .any(|v| reads_memory(detach(v), memory, depth + 1))
        }
        // A function's parameter holds what its caller passed.
        Err(_) => crate::ir_query::block_argument(value).map_or(true, |a| {
            let parameter = a.owner().parent_operation().is_some_and(|f| op_name(&f) == "func.func");
            !parameter && a.argument_number() > 0
        }),
    }
}

/// Inserts an empty `gpu.launch` of grid `sizes[0..3]` and block
/// `sizes[3..6]`; returns the body's twelve arguments (block ids, thread
/// ids, grid sizes, block sizes) and its terminator.
pub fn insert_launch<'c>(
    context: &'c Context,
    builder: &Builder<'c>,
    sizes: [Value<'c, 'c>; 6],
) -> (Vec<Value<'c, 'c>>, OperationRef<'c, 'c>) {
    let location = builder.location;
    let index = Type::index(context);
    let body = Block::new(&[(index, location); 12]);
    let terminator = body.append_operation(gpu::terminator(context, location).into());
    let terminator: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(terminator.to_raw()) };
    let ids: Vec<Value<'c, 'c>> = (0..12).map(|i| detach(body.argument(i).expect("launch argument").into())).collect();
    let region = Region::new();
    region.append_block(body);
    let launch = builder.insert(
        gpu::LaunchOperation::builder(context, location)
            .async_dependencies(&[])
            .grid_size_x(sizes[0])
            .grid_size_y(sizes[1])
            .grid_size_z(sizes[2])
            .block_size_x(sizes[3])
            .block_size_y(sizes[4])
            .block_size_z(sizes[5])
            .body(region)
            .build(),
    );
    // The generated builder leaves the segment sizes out: no async
    // dependencies, six sizes, no cluster, no dynamic shared memory.
    let mut launch = unsafe { OperationRefMut::from_raw(launch.to_raw()) };
    launch.set_inherent_attribute(
        "operandSegmentSizes",
        DenseI32ArrayAttribute::new(context, &[0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]).into(),
    );
    // Kernel outlining reads the workgroup attribution count from here.
    launch.set_discardable_attribute(
        "workgroup_attributions",
        IntegerAttribute::new(IntegerType::new(context, 64).into(), 0).into(),
    );
    (ids, terminator)
}

/// The shared tiles the loops under `outer` use; each must be used there
/// only, since workgroup memory lives as long as one block.
fn shared_tiles<'c>(outer: OperationRef<'c, 'c>) -> Result<Vec<OperationRef<'c, 'c>>, PassFailed> {
    let mut tiles: Vec<OperationRef<'c, 'c>> = Vec::new();
    outer.walk(WalkOrder::PreOrder, |op| {
        for operand in op.operands() {
            let Ok(result) = crate::ir_query::op_result(operand) else { continue };
            let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
            if op_name(&owner) == "memref.alloca" && owner.has_attribute(SHARED) && !tiles.contains(&owner) {
                tiles.push(owner);
            }
        }
        WalkResult::Advance
    });
    for &tile in &tiles {
        let Ok(result) = tile.result(0) else { continue };
        if let Some(user) = users(result.into()).into_iter().find(|&user| user != outer && !encloses(outer, user)) {
            return Err(emit_error(
                user.location(),
                "lower-loop-bindings: a shared tile is used here, outside the loops bound to the GPU that use it; bind the copy loop and the loop that reads the tile under the same outermost bound loop",
            ));
        }
    }
    Ok(tiles)
}

/// Makes each tile a workgroup attribution of the launch whose body ends
/// in `terminator`: a body argument in GPU workgroup memory.
fn attribute_workgroup_memory<'c>(
    context: &'c Context,
    terminator: OperationRef<'c, 'c>,
    tiles: &[OperationRef<'c, 'c>],
) -> Result<(), PassFailed> {
    if tiles.is_empty() {
        return Ok(());
    }
    let location = terminator.location();
    let body = terminator.block().ok_or_else(|| emit_error(location, "internal: launch without body"))?;
    let launch = body.parent_operation().ok_or_else(|| emit_error(location, "internal: body without launch"))?;
    let workgroup = workgroup_space(context).ok_or_else(|| emit_error(location, "internal: no gpu dialect"))?;
    let mut bytes = 0;
    for &tile in tiles {
        let result: Value<'c, 'c> = detach(tile.result(0).map_err(|_| emit_error(location, "internal"))?.into());
        let local = MemRefType::try_from(result.r#type()).map_err(|_| emit_error(tile.location(), "internal"))?;
        let shape = static_shape(local).ok_or_else(|| {
            emit_error(tile.location(), "lower-loop-bindings: a shared tile must have a static shape")
        })?;
        bytes += shape.iter().product::<i64>() * ((element_bits(local.element()) + 7) / 8);
        if bytes > MAX_SHARED_BYTES {
            return Err(emit_error(
                tile.location(),
                format!("lower-loop-bindings: the launch's shared tiles take {bytes} bytes with this one, but a block has at most {MAX_SHARED_BYTES} bytes of static shared memory; cache fewer positions, or fewer rows a block"),
            ));
        }
        let shared = MemRefType::new(local.element(), &shape, None, Some(workgroup));
        let argument = body.add_argument(shared.into(), tile.location());
        replace_uses(result, argument);
        erase(tile);
    }
    let count = body.argument_count() - 12;
    unsafe { OperationRefMut::from_raw(launch.to_raw()) }.set_discardable_attribute(
        "workgroup_attributions",
        IntegerAttribute::new(IntegerType::new(context, 64).into(), count as i64).into(),
    );
    Ok(())
}

/// The memory space of a block's shared tiles.
fn workgroup_space(context: &Context) -> Option<Attribute<'_>> {
    Attribute::parse(context, "#gpu.address_space<workgroup>")
}

/// CUDA's limit on a block's static shared memory.
const MAX_SHARED_BYTES: i64 = 48 * 1024;

/// The bits of a tile's element: an integer's or float's width; an index
/// is taken as 64 bits.
fn element_bits(element: Type<'_>) -> i64 {
    use melior::ir::r#type::TypeLike;
    if let Ok(integer) = IntegerType::try_from(element) {
        return integer.width() as i64;
    }
    if unsafe { mlir_sys::mlirTypeIsAFloat(element.to_raw()) } {
        return unsafe { mlir_sys::mlirFloatTypeGetWidth(element.to_raw()) } as i64;
    }
    64
}

/// The trip count of a loop bound with `shuffle`, as the `sptir.shuffle`
/// value: the block's x size, a power of two up to a warp.
fn cluster_size<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    dimension: usize,
) -> Result<Attribute<'c>, PassFailed> {
    let bound = |n| op.operand(n).ok().map(detach).and_then(constant_index);
    let trips = match (bound(0), bound(1)) {
        (Some(lower), Some(upper)) => Some(upper - lower),
        _ => None,
    };
    match trips {
        Some(trips) if DIMENSIONS[dimension] == "threadIdx.x" && LANE_CLUSTERS.contains(&trips) => {
            Ok(IntegerAttribute::new(IntegerType::new(context, 64).into(), trips).into())
        }
        _ => Err(emit_error(
            op.location(),
            format!(
                "lower-loop-bindings: a loop whose threads add their sums in a warp shuffle must be bound to threadIdx.x and run 1, 2, 4, 8, 16 or 32 times (a constant), got {} and {}",
                DIMENSIONS[dimension],
                trips.map_or("a trip count not known at compile time".to_string(), |t| format!("{t} times"))
            ),
        )),
    }
}

/// Replaces a bound loop by its body at position `lb + id`; marks its
/// stores with `marker` if given.
fn inline_loop<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    id: Value<'c, 'c>,
    marker: Option<(&str, Attribute<'c>)>,
) -> Result<(), PassFailed> {
    let location = op.location();
    let builder =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let lower = detach(op.operand(0).map_err(|_| emit_error(location, "malformed scf.for"))?);
    let position = builder.add(lower, id);
    let block =
        op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    if let Ok(iv) = block.argument(0) {
        replace_uses(iv.into(), position);
    }
    if let Some((name, value)) = marker {
        mark_accumulations(op, position, name, value)?;
    }
    move_until_terminator(block.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), op);
    erase(op);
    Ok(())
}

/// Marks each store of an atomic or shuffle loop, after checking that it
/// reduces (`m[i] = m[i] + v`, or `max(m[i], v)`, `min(m[i], v)`: a
/// `Reduction`); `lower-atomic-accumulations` and
/// `lower-shuffle-accumulations` rewrite them once the accumulators are in
/// registers, so that each thread contributes its sum once instead of
/// once per term. A plain store whose element is one to one with the
/// loop's `position` writes that position's own element (a softmax's
/// exponentials beside their sum): it stays plain, on its thread.
fn mark_accumulations<'c>(
    op: OperationRef<'c, 'c>,
    position: Value<'c, 'c>,
    marker: &str,
    value: Attribute<'c>,
) -> Result<(), PassFailed> {
    let stores = crate::ir_query::ops_where(op, WalkOrder::PreOrder, |inner| {
        inner.name().as_string_ref().as_str() == Ok("memref.store")
    });
    // Memory on the stack of a thread, or a block's shared tile under a
    // loop of blocks, is no other position's: its stores stay plain.
    let across_blocks = binding(&op).is_some_and(|dimension| dimension < 3);
    let own = |store: OperationRef<'c, 'c>| {
        let Ok(memory) = store.operand(1).map(|m| view_root(detach(m))) else { return false };
        let private = crate::ir_query::op_result(memory)
            .map(|r| r.owner())
            .is_ok_and(|alloca| op_name(&alloca) == "memref.alloca" && !alloca.has_attribute(SHARED));
        let space = MemRefType::try_from(memory.r#type()).ok().and_then(|r#type| r#type.memory_space());
        let shared = space.is_some() && space == workgroup_space(unsafe { op.context().to_ref() });
        private || (across_blocks && shared)
    };
    let positions_own = |store: OperationRef<'c, 'c>| {
        accumulation(store).is_none() && store.operands().skip(2).any(|index| one_to_one(detach(index), position, 0))
    };
    let kind = if marker == ATOMIC { "an atomic" } else { "a shuffle" };
    // One reduction a memref: threads' sums and maxima of one element
    // would land in any order, and they do not commute.
    let mut reductions: Vec<(Value<'c, 'c>, crate::reduction::Reduction)> = Vec::new();
    for store in stores.into_iter().filter(|&store| !own(store) && !positions_own(store)) {
        if reduction(store).is_none() {
            return Err(emit_error(
                store.location(),
                format!("lower-loop-bindings: a store in {kind} loop must combine the value it overwrites with a term by a sum, maximum or minimum (arith.addf, addi, maximumf, minimumf, maxnumf, minnumf, maxsi, minsi, maxui or minui), the only updates threads can share, or write an element of its position's own, which this one is not shown to (its index does not follow the position one to one); leave this loop sequential (bind a spatial loop outside it instead), or, if its positions write distinct elements, bind it without atomic=true"),
            ));
        }
        if shared_reduction(store).is_none() {
            return Err(emit_error(
                store.location(),
                format!("lower-loop-bindings: a store in {kind} loop updates the value it overwrites, but that old value is also read for something else here (another update, say), and threads updating at once would each read a different one; leave this loop sequential (bind a spatial loop outside it instead)"),
            ));
        }
        let Some((_, _, reduction)) = crate::ir_query::reduction_within(store, op) else {
            return Err(emit_error(
                store.location(),
                format!("lower-loop-bindings: a store in {kind} loop updates a value of the element read before the loop, so each position overwrites it with that value combined with its own term and the last one wins, which threads updating at once do not reproduce; read the element inside the loop, or leave the loop sequential"),
            ));
        };
        let memory = view_root(detach(store.operand(1).map_err(|_| emit_error(store.location(), "malformed store"))?));
        if let Some(&(_, other)) = reductions.iter().find(|&&(m, other)| m == memory && other != reduction) {
            return Err(emit_error(
                store.location(),
                format!("lower-loop-bindings: a store in {kind} loop updates an element by {} where another update in the loop uses {} on the same memory; threads doing both at once would apply them in any order, and they do not commute; leave this loop sequential, or update separate buffers", reduction.op_name(), other.op_name()),
            ));
        }
        reductions.push((memory, reduction));
        unsafe { OperationRefMut::from_raw(store.to_raw()) }.set_discardable_attribute(marker, value);
    }
    Ok(())
}
