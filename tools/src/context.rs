//! One MLIR context with everything sptir's tools need: every upstream
//! dialect, pass and LLVM translation, plus sptir's dialects and passes.

use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};
use std::sync::Once;

static PASSES: Once = Once::new();

/// Dialects whose ops sptir's pipelines create.
const PIPELINE_DIALECTS: [&str; 12] =
    ["func", "arith", "math", "memref", "scf", "cf", "gpu", "nvvm", "llvm", "index", "sparse_iter", "sparse_pos"];

/// Registers every upstream pass and every sptir pass (once per process).
pub fn register_passes() {
    PASSES.call_once(register_all_passes);
    sptir_lowering::register_all_passes();
}

/// The dialect registry: all upstream dialects and sptir's.
pub fn registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    sptir_dialects::register_all_dialects(&registry);
    registry
}

/// A fresh context that knows every dialect and pass.
pub fn create_context() -> Context {
    register_passes();
    let context = Context::new();
    context.append_dialect_registry(&registry());
    register_all_llvm_translations(&context);
    // Diagnostics must come out in source order, as FileCheck expects.
    context.enable_multi_threading(false);
    // A nested pipeline such as `gpu.module(...)` only matches ops of a
    // dialect that was loaded when the pipeline was built, and the GPU
    // pipeline creates gpu.module ops itself.
    for dialect in PIPELINE_DIALECTS {
        context.get_or_load_dialect(dialect);
    }
    context
}
