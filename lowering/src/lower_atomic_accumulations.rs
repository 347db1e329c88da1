//! `lower-atomic-accumulations`: the stores `lower-loop-bindings` marked
//! `sptir.atomic` (accumulations in a loop bound with `atomic=true`, where
//! other threads or blocks add to the same elements) become atomic
//! additions. It runs after `promote-accumulators`, so a store may be the
//! end of a register accumulation: `init = load m[i]`, loops and
//! conditionals that only add to the value, `store sum, m[i]`. The load is
//! replaced by zero (-0.0 for floats, the identity of addition) and the
//! store by an atomic add of the sum, so each thread adds its share once.
//! A maximum or minimum (`max(m[i], v)`) becomes an atomic maximum or
//! minimum the same way, from the reduction's identity.
//! A vector store becomes one atomic update per lane; where a float sum's
//! store was aligned to its whole vector, the first of them is marked
//! `sptir.vector_add = W` for `vectorize-atomic-adds`, which on the GPU
//! makes the W of them one vector reduction.

use crate::{
    accumulation_chain::{split_accumulation, vector_lanes},
    ir_builder::Builder,
    ir_query::marked_ops,
    lower_loop_bindings::ATOMIC,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    vectorize_atomic_adds::VECTOR_ADD,
};
use melior::{
    dialect::{ods::memref, ods::vector},
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        r#type::{IntegerType, TypeLike},
        Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "LowerAtomicAccumulations",
    argument: "lower-atomic-accumulations",
    description: "Turn stores marked sptir.atomic (sums, maxima, minima shared between threads) into atomic updates",
    options: &[],
    dependent_dialects: "arith,memref,vector",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for store in marked_ops(root, ATOMIC) {
        lower(context, store)?;
    }
    Ok(())
}

fn lower<'c>(context: &'c Context, store: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = store.location();
    let split = split_accumulation(context, store, "lower-atomic-accumulations")?;
    let reduction = split.reduction;
    // The memory's element type: a vector.store updates scalars, lane by
    // lane, but a vector element has no atomic update.
    let element = store
        .operand(1)
        .ok()
        .and_then(|memory| melior::ir::r#type::MemRefType::try_from(memory.r#type()).ok())
        .map(|memory| melior::ir::r#type::ShapedTypeLike::element(&memory))
        .ok_or_else(|| emit_error(location, "lower-atomic-accumulations: a store without its memref"))?;
    if !reduction.atomic_on_gpu(element) {
        return Err(emit_error(
            location,
            format!(
                "lower-atomic-accumulations: the GPU has no atomic {} of {}; it adds f16, bf16, f32, f64, i32 and \
                 i64, and takes maxima and minima of f32, f64, i32 and i64 (leave this loop unbound, or reduce into \
                 one of those types)",
                match reduction.noun() {
                    "sum" => "add",
                    noun => noun,
                },
                element
            ),
        ));
    }
    let kind = IntegerAttribute::new(IntegerType::new(context, 64).into(), reduction.atomic_kind());
    let builder = Builder::before(context, store)
        .ok_or_else(|| emit_error(location, "lower-atomic-accumulations: op is not in a block"))?
        .at(location);
    let (memref_value, indices) = (split.place[0], &split.place[1..]);
    let add = |value: Value<'c, 'c>, indices: &[Value<'c, 'c>]| {
        builder.insert(
            memref::AtomicRMWOperation::builder(context, location)
                .result(split.element_type)
                .value(value)
                .memref(memref_value)
                .indices(indices)
                .kind(kind.into())
                .build(),
        )
    };
    match vector_lanes(split.terms.r#type()) {
        None => {
            add(split.terms, indices);
        }
        Some(lanes) => {
            // A vector store writes `m[..., i + lane]`.
            let (last, outer) = indices.split_last().ok_or_else(|| {
                emit_error(
                    location,
                    "lower-atomic-accumulations: a vector store into a 0-D memref cannot be split into lanes",
                )
            })?;
            let claimed = store.attribute("alignment").ok().and_then(|a| IntegerAttribute::try_from(a).ok());
            let aligned = split.element_type.is_f32()
                && reduction == crate::reduction::Reduction::AddF
                && claimed.is_some_and(|bytes| bytes.value() % (4 * lanes) == 0);
            for lane in 0..lanes {
                let element = builder.value(vector::extract(
                    context,
                    split.terms,
                    &[],
                    DenseI64ArrayAttribute::new(context, &[lane]).into(),
                    location,
                ));
                let at = builder.add(*last, builder.index(lane));
                let atomic = add(element, &[outer, &[at]].concat());
                if lane == 0 && aligned {
                    let marker = IntegerAttribute::new(IntegerType::new(context, 64).into(), lanes);
                    unsafe { OperationRefMut::from_raw(atomic.to_raw()) }
                        .set_discardable_attribute(VECTOR_ADD, marker.into());
                }
            }
        }
    }
    split.finish(store);
    Ok(())
}
