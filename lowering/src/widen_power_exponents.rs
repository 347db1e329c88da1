//! `widen-power-exponents`: `math.fpowi` with an exponent of fewer than 8
//! bits gets it sign-extended to i32 (an i1 `true` is -1). The CPU
//! lowering computes fpowi by `convert-math-to-funcs`, whose loop halves
//! the exponent with a right shift by one: on i1 that shift is poison, the
//! loop never ended, and the kernel hung.

use crate::{
    accumulation_chain::{scalar_type, shaped_like},
    ir_builder::Builder,
    ir_query::op_name,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::IntegerType,
        ValueLike,
    },
};

pub const PASS: PassDef = PassDef {
    name: "WidenPowerExponents",
    argument: "widen-power-exponents",
    description: "Sign-extend math.fpowi exponents of fewer than 8 bits to i32",
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
        // whole op, regions and all, and every loop has fewer than two.
        if op_name(&op) != "math.fpowi" {
            return WalkResult::Advance;
        }
        let narrow = op.operand(1).ok().and_then(|e| IntegerType::try_from(scalar_type(e.r#type())).ok());
        if narrow.is_some_and(|integer| integer.width() < 8) {
            powers.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    for power in powers {
        let Ok(exponent) = power.operand(1) else { continue };
        let Some(builder) = Builder::before(context, power) else { continue };
        let i32 = IntegerType::new(context, 32).into();
        let wide = shaped_like(exponent.r#type(), i32);
        let extended = builder.at(power.location()).value(arith::extsi(exponent, wide, power.location()));
        unsafe { OperationRefMut::from_raw(power.to_raw()) }.set_operand(1, extended);
    }
    Ok(())
}
