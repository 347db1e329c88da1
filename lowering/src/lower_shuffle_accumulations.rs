//! `lower-shuffle-accumulations`: the stores `lower-loop-bindings` marked
//! `sptir.shuffle = T` (accumulations in a reduction loop bound to
//! threadIdx.x with `shuffle=true`, T threads a row) become one addition
//! per row of threads: each thread's register sum (starting from zero, as
//! in `lower-atomic-accumulations`) is added across its cluster of T lanes
//! with `gpu.subgroup_reduce`, and the row's first thread adds the total
//! to the element. No atomics, and one memory update per row instead of
//! one per thread (SparseTIR's `rfactor` with a cross-thread reduction).
//! A maximum or minimum (`max(m[i], v)`) is reduced across the lanes the
//! same way, each lane starting from the reduction's identity.
//!
//! Every thread of the cluster must reach the reduction, so no branch or
//! loop around it may depend on threadIdx.x, and all must add to the same
//! element, so its indices may not either; the sum must be a 32-bit
//! scalar (what a warp shuffle moves).

use crate::{
    accumulation_chain::{split_accumulation, vector_lanes},
    axis::detach,
    ir_builder::{erase, if_else, Builder},
    ir_query::{depends_on_launch_ids, is_32_bit_scalar, marked_ops, op_name, touches_memref_or_syncs, LANE_CLUSTERS},
    lower_loop_bindings::{ATOMIC, SHUFFLE},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{arith, memref, ods::gpu},
    ir::{
        attribute::{Attribute, IntegerAttribute},
        block::{BlockLike, BlockRef},
        operation::{OperationLike, OperationRef},
        r#type::IntegerType,
        RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "LowerShuffleAccumulations",
    argument: "lower-shuffle-accumulations",
    description: "Turn stores marked sptir.shuffle into one addition per row of threads of their warp-shuffled sums",
    options: &[],
    dependent_dialects: "arith,gpu,memref,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut forwarded = Vec::new();
    for store in marked_ops(root, SHUFFLE) {
        if let Some(pair) = lower(context, store)? {
            forwarded.push(pair);
        }
    }
    erase_overwritten(&forwarded);
    Ok(())
}

/// Lowers one marked store; where the element's zeroing is in an
/// enclosing block, returns it with the block of the first lane's
/// store, which writes the element without reading it.
fn lower<'c>(
    context: &'c Context,
    store: OperationRef<'c, 'c>,
) -> Result<Option<(OperationRef<'c, 'c>, BlockRef<'c, 'c>)>, PassFailed> {
    let location = store.location();
    let cluster = store
        .attribute(SHUFFLE)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
        .filter(|size| LANE_CLUSTERS.contains(size))
        .ok_or_else(|| {
            emit_error(location, format!("lower-shuffle-accumulations: {SHUFFLE} must be 1, 2, 4, 8, 16 or 32"))
        })?;
    let thread_x = converged_thread_x(store)?;
    if store.operands().skip(1).any(|v| depends_on_launch_ids(detach(v), 3..4)) {
        return Err(emit_error(
            location,
            "lower-shuffle-accumulations: the lanes of a row must all add to one element, but this store's place depends on threadIdx.x",
        ));
    }
    let split = split_accumulation(context, store, "lower-shuffle-accumulations")?;
    let element = split.element_type;
    if vector_lanes(split.terms.r#type()).is_some() || !is_32_bit_scalar(element) {
        return Err(emit_error(
            location,
            format!(
                "lower-shuffle-accumulations: a warp shuffle moves 32-bit scalars; this {} is {}",
                split.reduction.noun(),
                split.terms.r#type()
            ),
        ));
    }
    // Before the reduction goes in between.
    let zeroing = lane_uniform_store_before(store, split.init, &split.place);
    let store_block =
        store.block().ok_or_else(|| emit_error(location, "lower-shuffle-accumulations: op is not in a block"))?;
    let builder = Builder::before(context, store)
        .ok_or_else(|| emit_error(location, "lower-shuffle-accumulations: op is not in a block"))?
        .at(location);
    let reduction = split.reduction;
    let kind = Attribute::parse(context, &format!("#gpu<all_reduce_op {}>", reduction.subgroup_op()))
        .ok_or_else(|| emit_error(location, "lower-shuffle-accumulations: no gpu dialect"))?;
    let total = builder.value(
        gpu::SubgroupReduceOperation::builder(context, location)
            .value(split.terms)
            .op(kind)
            .cluster_size(IntegerAttribute::new(IntegerType::new(context, 32).into(), cluster).into())
            .build(),
    );
    let first = builder.cmp(arith::CmpiPredicate::Eq, thread_x, builder.index(0));
    let init = split.init;
    let place = split.place.clone();
    if_else(
        &builder,
        first,
        &[],
        |inner| {
            let old: Value<'c, 'c> = match zeroing {
                Some(zeroing) => detach(zeroing.operand(0).expect("a store has a value")),
                None => detach(inner.insert_clone(init).result(0).expect("a load has a result").into()),
            };
            let new = inner.value(reduction.combine(old, total, location));
            inner.insert(memref::store(new, place[0], &place[1..], location));
            Vec::new()
        },
        |_| Vec::new(),
    );
    split.finish(store);
    match zeroing {
        Some(zeroing) if zeroing.block() == Some(store_block) => {
            erase(zeroing);
            Ok(None)
        }
        Some(zeroing) => Ok(Some((zeroing, store_block))),
        None => Ok(None),
    }
}

/// Erases a zeroing that every path past it overwrites: each region of
/// the op after it (the alignment versions of a vectorized sum) holds,
/// directly in its block, a first lane's store that wrote the element
/// from the zeroing's value. The other lanes then no longer store to the
/// element that the first lane writes after the shuffle.
fn erase_overwritten<'c>(forwarded: &[(OperationRef<'c, 'c>, BlockRef<'c, 'c>)]) {
    // Each zeroing once, wherever its accumulations stand in the walk: a
    // second erase of one op would free it twice.
    let mut zeroings: Vec<OperationRef<'c, 'c>> = Vec::new();
    for &(zeroing, _) in forwarded {
        if !zeroings.contains(&zeroing) {
            zeroings.push(zeroing);
        }
    }
    for zeroing in zeroings {
        let blocks: Vec<BlockRef<'c, 'c>> =
            forwarded.iter().filter(|&&(z, _)| z == zeroing).map(|&(_, block)| block).collect();
        let Some(versions) = blocks[0].parent_operation() else { continue };
        let covered = versions.block() == zeroing.block()
            && versions.regions().all(|region| {
                region
                    .first_block()
                    .is_some_and(|block| block.next_in_region().is_none() && blocks.iter().any(|&b| b == block))
            });
        if covered {
            erase(zeroing);
        }
    }
}

/// The plain store of one value to the accumulated element (its zeroing,
/// say) that every lane of the row makes before the old value is loaded,
/// with nothing from there to the accumulation touching that memref or
/// meeting other threads: in the accumulation's block, or in an enclosing
/// one around the `scf.if`s that hold it (never around a loop, whose
/// later iterations would read the sums of earlier ones). The first lane
/// may then add the total to the stored value instead of loading it back;
/// in the same block, the other lanes' stores go too (the first lane's
/// store overwrites them, and no lane's store can land after it).
fn lane_uniform_store_before<'c>(
    store: OperationRef<'c, 'c>,
    init: OperationRef<'c, 'c>,
    place: &[Value<'c, 'c>],
) -> Option<OperationRef<'c, 'c>> {
    let block = store.block()?;
    if init.block()? != block {
        return None;
    }
    // Nothing between the load and the accumulation may touch the element.
    let mut current = init.next_in_block();
    while let Some(op) = current {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op == store {
            break;
        }
        if touches_memref_or_syncs(op, place[0]) {
            return None;
        }
        current = op.next_in_block();
    }
    let mut anchor = init;
    loop {
        match last_store_before(anchor, place) {
            Before::Store(zeroing) => return Some(zeroing),
            Before::Touched => return None,
            Before::Nothing => {}
        }
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(anchor.parent_operation()?.to_raw()) };
        if op_name(&parent) != "scf.if" {
            return None;
        }
        anchor = parent;
    }
}

enum Before<'c> {
    /// A lane-uniform store to the element, nothing touching it after.
    Store(OperationRef<'c, 'c>),
    /// Something after the last such store touches the memref or syncs.
    Touched,
    /// Neither: the element is as it was on entering the block.
    Nothing,
}

/// What happens to the element in `anchor`'s block before `anchor`.
fn last_store_before<'c>(anchor: OperationRef<'c, 'c>, place: &[Value<'c, 'c>]) -> Before<'c> {
    let mut found = Before::Nothing;
    let mut current = anchor.block().and_then(|b| b.first_operation());
    while let Some(op) = current {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op == anchor {
            break;
        }
        current = op.next_in_block();
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        let plain_store = op_name(&op) == "memref.store"
            && !op.has_attribute(SHUFFLE)
            && !op.has_attribute(ATOMIC)
            && operands[1..] == *place;
        if plain_store && !depends_on_launch_ids(operands[0], 3..4) {
            found = Before::Store(op);
        } else if touches_memref_or_syncs(op, place[0]) {
            found = Before::Touched;
        }
    }
    found
}

/// The launch's threadIdx.x, after checking that nothing around `store`
/// inside the launch depends on it: the whole row of threads reaches the
/// reduction together.
fn converged_thread_x<'c>(store: OperationRef<'c, 'c>) -> Result<Value<'c, 'c>, PassFailed> {
    let location = store.location();
    let mut current = store;
    while let Some(parent) = current.parent_operation() {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        let name = op_name(&parent);
        let diverges = match name.as_str() {
            "gpu.launch" => {
                let body = parent
                    .region(0)
                    .ok()
                    .and_then(|r| melior::ir::RegionLike::first_block(&r))
                    .ok_or_else(|| emit_error(location, "launch without body"))?;
                return Ok(detach(body.argument(3).map_err(|_| emit_error(location, "launch without ids"))?.into()));
            }
            "scf.if" => parent.operand(0).is_ok_and(|c| depends_on_launch_ids(detach(c), 3..4)),
            "scf.for" => parent.operands().take(3).any(|v| depends_on_launch_ids(detach(v), 3..4)),
            _ => true,
        };
        if diverges {
            return Err(emit_error(
                parent.location(),
                format!("lower-shuffle-accumulations: the threads of a row must all reach their warp shuffle, but this {name} around it may send them different ways (it depends on threadIdx.x, or is not an scf.if or scf.for)"),
            ));
        }
        current = parent;
    }
    Err(emit_error(
        location,
        "lower-shuffle-accumulations: a store marked for a warp shuffle must be inside a gpu.launch",
    ))
}
