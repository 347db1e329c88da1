//! `expand-f8-conversions`: `arith.extf` and `arith.truncf` between the
//! 8-bit floats `f8E4M3FN` and `f8E5M2` (OCP FP8) and f16, bf16, f32 or
//! f64 become integer operations on their bits. LLVM has no 8-bit float
//! type, so the upstream conversions leave these casts unlowered; with
//! them expanded (and `arith-emulate-unsupported-floats` computing f8
//! arithmetic in f32 between such casts), kernels store and compute in
//! f8 on the CPU and the GPU alike.
//!
//! Widening is exact. Narrowing rounds to nearest, ties to even, as
//! `arith.truncf` specifies by default: from f16 and bf16 through f32
//! (exact), from f32 and f64 on their own bits, so that nothing is
//! rounded twice. A value beyond the largest finite f8 becomes infinity
//! in `f8E5M2` and NaN in `f8E4M3FN`, which has no infinity (as LLVM's
//! APFloat converts); NaN stays NaN, with its sign.

use crate::{
    accumulation_chain::{scalar_type, vector_shape},
    ir_builder::{replace_op, Builder},
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute},
        operation::{OperationLike, OperationRef, WalkOrder},
        r#type::IntegerType,
        Attribute, Type, TypeLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "ExpandF8Conversions",
    argument: "expand-f8-conversions",
    description: "Expand arith.extf/truncf to and from f8E4M3FN and f8E5M2 into integer operations on their bits",
    options: &[],
    dependent_dialects: "arith",
    run,
};

/// An 8-bit float format: exponent and mantissa bits, exponent bias, and
/// the codes (without sign) of its NaN and of what overflow gives.
#[derive(Clone, Copy)]
struct F8 {
    exponent: u32,
    mantissa: u32,
    bias: i64,
    nan: i64,
    overflow: i64,
    /// The largest finite code (without sign).
    max_finite: i64,
}

/// `f8E4M3FN` has no infinity; its one NaN is all ones.
const E4M3FN: F8 = F8 { exponent: 4, mantissa: 3, bias: 7, nan: 0x7F, overflow: 0x7F, max_finite: 0x7E };
/// `f8E5M2` is IEEE-like: all-ones exponent is infinity or NaN.
const E5M2: F8 = F8 { exponent: 5, mantissa: 2, bias: 15, nan: 0x7E, overflow: 0x7C, max_finite: 0x7B };

fn format(name: &str) -> Option<F8> {
    match name {
        "f8E4M3FN" => Some(E4M3FN),
        "f8E5M2" => Some(E5M2),
        _ => None,
    }
}

/// A wide float's layout: total, exponent and mantissa bits.
fn wide(name: &str) -> Option<(u32, u32, u32)> {
    match name {
        "f32" => Some((32, 8, 23)),
        "f64" => Some((64, 11, 52)),
        _ => None,
    }
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let casts = crate::ir_query::ops_where(root, WalkOrder::PostOrder, |op| {
        matches!(op_name(&op).as_str(), "arith.extf" | "arith.truncf")
    });
    for op in casts {
        let location = op.location();
        let (Ok(source), Ok(result)) = (op.operand(0), op.result(0)) else { continue };
        let (from, to) = (scalar_type(source.r#type()), scalar_type(result.r#type()));
        let (from_name, to_name) = (from.to_string(), to.to_string());
        // f8E4M3, f8E8M0FNU, ...; not f80.
        let unsupported = |name: &str| name.starts_with("f8E") && format(name).is_none();
        if let Some(name) = [&from_name, &to_name].into_iter().find(|n| unsupported(n)) {
            return Err(emit_error(
                location,
                format!("expand-f8-conversions: {name} is not supported; sptir converts f8E4M3FN and f8E5M2"),
            ));
        }
        let builder = Builder::before(context, op)
            .ok_or_else(|| emit_error(location, "expand-f8-conversions: the cast is not in a block"))?
            .at(location);
        let expander = Expander { context, builder, shape: vector_shape(source.r#type()) };
        let value = match (op_name(&op).as_str(), format(&from_name), format(&to_name)) {
            ("arith.extf", Some(f8), None) => expander.widen(source, f8, to),
            ("arith.truncf", None, Some(f8)) => expander.narrow(source, from, to, f8),
            _ => continue,
        };
        let value = value.ok_or_else(|| {
            emit_error(location, format!("expand-f8-conversions: cannot convert {from_name} to {to_name}"))
        })?;
        replace_op(op, value);
    }
    Ok(())
}

/// Builds the expansion of one cast, on scalars or on vectors of `shape`.
struct Expander<'c> {
    context: &'c Context,
    builder: Builder<'c>,
    shape: Option<Vec<i64>>,
}

impl<'c> Expander<'c> {
    /// `element`, or a vector of it in the cast's shape.
    fn shaped(&self, element: Type<'c>) -> Type<'c> {
        match &self.shape {
            None => element,
            Some(shape) => unsafe {
                Type::from_raw(mlir_sys::mlirVectorTypeGet(shape.len() as isize, shape.as_ptr(), element.to_raw()))
            },
        }
    }

    fn int(&self, bits: u32) -> Type<'c> {
        self.shaped(IntegerType::new(self.context, bits).into())
    }

    fn constant(&self, r#type: Type<'c>, scalar: Attribute<'c>) -> Option<Value<'c, 'c>> {
        let attribute = match &self.shape {
            None => scalar,
            Some(_) => DenseElementsAttribute::new(r#type, &[scalar]).ok()?.into(),
        };
        Some(self.builder.value(arith::constant(self.context, attribute, self.builder.location)))
    }

    /// An integer constant of `bits` bits (its low bits, for `u64`s wider
    /// than `i64`).
    fn int_constant(&self, bits: u32, value: u64) -> Option<Value<'c, 'c>> {
        let element = IntegerType::new(self.context, bits).into();
        self.constant(self.int(bits), IntegerAttribute::new(element, value as i64).into())
    }

    fn float_constant(&self, element: Type<'c>, value: f64) -> Option<Value<'c, 'c>> {
        self.constant(self.shaped(element), FloatAttribute::new(self.context, element, value).into())
    }

    /// f8 -> `to` (f16, bf16, f32 or f64): the f32 with the same value,
    /// built from the f8's sign, exponent and mantissa, then widened or
    /// narrowed exactly.
    fn widen(&self, value: Value<'c, 'c>, f8: F8, to: Type<'c>) -> Option<Value<'c, 'c>> {
        use arith::CmpiPredicate::{Eq, Ne};
        let location = self.builder.location;
        let (i32_type, f32_type) = (self.int(32), Type::float32(self.context));
        let byte = self.builder.value(arith::bitcast(value, self.int(8), location));
        let bits = self.builder.value(arith::extui(byte, i32_type, location));
        let c = |v: u64| self.int_constant(32, v);
        let sign =
            self.builder.value(arith::shli(self.builder.value(arith::shrui(bits, c(7)?, location)), c(31)?, location));
        let exponent = self.builder.value(arith::andi(
            self.builder.value(arith::shrui(bits, c(u64::from(f8.mantissa))?, location)),
            c((1 << f8.exponent) - 1)?,
            location,
        ));
        let mantissa = self.builder.value(arith::andi(bits, c((1 << f8.mantissa) - 1)?, location));
        // Normal: rebias the exponent, move the mantissa to f32's top bits.
        let rebiased = self.builder.value(arith::addi(exponent, c((127 - f8.bias) as u64)?, location));
        let normal = self.builder.value(arith::ori(
            self.builder.value(arith::shli(rebiased, c(23)?, location)),
            self.builder.value(arith::shli(mantissa, c(u64::from(23 - f8.mantissa))?, location)),
            location,
        ));
        // Subnormal (and zero): mantissa * 2^(1 - bias - mantissa bits),
        // exact in f32.
        let scale = (2.0f64).powi(1 - f8.bias as i32 - f8.mantissa as i32);
        let subnormal = self.builder.value(arith::mulf(
            self.builder.value(arith::uitofp(mantissa, self.shaped(f32_type), location)),
            self.float_constant(f32_type, scale)?,
            location,
        ));
        let subnormal = self.builder.value(arith::bitcast(subnormal, i32_type, location));
        let all_ones = c((1 << f8.exponent) - 1)?;
        let top = self.builder.cmp(Eq, exponent, all_ones);
        let (special, special_bits) = match f8.overflow == f8.nan {
            // E4M3FN: only all ones is special (NaN).
            true => {
                let full_mantissa = self.builder.cmp(Eq, mantissa, c((1 << f8.mantissa) - 1)?);
                (self.builder.value(arith::andi(top, full_mantissa, location)), c(0x7FC0_0000)?)
            }
            // E5M2: all-ones exponent is infinity, or NaN with a mantissa.
            false => {
                let nan = self.builder.cmp(Ne, mantissa, c(0)?);
                (top, self.builder.select(nan, c(0x7FC0_0000)?, c(0x7F80_0000)?))
            }
        };
        let magnitude = self.builder.select(self.builder.cmp(Eq, exponent, c(0)?), subnormal, normal);
        let magnitude = self.builder.select(special, special_bits, magnitude);
        let float = self.builder.value(arith::bitcast(
            self.builder.value(arith::ori(sign, magnitude, location)),
            self.shaped(f32_type),
            location,
        ));
        match to.to_string().as_str() {
            "f32" => Some(float),
            "f64" => Some(self.builder.value(arith::extf(float, self.shaped(to), location))),
            // Every f8 value is exact in f16 and bf16.
            "f16" | "bf16" => Some(self.builder.value(arith::truncf(float, self.shaped(to), location))),
            _ => None,
        }
    }

    /// `from` (f16, bf16, f32 or f64) -> `to`, an f8 laid out as `f8`, rounding to nearest even on
    /// the bits of `from` (f16 and bf16 go through f32, exactly).
    fn narrow(&self, value: Value<'c, 'c>, from: Type<'c>, to: Type<'c>, f8: F8) -> Option<Value<'c, 'c>> {
        use arith::CmpiPredicate::{Ugt, Ult};
        let location = self.builder.location;
        let (value, from) = match from.to_string().as_str() {
            "f16" | "bf16" => {
                let f32_type = Type::float32(self.context);
                (self.builder.value(arith::extf(value, self.shaped(f32_type), location)), f32_type)
            }
            _ => (value, from),
        };
        let (width, exponent_bits, mantissa_bits) = wide(&from.to_string())?;
        let word = self.int(width);
        let c = |v: u64| self.int_constant(width, v);
        let bits = self.builder.value(arith::bitcast(value, word, location));
        let sign = self.builder.value(arith::shrui(bits, c(u64::from(width - 1))?, location));
        let magnitude = self.builder.value(arith::andi(bits, c((1u64 << (width - 1)) - 1)?, location));
        let infinity = ((1u64 << exponent_bits) - 1) << mantissa_bits;
        let is_nan = self.builder.cmp(Ugt, magnitude, c(infinity)?);
        let wide_bias = (1i64 << (exponent_bits - 1)) - 1;
        // Normal in f8: round the mantissa to f8's bits (a carry moves into
        // the exponent), then rebias the exponent.
        let shift = u64::from(mantissa_bits - f8.mantissa);
        let lowest_kept = self.builder.value(arith::andi(
            self.builder.value(arith::shrui(magnitude, c(shift)?, location)),
            c(1)?,
            location,
        ));
        let rounding = self.builder.value(arith::addi(c((1 << (shift - 1)) - 1)?, lowest_kept, location));
        let rounded = self.builder.value(arith::shrui(
            self.builder.value(arith::addi(magnitude, rounding, location)),
            c(shift)?,
            location,
        ));
        let rebias = ((wide_bias - f8.bias) as u64) << f8.mantissa;
        let normal = self.builder.value(arith::subi(rounded, c(rebias)?, location));
        let overflow = self.builder.cmp(Ugt, normal, c(f8.max_finite as u64)?);
        // Below f8's smallest normal: the value in units of f8's smallest
        // subnormal (an exact scaling), rounded to an integer by adding and
        // subtracting 2^mantissa_bits (ties to even); 2^mantissa rounds
        // up into the smallest normal, whose code it is.
        let smallest_normal = ((wide_bias + 1 - f8.bias) as u64) << mantissa_bits;
        let is_subnormal = self.builder.cmp(Ult, magnitude, c(smallest_normal)?);
        let absolute = self.builder.value(arith::bitcast(magnitude, self.shaped(from), location));
        let scaled = self.builder.value(arith::mulf(
            absolute,
            self.float_constant(from, (2.0f64).powi(f8.bias as i32 + f8.mantissa as i32 - 1))?,
            location,
        ));
        let magic = self.float_constant(from, (2.0f64).powi(mantissa_bits as i32))?;
        let whole =
            self.builder.value(arith::subf(self.builder.value(arith::addf(scaled, magic, location)), magic, location));
        let subnormal = self.builder.value(arith::fptoui(whole, word, location));
        let code = self.builder.select(overflow, c(f8.overflow as u64)?, normal);
        let code = self.builder.select(is_subnormal, subnormal, code);
        let code = self.builder.select(is_nan, c(f8.nan as u64)?, code);
        let code =
            self.builder.value(arith::ori(self.builder.value(arith::shli(sign, c(7)?, location)), code, location));
        let byte = self.builder.value(arith::trunci(code, self.int(8), location));
        Some(self.builder.value(arith::bitcast(byte, self.shaped(to), location)))
    }
}
