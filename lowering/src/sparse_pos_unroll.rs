//! `sparse-pos-unroll`: the stage II schedule that asks for a loop to be
//! unrolled, so that its iterations' loads can be in flight together.
//! Without `factor`, the loop must have a constant trip count (the inner
//! loop of a split, at most 64 positions) and is unrolled whole; with
//! `factor=N`, a loop of any trip count (a row's non-zeros) runs N
//! iterations a step and the rest after. It checks and marks the loop
//! (`unroll`, a unit for whole, N for by N); `unroll-loops` does the
//! rewrite at stage III.

use crate::{
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{constant_trip, constant_trip_advice, named_loops},
};
use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationLike, OperationMutLike, OperationRefMut},
    r#type::IntegerType,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosUnroll",
    argument: "sparse-pos-unroll",
    description: "Mark a stage II loop to be unrolled at stage III: whole if its trip count is a constant of at most 64, or by factor=N (loop=LABEL [factor=N])",
    options: &[
        PassOption { name: "loop", help: "label of the sparse_pos.for to unroll", required: true, kind: OptionKind::Text },
        PassOption {
            name: "factor",
            help: "iterations a step, 2 to 64, for a loop of any trip count (without it: all of them)",
            required: false,
            kind: OptionKind::Positive,
        },
    ],
    dependent_dialects: "",
    run,
};

/// The longest loop unrolled: beyond it the code grows for little gain.
pub const MAX_TRIP: i64 = 64;

fn run(root: melior::ir::operation::OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    let factor = options.integers("factor").first().copied();
    let loops = named_loops("sparse-pos-unroll", root, label)?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    if let Some(factor) = factor.filter(|f| !(2..=MAX_TRIP).contains(f)) {
        let location = loops[0].location();
        return Err(emit_error(
            location,
            format!("sparse-pos-unroll: factor must be between 2 and {MAX_TRIP} (iterations a step), got {factor}"),
        ));
    }
    for op in loops {
        let trip = constant_trip(op);
        if factor.is_none() && !trip.is_some_and(|t| (1..=MAX_TRIP).contains(&t)) {
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
        let mark = match factor {
            Some(factor) => IntegerAttribute::new(IntegerType::new(context, 64).into(), factor).into(),
            None => Attribute::unit(context),
        };
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_discardable_attribute("unroll", mark);
    }
    Ok(())
}
