//! `sparse-pos-split`: the stage II schedule that splits a position loop
//! into an outer loop over chunks and an inner loop of `factor` positions
//! (TensorIR's `split`), so that the inner one can go to threads with a
//! fixed block size. The last chunk may be partial: the body runs only for
//! positions below the original bound. By default a guard in the inner
//! loop checks that (the inner loop keeps its constant trip count, so it
//! can go to threads, vectors or be unrolled); with `clamp=true` the inner
//! loop stops there instead (`min(factor, left)` positions), which keeps
//! a sequential reduction's body free of branches.

use crate::{
    axis::detach,
    ir_builder::Builder,
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{check_new_labels, insert_loop, loop_position, named_loops, replace_loop},
};
use melior::{
    dialect::arith,
    ir::{
        attribute::Attribute,
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        RegionLike,
    },
    Context,
};

/// Marks the guard of a split's last chunk, which `clamp-guarded-loops`
/// turns into the loop's bound where the inner loop stays sequential.
pub const SPLIT_GUARD: &str = "sptir.split_guard";

pub const PASS: PassDef = PassDef {
    name: "SparsePosSplit",
    argument: "sparse-pos-split",
    description: "Split a stage II loop into LABEL.o (chunks) and LABEL.i (factor positions) (loop=LABEL factor=F)",
    options: &[
        PassOption {
            name: "loop",
            help: "label of the sparse_pos.for to split",
            required: true,
            kind: OptionKind::Text,
        },
        PassOption {
            name: "factor",
            help: "positions per chunk, at least 1",
            required: true,
            kind: OptionKind::Positive,
        },
        PassOption {
            name: "clamp",
            help: "true: the inner loop ends at the original bound instead of guarding its body",
            required: false,
            kind: OptionKind::Flag,
        },
    ],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    // The option parser made sure of a positive factor.
    let factor = options.integers("factor").first().copied().unwrap_or(1);
    let clamp = options.flag("clamp");
    let loops = named_loops("sparse-pos-split", root, label)?;
    check_new_labels("sparse-pos-split", root, loops[0], &[format!("{label}.o"), format!("{label}.i")])?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        split(context, op, label, factor, clamp)?;
    }
    Ok(())
}

/// Splits `op` (labelled `label`) as the module doc says; returns the
/// outer and the inner loop.
pub fn split<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    label: &str,
    factor: i64,
    clamp: bool,
) -> Result<(OperationRef<'c, 'c>, OperationRef<'c, 'c>), PassFailed> {
    let location = op.location();
    if op.has_attribute("bind") {
        return Err(emit_error(
            location,
            format!("sparse-pos-split: loop \"{label}\" is already bound; split before binding"),
        ));
    }
    if let Some(mark) = crate::sparse_pos_ops::one_thread_mark(op) {
        return Err(emit_error(
            location,
            format!("sparse-pos-split: loop \"{label}\" is marked to {mark}; split before marking it"),
        ));
    }
    let builder =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let (lower, upper) = (
        detach(op.operand(0).map_err(|_| emit_error(location, "malformed loop"))?),
        detach(op.operand(1).map_err(|_| emit_error(location, "malformed loop"))?),
    );
    let kind = op.attribute("kind").map_err(|_| emit_error(location, "malformed loop"))?;
    let size = builder.index(factor);
    let zero = builder.index(0);
    let trip = builder.trip(lower, upper);
    let chunks = builder.value(arith::ceildivui(trip, size, location));

    let (outer, inside_outer) = insert_loop(&builder, &format!("{label}.o"), kind, zero, chunks);
    let chunk = loop_position(outer)?;
    // Clamped, the chunk's start bounds the inner loop; guarded, it is
    // computed inside, keeping the loops perfectly nested.
    let clamped_start = clamp.then(|| inside_outer.mul(chunk, size));
    let inner_upper = match clamped_start {
        Some(start) => {
            let left = inside_outer.sub(trip, start);
            inside_outer.value(arith::minui(size, left, location))
        }
        None => size,
    };
    let (inner, inside_inner) = insert_loop(&inside_outer, &format!("{label}.i"), kind, zero, inner_upper);
    let offset = loop_position(inner)?;
    let start = clamped_start.unwrap_or_else(|| inside_inner.mul(chunk, size));
    let position = inside_inner.add(lower, inside_inner.add(start, offset));
    let end = if clamp {
        inner
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .and_then(|b| b.terminator())
            .map(|t| unsafe { OperationRef::<'c, 'c>::from_raw(t.to_raw()) })
            .ok_or_else(|| emit_error(location, "internal: loop without terminator"))?
    } else {
        let inside = inside_inner.cmp(arith::CmpiPredicate::Ult, position, upper);
        let (guard, end) = inside_inner.guard(inside);
        unsafe { OperationRefMut::from_raw(guard.to_raw()) }
            .set_discardable_attribute(SPLIT_GUARD, Attribute::unit(context));
        end
    };
    // Annotations of the original loop (other than its own shape) stay on
    // the outer loop.
    replace_loop(op, outer, position, end)?;
    Ok((outer, inner))
}
