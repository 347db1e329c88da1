//! `lower-math-to-nvvm`: `math` ops in GPU kernels become NVPTX intrinsics.
//! Upstream `convert-gpu-to-nvvm` maps them to calls into CUDA's libdevice
//! (`__nv_expf`), which needs the CUDA toolkit to link; sptir builds PTX
//! without it, and a call left unresolved fails at module load. So, after
//! `math-expand-ops` has rewritten the compound functions (tanh, powf,
//! sinh, ...) into simpler ones, each that is left maps to the hardware's
//! own instruction: `abs`, `sqrt.rn`, `fma.rn`, `copysign` and the
//! roundings (`cvt.rmi`, `cvt.rpi`, `cvt.rzi`, `cvt.rni`; `round`, halves
//! away from zero, as the PTX backend writes it) on f32 and f64; on f32,
//! the approximate `ex2`, `lg2`, `sin`, `cos` and `rsqrt` (about 2^-22
//! relative error; `exp` and `log` scale by log2(e) and ln(2), as CUDA's
//! fast `__expf` does). The GPU pipeline keeps fma, ceil, round,
//! roundeven, exp2, powf, fpowi and asinh out of `math-expand-ops`: it
//! writes fma as a multiply and an add (two roundings), the roundings
//! through a conversion to i64 (wrong beyond 2^63, for infinities and for
//! NaN), powf as exp(y log x) (NaN for (-2)^3 and 0^0), and asinh with a
//! cancellation for negative x. This pass expands powf and fpowi with
//! C's signs and special cases, asinh on |x|, and `erf` on f32 as
//! arithmetic around `exp` (a series near zero, Abramowitz and Stegun's
//! rational form beyond).
//! A math op on vectors (a vectorized loop's `exp`) first becomes one op
//! on each lane: the approximate instructions have no vector form, and
//! PTX has no vector arithmetic to keep. Any other math op is an error
//! naming it, instead of an LLVM abort in the PTX backend. The float
//! arith ops that upstream also sends to libdevice are lowered here too:
//! maxnumf and minnumf to PTX's `max` and `min`; remf is refused.

use crate::{
    accumulation_chain::{scalar_type, vector_shape},
    ir_builder::{replace_op, Builder},
    ir_query::{constant_index, constant_of, op_name},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{arith, ods::vector},
    ir::{
        attribute::{
            DenseI32ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
        },
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder},
        r#type::IntegerType,
        Attribute, AttributeLike, Identifier, Type, TypeLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "LowerMathToNvvm",
    argument: "lower-math-to-nvvm",
    description: "Lower math ops in GPU kernels to NVPTX intrinsics (no libdevice): abs, sqrt, fma, copysign, roundings, approximate exp/log/sin/cos/rsqrt",
    options: &[],
    dependent_dialects: "arith,llvm,vector",
    run,
};

/// How a math op maps to an intrinsic: its name for f32 and for f64 (if
/// any), and a factor its operand (`Before`) or result (`After`) is
/// multiplied by.
struct Mapping {
    f32: &'static str,
    f64: Option<&'static str>,
    scale: Scale,
}

enum Scale {
    None,
    Before(f64),
    After(f64),
}

fn mapping(name: &str) -> Option<Mapping> {
    let exact = |f32, f64| Mapping { f32, f64: Some(f64), scale: Scale::None };
    let approximate = |f32, scale| Mapping { f32, f64: None, scale };
    Some(match name {
        "math.absf" => exact("llvm.fabs.f32", "llvm.fabs.f64"),
        "math.sqrt" => exact("llvm.sqrt.f32", "llvm.sqrt.f64"),
        "math.fma" => exact("llvm.fma.f32", "llvm.fma.f64"),
        "math.floor" => exact("llvm.floor.f32", "llvm.floor.f64"),
        "math.ceil" => exact("llvm.ceil.f32", "llvm.ceil.f64"),
        "math.trunc" => exact("llvm.trunc.f32", "llvm.trunc.f64"),
        "math.roundeven" => exact("llvm.roundeven.f32", "llvm.roundeven.f64"),
        "math.round" => exact("llvm.round.f32", "llvm.round.f64"),
        "math.copysign" => exact("llvm.copysign.f32", "llvm.copysign.f64"),
        "math.exp2" => approximate("llvm.nvvm.ex2.approx.f32", Scale::None),
        "math.exp" => approximate("llvm.nvvm.ex2.approx.f32", Scale::Before(std::f64::consts::LOG2_E)),
        "math.log2" => approximate("llvm.nvvm.lg2.approx.f", Scale::None),
        "math.log" => approximate("llvm.nvvm.lg2.approx.f", Scale::After(std::f64::consts::LN_2)),
        "math.sin" => approximate("llvm.nvvm.sin.approx.f", Scale::None),
        "math.cos" => approximate("llvm.nvvm.cos.approx.f", Scale::None),
        "math.rsqrt" => approximate("llvm.nvvm.rsqrt.approx.f", Scale::None),
        _ => return None,
    })
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let named = |wanted: &dyn Fn(&str) -> bool| {
        crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| wanted(&op_name(&op)))
    };
    let math_ops = || named(&|name| name.starts_with("math."));
    // The float arith ops that upstream convert-gpu-to-nvvm calls
    // libdevice for.
    for op in named(&|name| matches!(name, "arith.maxnumf" | "arith.minnumf" | "arith.remf")) {
        lower_arith(context, op)?;
    }
    for op in math_ops() {
        if op.result(0).is_ok_and(|r| vector_shape(r.r#type()).is_some()) {
            scalarize(context, op)?;
        }
    }
    for op in math_ops() {
        if op_name(&op) != "math.fma" && op.result_count() == 1 && op.result(0).is_ok_and(|r| is_narrow(r.r#type())) {
            widen(context, op)?;
        }
    }
    // Expansions first: the math ops they write are lowered with the rest.
    for op in math_ops() {
        match op_name(&op).as_str() {
            "math.erf" if op.result(0).is_ok_and(|r| r.r#type() == Type::float32(context)) => expand_erf(context, op)?,
            "math.powf" | "math.fpowi" => expand_pow(context, op)?,
            "math.asinh" => expand_asinh(context, op)?,
            "math.isnan" | "math.isfinite" => expand_class(context, op)?,
            _ => {}
        }
    }
    for op in math_ops() {
        // Integer math keeps its operand's type (isnan and isfinite take
        // floats to i1).
        let operand = op.operand(0).ok().map(|o| o.r#type());
        let result = op.result(0).ok().map(|r| r.r#type()).filter(|&r| Some(r) == operand);
        match result.and_then(|r| IntegerType::try_from(r).ok()) {
            Some(integer) => lower_integer(context, op, integer)?,
            None => lower(context, op)?,
        }
    }
    Ok(())
}

/// Replaces the vector math op `op` by the same op on each lane's
/// elements, gathered back into a vector.
fn scalarize<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let result = op.result(0).map_err(|_| refuse("has no result"))?;
    let r#type = result.r#type();
    let shape = vector_shape(r#type).ok_or_else(|| refuse("is not on vectors"))?;
    if unsafe { mlir_sys::mlirVectorTypeIsScalable(r#type.to_raw()) } {
        return Err(refuse("is on a scalable vector, which GPU code does not have"));
    }
    if op.result_count() != 1 || shape.iter().any(|&extent| extent < 1) {
        return Err(refuse("has a result that is not one vector of a fixed shape"));
    }
    let scalar = scalar_type(r#type);
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let operands: Vec<Value<'c, 'c>> = op.operands().collect();
    if operands.iter().any(|operand| vector_shape(operand.r#type()).as_ref() != Some(&shape)) {
        return Err(refuse("has operands of another shape than its result"));
    }
    let mut lanes = Vec::new();
    for flat in 0..shape.iter().product::<i64>() {
        let mut rest = flat;
        let mut position = vec![0; shape.len()];
        for (at, &extent) in position.iter_mut().zip(&shape).rev() {
            *at = rest % extent;
            rest /= extent;
        }
        let position: Attribute<'c> = DenseI64ArrayAttribute::new(context, &position).into();
        let elements: Vec<Value<'c, 'c>> = operands
            .iter()
            .map(|&operand| match splat_of(operand) {
                // A constant stays one, for the exact powers to see.
                Some(splat) => builder.value(arith::constant(context, splat, location)),
                None => builder.value(vector::extract(context, operand, &[], position, location)),
            })
            .collect();
        lanes.push(rebuild(&builder, op, &elements, scalar)?);
    }
    let value = builder.value(vector::from_elements(context, r#type, &lanes, location));
    replace_op(op, value);
    Ok(())
}

/// The op `op` is (its name and attributes) on `operands`, with one
/// result of `r#type`.
fn rebuild<'c>(
    builder: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    operands: &[Value<'c, 'c>],
    r#type: Type<'c>,
) -> Result<Value<'c, 'c>, PassFailed> {
    builder.rebuild(op, operands, r#type).ok_or_else(|| {
        emit_error(
            builder.location,
            format!("lower-math-to-nvvm: could not rebuild '{}' on {type}", op_name(&op), type = r#type),
        )
    })
}

/// Whether `r#type` is a float that the GPU's math computes in f32.
fn is_narrow(r#type: Type<'_>) -> bool {
    r#type.is_f16() || r#type.is_bf16()
}

/// Computes the math op `op` on f16 or bf16 in f32, as
/// math-extend-to-supported-types does (but for fma, whose f32 result
/// would round twice: PTX has fma.rn.f16 and fma.rn.bf16).
fn widen<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let result = op.result(0).map_err(|_| refuse("has no result"))?;
    let f32 = Type::float32(context);
    let operands: Vec<Value<'c, 'c>> = op
        .operands()
        .map(|operand| match (is_narrow(operand.r#type()), constant_float(operand)) {
            // A constant stays one, for the exact powers to see.
            (true, Some(value)) => float(&builder, f32, value),
            (true, None) => builder.value(arith::extf(operand, f32, location)),
            (false, _) => operand,
        })
        .collect();
    let wide = rebuild(&builder, op, &operands, f32)?;
    let value = builder.value(arith::truncf(wide, result.r#type(), location));
    replace_op(op, value);
    Ok(())
}

/// The element of a constant vector `value` whose elements are all one.
fn splat_of<'c>(value: Value<'c, '_>) -> Option<Attribute<'c>> {
    let dense = constant_of(value)?;
    unsafe {
        (mlir_sys::mlirAttributeIsADenseElements(dense.to_raw())
            && mlir_sys::mlirDenseElementsAttrIsSplat(dense.to_raw()))
        .then(|| Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(dense.to_raw())))
    }
}

/// Taylor coefficients of erf(x) / x in x^2 (2/sqrt(pi) (-1)^n / (n!
/// (2n + 1))), to n = 10: below |x| = 1 the first term left out is 1e-9.
const ERF_SERIES: [f64; 11] = [
    1.1283791670955126,
    -0.37612638903183754,
    0.11283791670955126,
    -0.026866170645131252,
    0.005223977625442188,
    -8.548327023450852e-4,
    1.2055332981789664e-4,
    -1.4925650358406251e-5,
    1.6462114365889246e-6,
    -1.6365844691234924e-7,
    1.4807192815879218e-8,
];

/// Abramowitz and Stegun 7.1.26: erf(x) = 1 - t (a1 + t (a2 + ...)) e^-x^2
/// with t = 1 / (1 + p x), for x >= 0, within 1.5e-7.
const ERF_P: f64 = 0.3275911;
const ERF_A: [f64; 5] = [0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429];

/// `math.erf` on f32 as arithmetic, `math.exp` and `math.absf`: the
/// series below |x| = 1, where it is exact to f32, the rational form
/// above (relative error under 2e-7 there, as erf >= 0.84), odd in x.
fn expand_erf<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: 'math.erf' {why}"));
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let x: Value<'c, 'c> = op.operand(0).map_err(|_| refuse("has no operand"))?;
    let constant = |c: f64| float(&builder, x.r#type(), c);
    let mul = |a, b| builder.value(arith::mulf(a, b, location));
    let add = |a, b| builder.value(arith::addf(a, b, location));
    let magnitude = math(&builder, "math.absf", &[x])?;
    let square = mul(x, x);
    let series = mul(x, horner(&builder, square, &ERF_SERIES));
    let one = constant(1.0);
    let t = builder.value(arith::divf(one, add(one, mul(constant(ERF_P), magnitude)), location));
    let decay = math(&builder, "math.exp", &[builder.value(arith::negf(square, location))])?;
    let tail = builder.value(arith::subf(one, mul(mul(t, horner(&builder, t, &ERF_A)), decay), location));
    let negative = builder.value(arith::cmpf(context, arith::CmpfPredicate::Olt, x, constant(0.0), location));
    let signed_tail = builder.select(negative, builder.value(arith::negf(tail, location)), tail);
    let near_zero = builder.value(arith::cmpf(context, arith::CmpfPredicate::Ole, magnitude, one, location));
    let value = builder.select(near_zero, series, signed_tail);
    replace_op(op, value);
    Ok(())
}

/// The float constant `c` of type `r#type`.
fn float<'c>(builder: &Builder<'c>, r#type: Type<'c>, c: f64) -> Value<'c, 'c> {
    let context = builder.context;
    builder.value(arith::constant(context, FloatAttribute::new(context, r#type, c).into(), builder.location))
}

/// The polynomial c0 + c1 t + c2 t^2 + ... in Horner's form.
fn horner<'c>(builder: &Builder<'c>, t: Value<'c, 'c>, coefficients: &[f64]) -> Value<'c, 'c> {
    let location = builder.location;
    // (The empty polynomial is 0.)
    let Some((last, rest)) = coefficients.split_last() else { return float(builder, t.r#type(), 0.0) };
    rest.iter().rev().fold(float(builder, t.r#type(), *last), |sum, &c| {
        let product = builder.value(arith::mulf(sum, t, location));
        builder.value(arith::addf(product, float(builder, t.r#type(), c), location))
    })
}

/// Builds the op `name` (a math op, or an LLVM intrinsic of the same
/// form) on `operands`, of the type of the first.
fn math<'c>(builder: &Builder<'c>, name: &str, operands: &[Value<'c, 'c>]) -> Result<Value<'c, 'c>, PassFailed> {
    let location = builder.location;
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(&[operands[0].r#type()])
        .build()
        .map(|op| builder.value(op))
        .map_err(|_| emit_error(location, format!("lower-math-to-nvvm: could not build '{name}'")))
}

/// `math.powf` x^y (and `math.fpowi`, y an integer) as CUDA's fast
/// `__powf`: 2^(y log2 |x|), with the sign and the special cases of C's
/// `pow`, which math-expand-ops' expansion misses (it gives NaN for
/// (-2)^3 and 0^0): a negative x to an odd integer power is negative, to
/// a power that is not an integer NaN (x finite); x^0, 1^y and (-1)^(+-inf)
/// are 1.
fn expand_pow<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let x: Value<'c, 'c> = op.operand(0).map_err(|_| refuse("has no base"))?;
    let exponent: Value<'c, 'c> = op.operand(1).map_err(|_| refuse("has no exponent"))?;
    let r#type = x.r#type();
    let constant = |c: f64| float(&builder, r#type, c);
    // A constant integer power (x^2, x^3 in GELU) is multiplications, as
    // exact as arithmetic gets and on f64 too; x^0.5 a square root.
    let integer_exponent = match name.as_str() {
        "math.fpowi" => constant_index(exponent),
        _ => constant_float(exponent).filter(|y| y.fract() == 0.0 && y.abs() <= 64.0).map(|y| y as i64),
    };
    let exact = match (integer_exponent.filter(|n| n.unsigned_abs() <= 64), constant_float(exponent)) {
        (Some(n), _) => Some(integer_power(&builder, x, n)?),
        (None, Some(y)) if y.abs() == 0.5 => {
            // pow(-0, 0.5) is +0 and pow(-inf, 0.5) +inf, where sqrt gives
            // -0 and NaN.
            let root = math(&builder, "math.sqrt", &[x])?;
            let unsigned = builder.value(arith::addf(root, constant(0.0), location));
            let minus_infinity = builder.value(arith::cmpf(
                context,
                arith::CmpfPredicate::Oeq,
                x,
                constant(f64::NEG_INFINITY),
                location,
            ));
            let root = builder.select(minus_infinity, constant(f64::INFINITY), unsigned);
            Some(match y < 0.0 {
                true => builder.value(arith::divf(constant(1.0), root, location)),
                false => root,
            })
        }
        _ => None,
    };
    if let Some(value) = exact {
        replace_op(op, value);
        return Ok(());
    }
    let compare = |predicate, a, b| builder.value(arith::cmpf(context, predicate, a, b, location));
    // The exponent as a float, whether it is odd, and (powf) whether it is
    // not an integer; fpowi's always is.
    let (y, odd, not_integer) = if name == "math.fpowi" {
        let y = builder.value(arith::sitofp(exponent, r#type, location));
        let integer =
            |n| builder.value(arith::constant(context, IntegerAttribute::new(exponent.r#type(), n).into(), location));
        let low_bit = builder.and(exponent, integer(1));
        (y, builder.cmp(arith::CmpiPredicate::Ne, low_bit, integer(0)), None)
    } else {
        let truncated = math(&builder, "math.trunc", &[exponent])?;
        let integer = compare(arith::CmpfPredicate::Oeq, truncated, exponent);
        let half = builder.value(arith::mulf(exponent, constant(0.5), location));
        let odd_half = compare(arith::CmpfPredicate::One, math(&builder, "math.trunc", &[half])?, half);
        (exponent, builder.and(integer, odd_half), Some(compare(arith::CmpfPredicate::Une, truncated, exponent)))
    };
    let magnitude = math(&builder, "math.absf", &[x])?;
    let log = math(&builder, "math.log2", &[magnitude])?;
    let power = math(&builder, "math.exp2", &[builder.value(arith::mulf(y, log, location))])?;
    // The sign bit, so that (-0)^3 is -0 and (-0)^-3 is -inf.
    let sign = math(&builder, "math.copysign", &[constant(1.0), x])?;
    let negative = compare(arith::CmpfPredicate::Olt, sign, constant(0.0));
    let signed = builder.select(builder.and(negative, odd), builder.value(arith::negf(power, location)), power);
    let value = match not_integer {
        Some(not_integer) => {
            let below_zero = compare(arith::CmpfPredicate::Olt, x, constant(0.0));
            let finite = compare(arith::CmpfPredicate::One, magnitude, constant(f64::INFINITY));
            let undefined = builder.and(builder.and(below_zero, finite), not_integer);
            builder.select(undefined, constant(f64::NAN), signed)
        }
        None => signed,
    };
    let unit_base = compare(arith::CmpfPredicate::Oeq, magnitude, constant(1.0));
    let infinite_exponent =
        compare(arith::CmpfPredicate::Oeq, math(&builder, "math.absf", &[y])?, constant(f64::INFINITY));
    let one = builder.or(
        builder.or(
            compare(arith::CmpfPredicate::Oeq, y, constant(0.0)),
            compare(arith::CmpfPredicate::Oeq, x, constant(1.0)),
        ),
        builder.and(unit_base, infinite_exponent),
    );
    let value = builder.select(one, constant(1.0), value);
    replace_op(op, value);
    Ok(())
}

/// x^n by squaring: |n| - 1 + log2 |n| multiplications at most, a
/// reciprocal for a negative n; x^0 is 1, NaN included.
fn integer_power<'c>(builder: &Builder<'c>, x: Value<'c, 'c>, n: i64) -> Result<Value<'c, 'c>, PassFailed> {
    let location = builder.location;
    let one = float(builder, x.r#type(), 1.0);
    let (mut power, mut base, mut rest) = (None, x, n.unsigned_abs());
    while rest > 0 {
        if rest & 1 == 1 {
            power = Some(power.map_or(base, |p| builder.value(arith::mulf(p, base, location))));
        }
        rest >>= 1;
        if rest > 0 {
            base = builder.value(arith::mulf(base, base, location));
        }
    }
    let Some(power) = power else { return Ok(one) };
    if n > 0 {
        return Ok(power);
    }
    // Where x^|n| overflows, (1/x)^|n| may still be a subnormal (8192^-10
    // is 7e-40, not 1/inf = 0).
    let inverse = integer_power(builder, builder.value(arith::divf(one, x, location)), -n)?;
    let infinity = float(builder, x.r#type(), f64::INFINITY);
    let compare = |predicate, v| -> Result<Value<'c, 'c>, PassFailed> {
        let magnitude = math(builder, "math.absf", &[v])?;
        Ok(builder.value(arith::cmpf(builder.context, predicate, magnitude, infinity, location)))
    };
    let overflowed = builder.and(compare(arith::CmpfPredicate::Oeq, power)?, compare(arith::CmpfPredicate::One, x)?);
    Ok(builder.select(overflowed, inverse, builder.value(arith::divf(one, power, location))))
}

/// The float `value` is, if an `arith.constant` defines it.
fn constant_float(value: Value<'_, '_>) -> Option<f64> {
    constant_of(value).and_then(|a| FloatAttribute::try_from(a).ok()).map(|f| f.value())
}

/// `math.isnan` as an unordered comparison of x with itself, and
/// `math.isfinite` as |x| ordered and unequal to infinity.
fn expand_class<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let x: Value<'c, 'c> = op.operand(0).map_err(|_| refuse("has no operand"))?;
    let value = match name.as_str() {
        "math.isnan" => builder.value(arith::cmpf(context, arith::CmpfPredicate::Uno, x, x, location)),
        _ => {
            let magnitude = math(&builder, "math.absf", &[x])?;
            let infinity = float(&builder, x.r#type(), f64::INFINITY);
            builder.value(arith::cmpf(context, arith::CmpfPredicate::One, magnitude, infinity, location))
        }
    };
    replace_op(op, value);
    Ok(())
}

/// Taylor coefficients of asinh(x) / x in x^2 ((-1)^n (2n)! / (4^n n!^2
/// (2n + 1))), to n = 6: below |x| = 1/4 the first term left out is 5e-11.
const ASINH_SERIES: [f64; 7] =
    [1.0, -1.0 / 6.0, 3.0 / 40.0, -5.0 / 112.0, 35.0 / 1152.0, -63.0 / 2816.0, 231.0 / 13312.0];

/// `math.asinh` as copysign(log(|x| + sqrt(x^2 + 1)), x) (log(2 |x|) above
/// 2^12), and its series below |x| = 1/4, where the log of a sum near 1 keeps too few of x's
/// digits: math-expand-ops takes the log of x + sqrt(x^2 + 1) itself,
/// which for a large negative x is a difference of near equals
/// (asinh(-100) off by 1e-4), and 0 for x = 1e-8.
fn expand_asinh<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: 'math.asinh' {why}"));
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let x: Value<'c, 'c> = op.operand(0).map_err(|_| refuse("has no operand"))?;
    let magnitude = math(&builder, "math.absf", &[x])?;
    let square = builder.value(arith::mulf(x, x, location));
    let one = float(&builder, x.r#type(), 1.0);
    let root = math(&builder, "math.sqrt", &[builder.value(arith::addf(square, one, location))])?;
    // Above 2^12, x^2 + 1 is x^2 in f32, and x^2 overflows from 2^64:
    // log(2 |x|) = log |x| + ln 2.
    let compare = |predicate, a, b| builder.value(arith::cmpf(context, predicate, a, b, location));
    let large = compare(arith::CmpfPredicate::Ogt, magnitude, float(&builder, x.r#type(), 4096.0));
    let sum = builder.select(large, magnitude, builder.value(arith::addf(magnitude, root, location)));
    let log = math(&builder, "math.log", &[sum])?;
    let doubled = builder.value(arith::addf(log, float(&builder, x.r#type(), std::f64::consts::LN_2), location));
    let far = math(&builder, "math.copysign", &[builder.select(large, doubled, log), x])?;
    let near = builder.value(arith::mulf(x, horner(&builder, square, &ASINH_SERIES), location));
    let quarter = float(&builder, x.r#type(), 0.25);
    let small = compare(arith::CmpfPredicate::Olt, magnitude, quarter);
    let value = builder.select(small, near, far);
    replace_op(op, value);
    Ok(())
}

fn lower<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let result = op.result(0).map_err(|_| refuse("has no result"))?;
    let (f32, f64) = (Type::float32(context), Type::float64(context));
    let element = result.r#type();
    let mapping = mapping(&name).ok_or_else(|| {
        refuse(&format!("{} has no lowering on the GPU without CUDA's libdevice; write it with arith and the math ops that have one: on f32 abs, sqrt, fma, floor, ceil, round, roundeven, trunc, copysign, exp, exp2, log, log2, sin, cos, tan, rsqrt, tanh, powf, erf, asinh, isnan, isfinite; on f64 only abs, sqrt, fma, the roundings, copysign, isnan, isfinite and powers by constant integers", if element == f64 { "on f64" } else { "here" }))
    })?;
    // fma is the one math op left on f16 and bf16 (`widen`).
    let intrinsic = if name == "math.fma" && element.is_f16() {
        "llvm.fma.f16"
    } else if name == "math.fma" && element.is_bf16() {
        "llvm.fma.bf16"
    } else if element == f32 {
        mapping.f32
    } else if element == f64 {
        // math-expand-ops writes tanh, powf, sinh and others with exp and
        // log at the op's own location: the op at the location may be one.
        mapping.f64.ok_or_else(|| refuse("on f64 (the op here, or what math-expand-ops writes an op here with: tanh, powf, sinh, cosh, ... on f64 use exp and log) has no lowering on the GPU without CUDA's libdevice (f32 has one)"))?
    } else {
        return Err(refuse("is lowered on the GPU for f16, bf16, f32 and f64 only, scalars or vectors"));
    };
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let scale =
        |value: Value<'c, 'c>, factor: f64| builder.value(arith::mulf(value, float(&builder, f32, factor), location));
    let mut operands: Vec<Value<'c, 'c>> = op.operands().collect();
    if let Scale::Before(factor) = mapping.scale {
        operands[0] = scale(operands[0], factor);
    }
    let mut value = call_intrinsic(&builder, intrinsic, &operands, element)?;
    if let Scale::After(factor) = mapping.scale {
        value = scale(value, factor);
    }
    replace_op(op, value);
    Ok(())
}

/// `arith.maxnumf` and `arith.minnumf` become LLVM's maxnum and minnum,
/// which are PTX's `max` and `min` (a NaN operand yields the other), on
/// any float and vector; `arith.remf` (C's fmod, exact) is refused: PTX
/// has no instruction for it.
fn lower_arith<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let intrinsic = match name.as_str() {
        "arith.maxnumf" => "llvm.intr.maxnum",
        "arith.minnumf" => "llvm.intr.minnum",
        _ => return Err(refuse("(fmod) has no lowering on the GPU without CUDA's libdevice: PTX has no remainder instruction for floats; where its rounding will do, write x - y * trunc(x / y) with math.trunc")),
    };
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let operands: Vec<Value<'c, 'c>> = op.operands().collect();
    let value = math(&builder, intrinsic, &operands)?;
    replace_op(op, value);
    Ok(())
}

/// `llvm.call_intrinsic` of `intrinsic` on `operands`, of type `r#type`.
fn call_intrinsic<'c>(
    builder: &Builder<'c>,
    intrinsic: &str,
    operands: &[Value<'c, 'c>],
    r#type: Type<'c>,
) -> Result<Value<'c, 'c>, PassFailed> {
    let context = builder.context;
    OperationBuilder::new("llvm.call_intrinsic", builder.location)
        .add_operands(operands)
        .add_results(&[r#type])
        .add_attributes(&[
            (Identifier::new(context, "intrin"), StringAttribute::new(context, intrinsic).into()),
            (Identifier::new(context, "op_bundle_sizes"), DenseI32ArrayAttribute::new(context, &[]).into()),
            (
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &[operands.len() as i32, 0]).into(),
            ),
        ])
        .build()
        .map(|call| builder.value(call))
        .map_err(|_| emit_error(builder.location, format!("lower-math-to-nvvm: could not build a call of {intrinsic}")))
}

/// Integer math: population count, leading and trailing zeros and the
/// absolute value are PTX's `popc`, `clz`, `brev`+`clz` and `abs`
/// (through LLVM's intrinsics, defined at zero and at the minimum).
fn lower_integer<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    r#type: IntegerType<'c>,
) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let (intrinsic, flag) = match name.as_str() {
        "math.ctpop" => ("llvm.ctpop", false),
        "math.ctlz" => ("llvm.ctlz", true),
        "math.cttz" => ("llvm.cttz", true),
        "math.absi" => ("llvm.abs", true),
        _ => {
            return Err(refuse(
                "on integers has no NVPTX instruction (ctpop, ctlz, cttz and absi do); run convert-math-to-funcs before this pass, as sptir-launches-to-gpu does, or write it with arith",
            ))
        }
    };
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let mut operands: Vec<Value<'c, 'c>> = op.operands().collect();
    if flag {
        // Not poison at zero (ctlz, cttz) or at the minimum (abs).
        let i1 = IntegerType::new(context, 1).into();
        operands.push(builder.value(arith::constant(context, IntegerAttribute::new(i1, 0).into(), location)));
    }
    let value = call_intrinsic(&builder, &format!("{intrinsic}.i{}", r#type.width()), &operands, r#type.into())?;
    replace_op(op, value);
    Ok(())
}
