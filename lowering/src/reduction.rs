//! The updates of one element that threads may share: `m[i] = combine(m[i],
//! v)` with a `combine` whose order does not matter and that has an
//! identity (a sum, a maximum, a minimum). Threads that split the terms
//! can each combine theirs starting from the identity, then combine their
//! partial results across lanes (`gpu.subgroup_reduce`) or into memory
//! (`memref.atomic_rmw`): the same kind throughout.

use crate::{accumulation_chain::vector_lanes, ir_query::op_name};
use melior::{
    dialect::{arith, ods},
    ir::{
        attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute},
        operation::OperationRef,
        r#type::{IntegerType, TypeLike},
        Attribute, Location, Operation, Type, Value,
    },
    Context,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    AddF,
    AddI,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
}

use Reduction::*;

const ALL: [Reduction; 10] = [AddF, AddI, MaximumF, MinimumF, MaxNumF, MinNumF, MaxSI, MinSI, MaxUI, MinUI];

impl Reduction {
    /// The reduction an `arith` op combines by, if it is one.
    pub fn of(op: &OperationRef<'_, '_>) -> Option<Self> {
        let name = op_name(op);
        ALL.into_iter().find(|reduction| reduction.op_name() == name)
    }

    /// The addition of `element`'s type (a scalar type).
    pub fn addition(element: Type<'_>) -> Self {
        match crate::ir_builder::is_float(element) {
            true => AddF,
            false => AddI,
        }
    }

    pub fn is_addition(self) -> bool {
        matches!(self, AddF | AddI)
    }

    /// The `arith` op that combines two values.
    pub fn op_name(self) -> &'static str {
        match self {
            AddF => "arith.addf",
            AddI => "arith.addi",
            MaximumF => "arith.maximumf",
            MinimumF => "arith.minimumf",
            MaxNumF => "arith.maxnumf",
            MinNumF => "arith.minnumf",
            MaxSI => "arith.maxsi",
            MinSI => "arith.minsi",
            MaxUI => "arith.maxui",
            MinUI => "arith.minui",
        }
    }

    /// What a diagnostic calls the update.
    pub fn noun(self) -> &'static str {
        match self {
            AddF | AddI => "sum",
            MaximumF | MaxNumF | MaxSI | MaxUI => "maximum",
            MinimumF | MinNumF | MinSI | MinUI => "minimum",
        }
    }

    /// `gpu.subgroup_reduce`'s name of the reduction (`#gpu<all_reduce_op
    /// ...>`).
    pub fn subgroup_op(self) -> &'static str {
        match self {
            AddF | AddI => "add",
            _ => &self.op_name()["arith.".len()..],
        }
    }

    /// The reduction of a `gpu.subgroup_reduce` of values of `element`.
    pub fn of_subgroup_op(name: &str, element: Type<'_>) -> Option<Self> {
        match name {
            "add" => Some(Self::addition(element)),
            _ => ALL.into_iter().find(|reduction| !reduction.is_addition() && reduction.subgroup_op() == name),
        }
    }

    /// The `memref.atomic_rmw` kind (arith's AtomicRMWKind) that applies the
    /// reduction to memory.
    pub fn atomic_kind(self) -> i64 {
        match self {
            AddF => 0,
            AddI => 1,
            MaximumF => 4,
            MaxNumF => 5,
            MaxSI => 6,
            MaxUI => 7,
            MinimumF => 8,
            MinNumF => 9,
            MinSI => 10,
            MinUI => 11,
        }
    }

    /// Whether the GPU applies the reduction to an element of `element`
    /// atomically: additions of f16, bf16, f32, f64, i32 and i64, which the
    /// NVPTX backend has instructions for; maxima and minima of f32, f64,
    /// i32 and i64 (integers natively, floats by compare-and-swap).
    pub fn atomic_on_gpu(self, element: Type<'_>) -> bool {
        let integer = |w: &[u32]| IntegerType::try_from(element).is_ok_and(|i| w.contains(&i.width()));
        match self {
            AddF => crate::ir_builder::is_float(element),
            MaximumF | MinimumF | MaxNumF | MinNumF => element.is_f32() || element.is_f64(),
            _ => element.is_integer() && integer(&[32, 64]),
        }
    }

    /// The identity of the reduction for a scalar or vector `type` (a splat
    /// for a vector): -0.0 or 0 for sums (`-0.0 + x` is `x` for every `x`,
    /// `0.0 + -0.0` is not), the lowest and highest values for maxima and
    /// minima, and NaN for `maxnumf`/`minnumf`, which pass over it (where
    /// -inf would stand in for a maximum of NaNs alone). `None` where the
    /// type is not the reduction's or has no such value.
    pub fn identity<'c>(self, context: &'c Context, r#type: Type<'c>) -> Option<Attribute<'c>> {
        let element = crate::accumulation_chain::scalar_type(r#type);
        let float = crate::ir_builder::is_float(element);
        let scalar: Attribute<'c> = match self {
            AddF | MaximumF | MinimumF | MaxNumF | MinNumF if !float => return None,
            AddF => FloatAttribute::new(context, element, -0.0).into(),
            MaximumF => FloatAttribute::new(context, element, f64::NEG_INFINITY).into(),
            MinimumF => FloatAttribute::new(context, element, f64::INFINITY).into(),
            MaxNumF | MinNumF => FloatAttribute::new(context, element, f64::NAN).into(),
            AddI if element.is_index() => IntegerAttribute::new(element, 0).into(),
            _ => {
                let width = IntegerType::try_from(element).ok()?.width();
                if !(1..=64).contains(&width) {
                    return None;
                }
                let value = match self {
                    AddI | MaxUI => 0,
                    MinUI => -1,
                    MaxSI => i64::MIN >> (64 - width),
                    _ => i64::MAX >> (64 - width),
                };
                IntegerAttribute::new(element, value).into()
            }
        };
        match vector_lanes(r#type) {
            Some(_) => DenseElementsAttribute::new(r#type, &[scalar]).ok().map(Into::into),
            None => Some(scalar),
        }
    }

    /// `combine(lhs, rhs)`.
    pub fn combine<'c>(self, lhs: Value<'c, '_>, rhs: Value<'c, '_>, location: Location<'c>) -> Operation<'c> {
        let context = unsafe { location.context().to_ref() };
        match self {
            AddF => arith::addf(lhs, rhs, location),
            AddI => arith::addi(lhs, rhs, location),
            MaximumF => ods::arith::maximumf(context, lhs, rhs, location).into(),
            MinimumF => arith::minimumf(lhs, rhs, location),
            MaxNumF => arith::maxnumf(lhs, rhs, location),
            MinNumF => ods::arith::minnumf(context, lhs, rhs, location).into(),
            MaxSI => arith::maxsi(lhs, rhs, location),
            MinSI => arith::minsi(lhs, rhs, location),
            MaxUI => arith::maxui(lhs, rhs, location),
            MinUI => arith::minui(lhs, rhs, location),
        }
    }
}
