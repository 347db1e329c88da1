//! `drop-cast-fast-math`: `math-extend-to-supported-types` marks the
//! `arith.extf` and `arith.truncf` it puts around f16 and bf16 math
//! `fastmath<contract>`, and `convert-arith-to-llvm` carries the flag to
//! `llvm.fpext` and `llvm.fptrunc` as a discardable `#arith` attribute.
//! Those casts have no fast-math flags in the LLVM dialect, so it means
//! nothing there, and the printed module does not parse where the arith
//! dialect is not loaded (`mlir-translate`, `mlir-runner`). A cast rounds
//! the same with or without it, so this pass drops it.

use crate::{
    ir_query::op_name,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::ir::operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder};

pub const PASS: PassDef = PassDef {
    name: "DropCastFastMath",
    argument: "drop-cast-fast-math",
    description: "Drop fastmath flags from arith.extf/truncf, which the LLVM dialect's casts cannot carry",
    options: &[],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let casts = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        matches!(op_name(&op).as_str(), "arith.extf" | "arith.truncf") && op.has_attribute("fastmath")
    });
    for cast in casts {
        unsafe { OperationRefMut::from_raw(cast.to_raw()) }.remove_attribute("fastmath").ok();
    }
    Ok(())
}
