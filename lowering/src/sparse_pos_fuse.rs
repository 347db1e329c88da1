//! `sparse-pos-fuse`: the stage II schedule that fuses two perfectly
//! nested position loops into one loop over their product (TensorIR's
//! `fuse`), so that a flat range of work can be split and bound to threads
//! regardless of how it was nested: rows times feature chunks on one grid
//! axis, say. The fused loop `OUTER+INNER` runs `n_outer * n_inner`
//! positions `p`; the outer position is `p / n_inner`, the inner one
//! `p % n_inner` (both offset by their lower bounds).
//!
//! The inner loop's bounds must not depend on the outer position (a
//! rectangular nest; a sparse nest fuses at stage I with `sparse-fuse`).
//! Side-effect-free ops between the loops move into the fused body.

use crate::{
    axis::detach,
    ir_builder::{erase, move_until_terminator, replace_uses, Builder},
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{
        check_new_labels, insert_loop, loop_kind, loop_label, loop_position, parent_loop, perfect_nest, two_loops,
        LoopKind,
    },
};
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        RegionLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosFuse",
    argument: "sparse-pos-fuse",
    description:
        "Fuse two perfectly nested stage II loops into one loop OUTER+INNER over their product (loops=OUTER,INNER)",
    options: &[PassOption {
        name: "loops",
        help: "two loop labels, outermost first; the second must be directly inside the first",
        required: true,
        kind: OptionKind::Text,
    }],
    dependent_dialects: "arith",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let ((outer_label, outers), (inner_label, inners)) =
        two_loops("sparse-pos-fuse", root, options.get("loops").unwrap_or_default())?;
    check_new_labels("sparse-pos-fuse", root, outers[0], &[format!("{outer_label}+{inner_label}")])?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // A decomposed format repeats labels per bucket: each pair that is
    // nested fuses.
    let pairs: Vec<_> = inners
        .iter()
        .filter_map(|&inner| parent_loop(inner).filter(|outer| outers.contains(outer)).map(|outer| (outer, inner)))
        .collect();
    if pairs.is_empty() {
        return Err(emit_error(
            outers[0].location(),
            format!("sparse-pos-fuse: loop \"{inner_label}\" is not directly inside loop \"{outer_label}\""),
        ));
    }
    for (outer, inner) in pairs {
        fuse(context, outer, inner)?;
    }
    Ok(())
}

fn fuse<'c>(context: &'c Context, outer: OperationRef<'c, 'c>, inner: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = outer.location();
    for op in [outer, inner] {
        // Only the loop's own shape may be set: a binding or a mark
        // (unroll, vectorize) would not mean the same on the product.
        let scheduled = op.attributes().any(|(name, _)| !matches!(name.as_string_ref().as_str(), Ok("label" | "kind")));
        if scheduled {
            return Err(emit_error(
                op.location(),
                format!(
                    "sparse-pos-fuse: loop \"{}\" is already scheduled; fuse before binding or marking it",
                    loop_label(op)
                ),
            ));
        }
    }
    let pre = perfect_nest("sparse-pos-fuse", outer, inner)?;
    let operand = |op: OperationRef<'c, 'c>, n| {
        op.operand(n).map(detach).map_err(|_| emit_error(op.location(), "malformed loop"))
    };
    let (outer_lower, outer_upper) = (operand(outer, 0)?, operand(outer, 1)?);
    let (inner_lower, inner_upper) = (operand(inner, 0)?, operand(inner, 1)?);

    let builder =
        Builder::before(context, outer).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let inner_trip = builder.trip(inner_lower, inner_upper);
    let total = builder.mul(builder.trip(outer_lower, outer_upper), inner_trip);
    let zero = builder.index(0);
    // The product accumulates if either loop does.
    let kind_of = if loop_kind(outer) == LoopKind::Reduction { outer } else { inner };
    let kind = kind_of.attribute("kind").map_err(|_| emit_error(location, "malformed loop"))?;
    let (fused, inside) =
        insert_loop(&builder, &format!("{}+{}", loop_label(outer), loop_label(inner)), kind, zero, total);
    let position = loop_position(fused)?;
    let outer_position = inside.add(outer_lower, inside.div(position, inner_trip));
    let inner_position = inside.add(inner_lower, inside.rem(position, inner_trip));
    replace_uses(loop_position(outer)?, outer_position);
    replace_uses(loop_position(inner)?, inner_position);
    for op in pre {
        inside.insert_existing(op);
    }
    let end = fused
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .map(|t| unsafe { OperationRef::<'c, 'c>::from_raw(t.to_raw()) })
        .ok_or_else(|| emit_error(location, "internal: fused loop without terminator"))?;
    let inner_body =
        inner.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    move_until_terminator(inner_body.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), end);
    erase(inner);
    erase(outer);
    Ok(())
}
