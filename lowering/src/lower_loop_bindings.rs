//! `lower-loop-bindings`: stage III loops bound to GPU dimensions (the
//! `bind` attribute that `sparse-pos-bind` sets, kept on `scf.for`) become
//! one `gpu.launch` per outermost bound loop. A loop bound to `blockIdx.d`
//! sets grid dimension `d` to its trip count and becomes `lb + blockIdx.d`;
//! one bound to `threadIdx.d` does the same with the block. The trip counts
//! must be known before the launch, so their bounds must be defined outside
//! the outermost bound loop. Loops marked `atomic` have their stores marked
//! `sptir.atomic` for `lower-atomic-accumulations` (their bodies must
//! accumulate: `x = x + v`). A
//! launch whose outermost bound loop is a thread loop has a grid of one
//! block (canonicalization folds away loops of one iteration, such as the
//! placeholder axis of an ELL bucket).

use crate::{
    axis::detach,
    ir_builder::{erase, move_until_terminator, replace_uses, Builder},
    ir_query::{accumulation, defined_outside, encloses, outermost},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    sparse_pos_bind::DIMENSIONS,
};
use melior::{
    dialect::ods::gpu,
    ir::{
        attribute::{Attribute, DenseI32ArrayAttribute, IntegerAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::IntegerType,
        Block, Region, RegionLike, Type, Value,
    },
    Context,
};

/// The marker of a store that other threads may update at the same time.
pub const ATOMIC: &str = "sptir.atomic";

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
        if !defined_outside(lower, outer) || !defined_outside(upper, outer) {
            return Err(emit_error(
                op.location(),
                format!("lower-loop-bindings: the bounds of the loop bound to {} must be known before the launch (defined outside the outermost bound loop)", DIMENSIONS[dimension]),
            ));
        }
        match bounds[dimension] {
            None => {
                bounds[dimension] = Some((lower, upper, op));
                sizes[dimension] = builder.sub(upper, lower);
            }
            Some((first_lower, first_upper, first)) => {
                if encloses(first, op) {
                    return Err(emit_error(
                        op.location(),
                        format!("lower-loop-bindings: nested loops are both bound to {}", DIMENSIONS[dimension]),
                    ));
                }
                if (first_lower, first_upper) != (lower, upper) {
                    return Err(emit_error(
                        op.location(),
                        format!(
                            "lower-loop-bindings: loops bound to {} in one launch must have the same bounds",
                            DIMENSIONS[dimension]
                        ),
                    ));
                }
            }
        }
    }

    // With several threads per block, a store outside the thread-bound
    // loops would run once per thread.
    let thread_loops: Vec<OperationRef<'c, 'c>> = bound.iter().filter(|(_, d)| *d >= 3).map(|(op, _)| *op).collect();
    if !thread_loops.is_empty() {
        let mut stray = None;
        outer.walk(WalkOrder::PreOrder, |op| {
            let name = op.name();
            let name = name.as_string_ref().as_str().unwrap_or_default();
            if name == "memref.store" || name == "memref.atomic_rmw" {
                let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
                if !thread_loops.iter().any(|l| encloses(*l, op)) {
                    stray = Some(op.location());
                    return WalkResult::Interrupt;
                }
            }
            WalkResult::Advance
        });
        if let Some(at) = stray {
            return Err(emit_error(at, "lower-loop-bindings: this store is outside every loop bound to threads, so each thread of the block would repeat it; bind its loop to threads too"));
        }
    }

    let (ids, terminator) = insert_launch(context, &builder, sizes);
    unsafe { OperationRefMut::from_raw(outer.to_raw()) }.move_before(terminator);

    // Innermost first, so each loop is still in place when inlined.
    for &(op, dimension) in bound.iter().rev() {
        let atomic = op.has_attribute("atomic");
        inline_loop(context, op, ids[dimension], atomic)?;
    }
    Ok(())
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

/// Replaces a bound loop by its body at position `lb + id`.
fn inline_loop<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    id: Value<'c, 'c>,
    atomic: bool,
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
    if atomic {
        mark_atomic(context, op)?;
    }
    move_until_terminator(block.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), op);
    erase(op);
    Ok(())
}

/// Marks each store of an atomic loop `sptir.atomic`, after checking that
/// it accumulates (`m[i] = m[i] + v`); `lower-atomic-accumulations` makes
/// them atomic once the accumulators are in registers, so that each thread
/// adds its sum once instead of once per term.
fn mark_atomic<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let mut stores = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        if inner.name().as_string_ref().as_str() == Ok("memref.store") {
            stores.push(unsafe { OperationRef::<'c, 'c>::from_raw(inner.to_raw()) });
        }
        WalkResult::Advance
    });
    for store in stores {
        if accumulation(store).is_none() {
            return Err(emit_error(
                store.location(),
                "lower-loop-bindings: a store in an atomic loop must add to the value it overwrites",
            ));
        }
        unsafe { OperationRefMut::from_raw(store.to_raw()) }
            .set_discardable_attribute(ATOMIC, Attribute::unit(context));
    }
    Ok(())
}
