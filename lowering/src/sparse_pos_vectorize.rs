//! `sparse-pos-vectorize`: the stage II schedule that asks for a loop of
//! constant trip count (2 or 4, typically the inner loop of a split along
//! the feature axis) to run as one vector operation, so that each thread
//! moves 8 or 16 bytes per load. A reduction loop (SDDMM's dot product)
//! vectorizes when each of its outputs is only accumulated into: the lanes'
//! sum is added once. It only checks and marks the loop
//! (`vectorize`); `vectorize-loops` does the rewrite at stage III, where
//! the flat offsets are visible and the alignment can be checked.

use crate::{
    ir_query::op_name,
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{constant_trip, constant_trip_advice, named_loops, FOR},
};
use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
    Type,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosVectorize",
    argument: "sparse-pos-vectorize",
    description: "Mark a stage II loop of constant trip count 2 or 4 to run as vector loads and stores (loop=LABEL)",
    options: &[PassOption {
        name: "loop",
        help: "label of the sparse_pos.for to vectorize",
        required: true,
        kind: OptionKind::Text,
    }],
    dependent_dialects: "",
    run,
};

/// Vector widths the rewrite produces: 16 bytes at most of f32.
pub const WIDTHS: [i64; 2] = [2, 4];

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    let loops = named_loops("sparse-pos-vectorize", root, label)?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        let location = op.location();
        let trip = constant_trip(op);
        let Some(width) = trip.filter(|trip| WIDTHS.contains(trip)) else {
            return Err(emit_error(
                location,
                format!(
                    "sparse-pos-vectorize: loop \"{label}\" must have a constant trip count of 2 or 4 ({})",
                    constant_trip_advice(op)
                ),
            ));
        };
        if op.has_attribute("bind") {
            return Err(emit_error(location, format!("sparse-pos-vectorize: loop \"{label}\" is bound to a GPU dimension; vectorize a loop inside the bound ones")));
        }
        let mut nested = false;
        op.walk(WalkOrder::PreOrder, |inner| {
            let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
            if inner != op && op_name(&inner) == FOR {
                nested = true;
                return WalkResult::Interrupt;
            }
            WalkResult::Advance
        });
        if nested {
            return Err(emit_error(
                location,
                format!(
                    "sparse-pos-vectorize: loop \"{label}\" holds another loop; only innermost loops are vectorized"
                ),
            ));
        }
        let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        let value: Attribute = IntegerAttribute::new(Type::index(context), width).into();
        op.set_discardable_attribute("vectorize", value);
    }
    Ok(())
}
