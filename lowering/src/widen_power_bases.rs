//! `widen-power-bases`: `math.fpowi` on a float narrower than f64 is
//! computed in f64. The CPU lowering (`convert-math-to-funcs`) takes
//! `x^-n` as `1 / x^n`, and `x^n` overflows to infinity before the result
//! leaves the float's range: 1024^-14 is a denormal f32 (2^-140), but it
//! came out 0. In f64, `x^n` of an f32 `x` overflows only where the
//! result is below every f32 (rounded to 0 as it should be). The GPU has
//! its own expansion (`lower-math-to-nvvm`).

use crate::{
    accumulation_chain::{scalar_type, shaped_like},
    axis::detach,
    ir_builder::{replace_uses, Builder},
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::TypeLike,
        Type, Value, ValueLike,
    },
};

pub const PASS: PassDef = PassDef {
    name: "WidenPowerBases",
    argument: "widen-power-bases",
    description: "Compute math.fpowi on floats narrower than f64 in f64 (x^-n is 1 / x^n, whose x^n overflowed first)",
    options: &[],
    dependent_dialects: "arith",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut powers = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        // The name first: melior's error for a missing operand prints the
        // whole op.
        if op_name(&op) == "math.fpowi"
            && op.operand(0).is_ok_and(|base| {
                let element = scalar_type(base.r#type());
                element.is_float() && unsafe { mlir_sys::mlirFloatTypeGetWidth(element.to_raw()) } < 64
            })
        {
            powers.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    for power in powers {
        let location = power.location();
        let refused = || emit_error(location, "widen-power-bases: malformed math.fpowi");
        let (Ok(base), Ok(exponent), Ok(result)) = (power.operand(0), power.operand(1), power.result(0)) else {
            return Err(refused());
        };
        let builder = Builder::before(context, power).ok_or_else(refused)?.at(location);
        let f64 = Type::float64(context);
        let wide = shaped_like(base.r#type(), f64);
        let base = builder.value(arith::extf(base, wide, location));
        let power_wide = builder.rebuild(power, &[base, detach(exponent)], wide).ok_or_else(refused)?;
        let narrow: Value = builder.value(arith::truncf(power_wide, result.r#type(), location));
        replace_uses(result.into(), narrow);
        crate::ir_builder::erase(power);
    }
    Ok(())
}
