//! The named pipelines: the whole road from stage I to machine code, in one
//! place. Each is registered with MLIR, so `builtin.module(sptir-to-cpu)`
//! works in any textual pipeline and `sptir-opt --sptir-to-cpu` is a
//! shorthand for it.

use crate::pass_registry::string_ref;
use mlir_sys::MlirStringRef;

pub struct Pipeline {
    pub argument: &'static str,
    pub description: &'static str,
    /// Passes nested in `builtin.module(...)`.
    pub elements: &'static str,
}

/// Stage I -> II -> III: sparse iterations become `scf` loops over 1-D
/// memrefs.
pub const SPTIR_TO_STAGE3: Pipeline = Pipeline {
    argument: "sptir-to-stage3",
    description: "Lower stage I (sparse_iter) through stage II (sparse_pos) to scf/memref/arith",
    elements: "lower-sparse-iter,lower-sparse-buffer,canonicalize,cse",
};

/// Stage I -> LLVM dialect for the CPU. Functions get C wrappers
/// (`_mlir_ciface_*`) so the JIT can call them with memref descriptors.
pub const SPTIR_TO_CPU: Pipeline = Pipeline {
    argument: "sptir-to-cpu",
    description: "Lower stage I sparse kernels to the LLVM dialect for the CPU (JIT-ready)",
    elements: "lower-sparse-iter,lower-sparse-buffer,canonicalize,cse,loop-invariant-code-motion,\
               func.func(llvm-request-c-wrappers),convert-scf-to-cf,expand-strided-metadata,\
               finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,\
               convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts",
};

pub static PIPELINES: &[Pipeline] = &[SPTIR_TO_STAGE3, SPTIR_TO_CPU];

extern "C" {
    fn sptirRegisterPassPipeline(argument: MlirStringRef, description: MlirStringRef, elements: MlirStringRef);
}

pub(crate) fn register() {
    for pipeline in PIPELINES {
        unsafe {
            sptirRegisterPassPipeline(
                string_ref(pipeline.argument),
                string_ref(pipeline.description),
                string_ref(pipeline.elements),
            )
        }
    }
}
