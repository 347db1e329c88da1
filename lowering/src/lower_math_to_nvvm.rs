//! `lower-math-to-nvvm`: `math` ops in GPU kernels become NVPTX intrinsics.
//! Upstream `convert-gpu-to-nvvm` maps them to calls into CUDA's libdevice
//! (`__nv_expf`), which needs the CUDA toolkit to link; sptir builds PTX
//! without it, and a call left unresolved fails at module load. So, after
//! `math-expand-ops` has rewritten the compound functions (tanh, powf, ...)
//! into simpler ones, each that is left maps to the hardware's own
//! instruction: `abs`, `sqrt.rn`, `fma.rn` on f32 and f64; on f32, the
//! approximate `ex2`, `lg2`, `sin`, `cos` and `rsqrt` (about 2^-22
//! relative error; `exp` and `log` scale by log2(e) and ln(2), as CUDA's
//! fast `__expf` does). Any other math op is an error naming it, instead of
//! an LLVM abort in the PTX backend.

use crate::{
    ir_builder::{erase, replace_uses, Builder},
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        attribute::{DenseI32ArrayAttribute, FloatAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult},
        Identifier, Type, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "LowerMathToNvvm",
    argument: "lower-math-to-nvvm",
    description: "Lower math ops in GPU kernels to NVPTX intrinsics (no libdevice): abs, sqrt, fma, approximate exp/log/sin/cos/rsqrt",
    options: &[],
    dependent_dialects: "arith,llvm",
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
    let mut ops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op).starts_with("math.") {
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    for op in ops {
        lower(context, op)?;
    }
    Ok(())
}

fn lower<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let name = op_name(&op);
    let location = op.location();
    let refuse = |why: &str| emit_error(location, format!("lower-math-to-nvvm: '{name}' {why}"));
    let result = op.result(0).map_err(|_| refuse("has no result"))?;
    let element = result.r#type();
    let (f32, f64) = (Type::float32(context), Type::float64(context));
    let mapping = mapping(&name).ok_or_else(|| {
        refuse("has no lowering on the GPU without CUDA's libdevice; write it with the ops that do (exp, log, sqrt, sin, cos, fma, arith)")
    })?;
    let intrinsic = if element == f32 {
        mapping.f32
    } else if element == f64 {
        mapping.f64.ok_or_else(|| refuse("on f64 has no lowering on the GPU without CUDA's libdevice (f32 has one)"))?
    } else {
        return Err(refuse("is lowered on the GPU for f32 and f64 scalars only"));
    };
    let builder = Builder::before(context, op).ok_or_else(|| refuse("is not in a block"))?.at(location);
    let scale = |value: Value<'c, 'c>, factor: f64| {
        let factor =
            builder.value(arith::constant(context, FloatAttribute::new(context, f32, factor).into(), location));
        builder.value(arith::mulf(value, factor, location))
    };
    let mut operands: Vec<Value<'c, 'c>> = op.operands().collect();
    if let Scale::Before(factor) = mapping.scale {
        operands[0] = scale(operands[0], factor);
    }
    let call = OperationBuilder::new("llvm.call_intrinsic", location)
        .add_operands(&operands)
        .add_results(&[element])
        .add_attributes(&[
            (Identifier::new(context, "intrin"), StringAttribute::new(context, intrinsic).into()),
            (Identifier::new(context, "op_bundle_sizes"), DenseI32ArrayAttribute::new(context, &[]).into()),
            (
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &[operands.len() as i32, 0]).into(),
            ),
        ])
        .build()
        .map_err(|_| refuse("could not be built as llvm.call_intrinsic"))?;
    let mut value = builder.value(call);
    if let Scale::After(factor) = mapping.scale {
        value = scale(value, factor);
    }
    replace_uses(result.into(), value);
    erase(op);
    Ok(())
}
