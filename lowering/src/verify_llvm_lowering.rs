//! `verify-llvm-lowering`: the end of a pipeline to machine code. The
//! upstream conversions to the LLVM dialect are partial: an op none of them
//! handles (arithmetic on a type LLVM has no arithmetic for, such as
//! `f8E4M3FN`) is left in place, with `unrealized_conversion_cast`s around
//! it, and the failure would surface later in translation or the JIT
//! without a location. This pass names the first such op where it is, and
//! the first call into CUDA's libdevice, which no sptir kernel links.

use crate::{
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    attribute::FlatSymbolRefAttribute,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    ValueLike,
};

pub const PASS: PassDef = PassDef {
    name: "VerifyLlvmLowering",
    argument: "verify-llvm-lowering",
    description: "Refuse ops left outside the LLVM dialect at the end of a lowering to machine code",
    options: &[],
    dependent_dialects: "",
    run,
};

/// Ops outside the `llvm` and `nvvm` dialects that translation to LLVM IR
/// handles: the module, and the GPU ops whose translation embeds and launches
/// the kernels.
const TRANSLATABLE: &[&str] = &["builtin.module", "gpu.binary", "gpu.launch_func"];

/// Ops that hold code and are converted with it.
const CONTAINERS: &[&str] = &["func.func", "gpu.module", "gpu.func"];

/// The dialects whose ops sptir's pipelines lower, for the element types
/// they support: an op of another dialect is left for want of a lowering,
/// not because of its types.
const LOWERED_DIALECTS: &[&str] =
    &["arith", "math", "memref", "scf", "cf", "func", "vector", "complex", "index", "gpu", "sparse_iter", "sparse_pos"];

/// The prefix of CUDA's libdevice functions, which upstream conversions
/// call for ops they have no instruction for; sptir links no libdevice.
const LIBDEVICE: &str = "__nv_";

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let mut libdevice_call = None;
    root.walk(WalkOrder::PreOrder, |op| {
        let callee = op.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok());
        match callee.map(|c| c.value().to_string()).filter(|c| c.starts_with(LIBDEVICE)) {
            Some(callee) if op_name(&op) == "llvm.call" => {
                libdevice_call = Some((unsafe { OperationRef::from_raw(op.to_raw()) }, callee));
                WalkResult::Interrupt
            }
            _ => WalkResult::Advance,
        }
    });
    if let Some((call, callee)) = libdevice_call {
        return Err(emit_error(
            call.location(),
            format!("verify-llvm-lowering: this op became a call to CUDA's libdevice function '{callee}', which sptir does not link: the kernel would not load; write it with the ops that lower-math-to-nvvm lowers"),
        ));
    }
    let mut left = None;
    let container = root.to_raw().ptr;
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        let lowered = ["llvm.", "nvvm."].iter().any(|dialect| name.starts_with(dialect));
        if lowered || TRANSLATABLE.contains(&name.as_str()) || op.to_raw().ptr == container {
            return WalkResult::Advance;
        }
        // A cast left between two lowered ops points at neither; the op
        // that needed it does, so prefer an op that is not a cast.
        // So does an op inside a function left unconverted (around it).
        if name == "builtin.unrealized_conversion_cast" || CONTAINERS.contains(&name.as_str()) {
            left.get_or_insert(unsafe { OperationRef::from_raw(op.to_raw()) });
            return WalkResult::Advance;
        }
        left = Some(unsafe { OperationRef::from_raw(op.to_raw()) });
        WalkResult::Interrupt
    });
    let Some(op) = left else { return Ok(()) };
    let name = op_name(&op);
    let dialect = name.split('.').next().unwrap_or_default();
    if matches!(name.as_str(), "gpu.launch" | "gpu.module" | "gpu.func" | "gpu.launch_func") {
        return Err(emit_error(
            op.location(),
            format!("verify-llvm-lowering: '{name}' was not lowered to the LLVM dialect: this lowering runs on the CPU, which has no GPU launches; compile them with sptir-launches-to-gpu (sptir-to-gpu), or run their blocks and threads in turn on the CPU after serialize-launches (sptir-stage2-to-emulation)"),
        ));
    }
    if !LOWERED_DIALECTS.contains(&dialect) {
        return Err(emit_error(
            op.location(),
            format!("verify-llvm-lowering: '{name}' was not lowered to the LLVM dialect: sptir's pipelines do not lower the {dialect} dialect; write it as a sparse iteration, or with scf, memref and arith"),
        ));
    }
    let types: Vec<String> =
        op.operands().map(|v| v.r#type().to_string()).chain(op.results().map(|r| r.r#type().to_string())).collect();
    Err(emit_error(
        op.location(),
        format!(
            "verify-llvm-lowering: '{name}' ({}) was not lowered to the LLVM dialect; sptir lowers integers, f8E4M3FN, f8E5M2, f16, bf16, f32, f64 and complex numbers of them",
            types.join(", ")
        ),
    ))
}
