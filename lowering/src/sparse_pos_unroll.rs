//! `sparse-pos-unroll`: the stage II schedule that asks for a loop of
//! constant trip count (the inner loop of a split, at most 64 positions)
//! to be unrolled, so that its iterations' loads can be in flight
//! together. It checks and marks the loop (`unroll`); `unroll-loops` does
//! the rewrite at stage III.

use crate::{
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{constant_trip, constant_trip_advice, named_loops},
};
use melior::ir::{
    attribute::Attribute,
    operation::{OperationLike, OperationMutLike, OperationRefMut},
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosUnroll",
    argument: "sparse-pos-unroll",
    description: "Mark a stage II loop of constant trip count (at most 64) to be unrolled at stage III (loop=LABEL)",
    options: &[PassOption {
        name: "loop",
        help: "label of the sparse_pos.for to unroll",
        required: true,
        kind: OptionKind::Text,
    }],
    dependent_dialects: "",
    run,
};

/// The longest loop unrolled: beyond it the code grows for little gain.
pub const MAX_TRIP: i64 = 64;

fn run(root: melior::ir::operation::OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    let loops = named_loops("sparse-pos-unroll", root, label)?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        let trip = constant_trip(op);
        if !trip.is_some_and(|t| (1..=MAX_TRIP).contains(&t)) {
            return Err(emit_error(
                op.location(),
                format!(
                    "sparse-pos-unroll: loop \"{label}\" must have a constant trip count between 1 and {MAX_TRIP} ({})",
                    constant_trip_advice(op)
                ),
            ));
        }
        if op.has_attribute("bind") {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-unroll: loop \"{label}\" is bound to a GPU dimension"),
            ));
        }
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_discardable_attribute("unroll", Attribute::unit(context));
    }
    Ok(())
}
