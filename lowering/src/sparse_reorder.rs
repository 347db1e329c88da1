//! `sparse-reorder`: the stage I schedule that changes the order in which a
//! sparse iteration walks its axes (SparseTIR section 3.2.2).
//!
//! Options name the iteration by label and give the new order as a
//! permutation of its loops (an axis, or a `fuse(...)` group, is one loop).
//! The body's coordinate arguments follow their axes, so the body is
//! unchanged; only the axis list, kinds and argument order move. A new
//! order is refused where the body reads a buffer it writes at other
//! coordinates (a dependence between positions, which the order carries).

use crate::ir_builder::replace_uses;
use crate::pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions};
use crate::sparse_iter_ops::{body_ops, scheduled_iterations, IterationInfo};
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, StringAttribute},
    block::BlockLike,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
    Location, RegionLike, Value, ValueLike,
};
use mlir_sys::mlirBlockEraseArgument;

pub const PASS: PassDef = PassDef {
    name: "SparseReorder",
    argument: "sparse-reorder",
    description: "Reorder the loops of a stage I sparse iteration (iteration=LABEL order=P0,P1,...)",
    options: &[
        PassOption { name: "iteration", help: "label of the sparse iteration", required: true, kind: OptionKind::Text },
        PassOption {
            name: "order",
            help: "new loop order as a permutation of loop positions, e.g. 0,2,1",
            required: true,
            kind: OptionKind::Indices,
        },
    ],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let order = options.indices("order");
    for iteration in scheduled_iterations(root, options, "sparse-reorder")? {
        reorder(iteration, &order)?;
    }
    Ok(())
}

fn reorder(op: OperationRef<'_, '_>, order: &[usize]) -> Result<(), PassFailed> {
    let info = IterationInfo::read(op);
    let mut op_mut = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    let location = op.location();
    let groups = info.groups();
    check_permutation(location, order, groups.len())?;

    // Axis positions in the new order, group by group.
    let new_axes: Vec<usize> = order.iter().flat_map(|&group| groups[group].clone()).collect();
    for (index, &axis) in new_axes.iter().enumerate() {
        if let Some(parent) = sptir_dialects::axis_parent(info.axes[axis]) {
            let earlier = new_axes[..index].iter().any(|&other| info.axes[other] == parent);
            let iterated_here = info.axes.contains(&parent);
            if iterated_here && !earlier {
                return Err(emit_error(
                    location,
                    format!(
                        "sparse-reorder: order puts axis #{axis} before its parent axis; \
                         a child axis's extent depends on its parent's position"
                    ),
                ));
            }
        }
    }

    if new_axes.iter().enumerate().any(|(index, &axis)| index != axis) {
        if let Some(load) = read_elsewhere(op) {
            return Err(emit_error(
                load.location(),
                "sparse-reorder: the body reads a buffer it writes, at other coordinates than it writes them: one position may read what another wrote, an order this schedule would change",
            ));
        }
    }

    // Two reduction axes in another order visit an output's terms in
    // another order: only an update whose order does not matter keeps it.
    let position = |axis: usize| new_axes.iter().position(|&a| a == axis);
    let reductions: Vec<usize> = (0..info.axes.len()).filter(|&a| info.kinds[a] == b'R').collect();
    let swapped = reductions.iter().any(|&a| reductions.iter().any(|&b| a < b && position(a) > position(b)));
    if swapped {
        let ordered = |store: &OperationRef| {
            crate::ir_query::op_name(store) != "sparse_iter.store" || crate::ir_query::order_free_update(*store)
        };
        if let Some(store) = crate::sparse_iter_ops::body_ops(op).into_iter().find(|store| !ordered(store)) {
            return Err(emit_error(
                store.location(),
                "sparse-reorder: the order puts two reduction axes the other way round, and this store is not an update whose order does not matter (a sum, product, maximum or minimum of the element and another value): its result depends on the order of the positions",
            ));
        }
    }

    let context = op.context();
    let kinds: String = new_axes.iter().map(|&axis| info.kinds[axis] as char).collect();
    let axes: Vec<Value> = new_axes.iter().map(|&axis| info.axes[axis]).collect();
    op_mut.set_operands(&axes);
    op_mut.set_inherent_attribute("kinds", StringAttribute::new(unsafe { context.to_ref() }, &kinds).into());
    if info.fused {
        let sizes: Vec<i64> = order.iter().map(|&group| groups[group].len() as i64).collect();
        op_mut.set_inherent_attribute(
            "fuse_groups",
            DenseI64ArrayAttribute::new(unsafe { context.to_ref() }, &sizes).into(),
        );
    }

    permute_arguments(op, 1, &new_axes);
    // The init region sees spatial coordinates only, in axis order.
    let spatial_old: Vec<usize> = (0..info.axes.len()).filter(|&a| info.kinds[a] == b'S').collect();
    let spatial_new: Vec<usize> = new_axes
        .iter()
        .filter(|&&a| info.kinds[a] == b'S')
        .map(|a| spatial_old.iter().position(|s| s == a).unwrap_or(0))
        .collect();
    permute_arguments(op, 0, &spatial_new);
    Ok(())
}

/// The first load in the iteration's body of a buffer the body stores to,
/// whose coordinates differ from those of every such store (so not the
/// old value of an accumulation).
fn read_elsewhere<'c>(op: OperationRef<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    let ops = body_ops(op);
    let named = |name: &'static str| ops.iter().copied().filter(move |o| o.name().as_string_ref().as_str() == Ok(name));
    let stores: Vec<_> = named("sparse_iter.store").collect();
    // A load's operands are the buffer and coordinates; a store's, the
    // value first.
    named("sparse_iter.load").find(|load| {
        let written: Vec<_> = stores.iter().filter(|store| store.operand(1).ok() == load.operand(0).ok()).collect();
        !written.is_empty() && written.iter().all(|store| !store.operands().skip(1).eq(load.operands()))
    })
}

fn check_permutation(location: Location<'_>, order: &[usize], loops: usize) -> Result<(), PassFailed> {
    let mut seen = vec![false; loops];
    let valid =
        order.len() == loops && order.iter().all(|&index| index < loops && !std::mem::replace(&mut seen[index], true));
    if valid {
        Ok(())
    } else {
        Err(emit_error(
            location,
            format!("sparse-reorder: order {order:?} is not a permutation of the iteration's {loops} loops"),
        ))
    }
}

/// Reorders the entry block arguments of region `region` of `op` so that
/// new argument `k` is old argument `permutation[k]`.
fn permute_arguments(op: OperationRef<'_, '_>, region: usize, permutation: &[usize]) {
    let Ok(region) = op.region(region) else { return };
    let Some(block) = region.first_block() else { return };
    let count = block.argument_count();
    if count != permutation.len() {
        return;
    }
    let old: Vec<Value> = (0..count).filter_map(|index| block.argument(index).ok().map(Into::into)).collect();
    for &index in permutation {
        let fresh = block.add_argument(old[index].r#type(), old[index].location());
        replace_uses(old[index], fresh.into());
    }
    for _ in 0..count {
        unsafe { mlirBlockEraseArgument(block.to_raw(), 0) };
    }
}
