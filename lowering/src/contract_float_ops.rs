//! `contract-float-ops`: marks floating-point `arith.addf`, `arith.subf`
//! and `arith.mulf` with `fastmath<contract>`, so that LLVM may fuse a
//! multiply and the add that consumes it into one FMA. This is what CUDA
//! compilers do by default (`nvcc --fmad=true`) and what cuSPARSE's
//! kernels do; without it the NVPTX backend writes `mul.rn` and `add.rn`,
//! which ptxas must not fuse. An FMA rounds once instead of twice, so
//! results move by at most an ulp per product.

use crate::pass_registry::{emit_error, PassDef, PassFailed, PassOptions};
use melior::ir::{
    attribute::Attribute,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder},
};

pub const PASS: PassDef = PassDef {
    name: "ContractFloatOps",
    argument: "contract-float-ops",
    description: "Allow multiply-add contraction (FMA) on arith.addf/subf/mulf (fastmath<contract>)",
    options: &[],
    dependent_dialects: "arith",
    run,
};

const CONTRACTIBLE: [&str; 3] = ["arith.addf", "arith.subf", "arith.mulf"];

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let ops = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        CONTRACTIBLE.iter().any(|name| op.name().as_string_ref().as_str() == Ok(name))
    });
    for op in ops {
        // Keep the flags the op already has (`#arith.fastmath<nnan,ninf>`).
        let flags = crate::ir_query::fast_math_flags(&op);
        if flags.iter().any(|f| f == "contract" || f == "fast") {
            continue;
        }
        let text = format!(
            "#arith.fastmath<{}>",
            flags.iter().map(String::as_str).chain(["contract"]).collect::<Vec<_>>().join(",")
        );
        let attribute = Attribute::parse(context, &text)
            .ok_or_else(|| emit_error(op.location(), format!("contract-float-ops: cannot build {text}")))?;
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_inherent_attribute("fastmath", attribute);
    }
    Ok(())
}
