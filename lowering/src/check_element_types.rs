//! `check-element-types`: the start of a lowering to machine code. The
//! upstream conversions to the LLVM dialect have no type for some floats
//! (tf32, the 8-bit formats other than f8E4M3FN and f8E5M2, f6, f4): they
//! failed at whatever op first carried one ("failed to legalize 'cf.br'"),
//! naming neither the type nor the value. And NVPTX has no f80 or f128
//! arithmetic: such a kernel aborted the compiler in the backend, without
//! a location. This pass names the first op that holds such a value, and
//! its type, before any conversion runs.

use crate::{
    accumulation_chain::scalar_type,
    ir_query::{enclosing, op_name, position},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    RegionLike, Type, TypeLike, ValueLike,
};

pub const PASS: PassDef = PassDef {
    name: "CheckElementTypes",
    argument: "check-element-types",
    description:
        "Refuse floats that sptir does not lower to machine code (tf32, f6, f4, other f8; f80 and f128 in GPU code)",
    options: &[],
    dependent_dialects: "",
    run,
};

/// The floats the LLVM lowering handles (f8 through `sptir-f8-in-f32`).
const LOWERED: [&str; 8] = ["f8E4M3FN", "f8E5M2", "f16", "bf16", "f32", "f64", "f80", "f128"];

/// Of those, the ones NVPTX has no arithmetic for.
const NOT_ON_GPU: [&str; 2] = ["f80", "f128"];

/// Ops whose bodies run on the GPU.
const GPU_CODE: [&str; 3] = ["gpu.launch", "gpu.func", "gpu.module"];

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    // The first op that holds such a value and has a place in the source:
    // canonicalization hoists constants (a default value) to the function's
    // entry without their locations.
    let mut refused: Option<(OperationRef, String)> = None;
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        let on_gpu = GPU_CODE.contains(&op_name(&op).as_str()) || enclosing(op, &GPU_CODE).is_some();
        let mut types: Vec<Type> = op.operands().map(|v| v.r#type()).chain(op.results().map(|r| r.r#type())).collect();
        for region in op.regions() {
            if let Some(block) = region.first_block() {
                types.extend((0..block.argument_count()).filter_map(|i| block.argument(i).ok()).map(|a| a.r#type()));
            }
        }
        for r#type in types {
            if let Some(problem) = problem(r#type, on_gpu) {
                let placed = position(op.location()).is_some();
                if refused.is_none() || placed {
                    refused = Some((op, problem));
                }
                return if placed { WalkResult::Interrupt } else { WalkResult::Advance };
            }
        }
        WalkResult::Advance
    });
    match refused {
        None => Ok(()),
        Some((op, problem)) => Err(emit_error(op.location(), format!("check-element-types: {problem}"))),
    }
}

/// Why a value of `type` cannot be lowered, if it cannot.
fn problem(r#type: Type<'_>, on_gpu: bool) -> Option<String> {
    let element = element(r#type);
    if !unsafe { mlir_sys::mlirTypeIsAFloat(element.to_raw()) } {
        return None;
    }
    let name = element.to_string();
    if !LOWERED.contains(&name.as_str()) {
        return Some(format!(
            "{name} is not supported; sptir lowers integers, f8E4M3FN, f8E5M2, f16, bf16, f32, f64, f80 and f128"
        ));
    }
    (on_gpu && NOT_ON_GPU.contains(&name.as_str())).then(|| {
        format!("the GPU has no {name} arithmetic; kernels compute integers, f8E4M3FN, f8E5M2, f16, bf16, f32 and f64")
    })
}

/// The scalar inside memrefs, tensors, vectors and complex numbers.
fn element(r#type: Type<'_>) -> Type<'_> {
    let raw = r#type.to_raw();
    unsafe {
        if mlir_sys::mlirTypeIsAShaped(raw) && !mlir_sys::mlirTypeIsAVector(raw) {
            return element(Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)));
        }
        if mlir_sys::mlirTypeIsAComplex(raw) {
            return element(Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw)));
        }
    }
    scalar_type(r#type)
}
