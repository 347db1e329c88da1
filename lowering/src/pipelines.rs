//! The named pipelines: the whole road from stage I to machine code, in one
//! place. Each is registered with MLIR, so `builtin.module(sptir-to-cpu)`
//! works in any textual pipeline and `sptir-opt --sptir-to-cpu` is a
//! shorthand for it. Each one a program may enter by starts with
//! `lower-affine`: affine loops and accesses become scf and memref before
//! anything (a guard, `convert-scf-to-cf`) would meet them; then
//! `check-dim-indices`, before any canonicalization crashes.

use crate::pass_registry::string_ref;
use mlir_sys::MlirStringRef;

pub struct Pipeline {
    pub argument: &'static str,
    pub description: &'static str,
    /// Passes nested in `builtin.module(...)`; `$key` stands for an option.
    pub elements: &'static str,
    /// The options and their defaults, `key=value` separated by spaces.
    pub defaults: &'static str,
}

/// Stage I -> II -> III: sparse iterations become `scf` loops over 1-D
/// memrefs.
pub const SPTIR_TO_STAGE3: Pipeline = Pipeline {
    argument: "sptir-to-stage3",
    description: "Lower stage I (sparse_iter) through stage II (sparse_pos) to scf/memref/arith",
    elements: "lower-affine,check-dim-indices,lower-sparse-iter,lower-sparse-buffer,canonicalize,cse",
    defaults: "",
};

/// The 8-bit floats f8E4M3FN and f8E5M2, which LLVM has no type for, in
/// f32: their arithmetic between conversions, and the conversions as
/// integer operations on the bits. Part of every lowering to machine code
/// (the CPU's, and the GPU's kernels and host code).
pub const SPTIR_F8_IN_F32: Pipeline = Pipeline {
    argument: "sptir-f8-in-f32",
    description: "Compute f8E4M3FN and f8E5M2 in f32, with conversions as integer operations on their bits",
    elements: "arith-emulate-unsupported-floats{source-types=f8E4M3FN,f8E5M2 target-type=f32},expand-f8-conversions",
    defaults: "",
};

/// Stage III -> LLVM dialect, with C wrappers (`_mlir_ciface_*`) so the
/// JIT can call functions with memref descriptors. A split loop stops at
/// its last position (a hand schedule's factor may be far above the
/// loop's size). Large and run-sized
/// stack buffers move to the heap, small ones out of loops. Complex numbers become
/// pairs of floats, math on f16/bf16 runs in f32, math functions become
/// LLVM intrinsics or libm calls; whatever is left is an error.
pub const SPTIR_STAGE3_TO_LLVM: Pipeline = Pipeline {
    argument: "sptir-stage3-to-llvm",
    description: "Lower stage III (scf/memref/arith) to the LLVM dialect for the CPU JIT",
    elements: "check-stage-three,lower-affine,check-dim-indices,loop-invariant-code-motion,clamp-guarded-loops,bound-stack-allocations,check-element-types,convert-complex-to-standard,math-extend-to-supported-types,drop-cast-fast-math,\
               sptir-f8-in-f32,func.func(llvm-request-c-wrappers),\
               widen-power-bases,widen-power-exponents,convert-math-to-funcs{convert-ctlz=false},convert-scf-to-cf,convert-vector-to-llvm,expand-strided-metadata,convert-math-to-llvm,convert-math-to-libm,convert-vector-to-llvm,\
               convert-complex-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,\
               convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts,verify-llvm-lowering",
    defaults: "",
};

/// Stage I -> stage III for the CPU, with loop-invariant structure reads
/// hoisted and accumulators kept in registers.
pub const SPTIR_TO_CPU_STAGE3: Pipeline = Pipeline {
    argument: "sptir-to-cpu-stage3",
    description: "Lower stage I sparse kernels to stage III (scf/memref/arith) optimized for the CPU",
    elements: "lower-affine,check-dim-indices,lower-sparse-iter,lower-sparse-buffer,canonicalize,cse,loop-invariant-code-motion,\
               hoist-invariant-loads,cse,promote-accumulators,contract-float-ops",
    defaults: "",
};

/// Stage I -> LLVM dialect for the CPU.
pub const SPTIR_TO_CPU: Pipeline = Pipeline {
    argument: "sptir-to-cpu",
    description: "Lower stage I sparse kernels to the LLVM dialect for the CPU (JIT-ready)",
    elements: "sptir-to-cpu-stage3,sptir-stage3-to-llvm",
    defaults: "",
};

/// Scheduled stage II -> stage III with `gpu.launch`: bound loops become
/// launches, guards that the block's thread ranges decide fold
/// (`int-range-optimizations`: a lane's features below the feature size),
/// then the loop-invariant work leaves the loops (structure reads, tail
/// and alignment guards), marked loops become vector code or
/// are unrolled, split loops left sequential end at their bound, accumulators move to registers (adding atomically once where
/// threads share them), multiply-adds may become FMAs, and independent
/// launches of one block shape fuse into one. Shared by the PTX pipeline and the
/// CPU emulation of launches.
pub const SPTIR_STAGE2_TO_LAUNCHES: Pipeline = Pipeline {
    argument: "sptir-stage2-to-launches",
    description: "Lower scheduled stage II (bound loops) to gpu.launch over scf/memref/vector, optimized",
    elements:
        "lower-affine,check-dim-indices,pad-grid-loops,lower-sparse-buffer,canonicalize{disable-patterns=\"(anonymous namespace)::SimplifyTrivialLoops\"},cse,split-fma-accumulations,privatize-row-tiles,synchronize-thread-loops,lower-loop-bindings,sink-host-reads,int-range-optimizations,\
               loop-invariant-code-motion,hoist-invariant-loads,cse,vectorize-loops,canonicalize,\
               int-range-optimizations,hoist-invariant-guards,unroll-loops,canonicalize,\
               loop-invariant-code-motion,hoist-invariant-loads,cse,clamp-guarded-loops,merge-alignment-versions,cse,sink-shuffle-guards,promote-accumulators,defer-vector-reductions,lower-atomic-accumulations,\
               lower-shuffle-accumulations,contract-float-ops,fuse-launches",
    defaults: "",
};

/// Stage III with `gpu.launch` -> PTX plus host code: types and ops
/// without a GPU lowering are refused, the host's buffers
/// become GPU memory, launches become kernels (constants sunk into them
/// first, so that a kernel sees its split factors and strides as
/// constants, not parameters), compiled to PTX in-process for `chip`, math
/// functions as NVPTX instructions (no libdevice), buffers that no other
/// argument of a launch shares marked noalias; the host side is
/// lowered to the LLVM dialect with C wrappers (its integer powers as on
/// the CPU), its launches calling the
/// `mgpu*` runtime functions.
pub const SPTIR_LAUNCHES_TO_GPU: Pipeline = Pipeline {
    argument: "sptir-launches-to-gpu",
    description: "Compile stage III with gpu.launch to GPU kernels in PTX and host code (option chip=sm_90)",
    elements: "check-stage-three,lower-affine,check-dim-indices,check-element-types,check-gpu-ops,place-device-memory,convert-math-to-funcs{convert-ctlz=false min-width-of-fpowi-exponent=65},gpu-launch-sink-index-computations,gpu-kernel-outlining,align-workgroup-memory,\
               nvvm-attach-target{chip=$chip features=+ptx81 O=3},\
               gpu.module(convert-complex-to-standard,math-extend-to-supported-types,drop-cast-fast-math,sptir-f8-in-f32,\
               math-expand-ops{ops=tan,tanh,sinh,cosh,acosh,atanh,rsqrt,ctlz,clampf},lower-subgroup-reductions,lower-math-to-nvvm,\
               vectorize-atomic-adds,lower-row-barriers,convert-scf-to-cf,convert-complex-to-llvm,convert-gpu-to-nvvm,relax-atomic-updates,canonicalize,\
               reconcile-unrealized-casts,verify-llvm-lowering),\
               mark-noalias-kernel-arguments,gpu-module-to-binary{format=isa},widen-power-bases,widen-power-exponents,convert-math-to-funcs{convert-ctlz=false},sptir-f8-in-f32,func.func(llvm-request-c-wrappers),convert-scf-to-cf,\
               gpu-to-llvm,convert-vector-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-arith-to-llvm,\
               convert-index-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts,verify-llvm-lowering",
    defaults: "chip=sm_90",
};

/// Scheduled stage II -> stage III whose launches run on the CPU, blocks
/// and threads one after the other (`serialize-launches`), for checking a
/// GPU schedule without a GPU: the launches are the GPU path's, and what
/// the GPU path refuses before compiling them (`check-element-types`,
/// `check-gpu-ops`, `check-host-memory`) is refused here too, so that a kernel the emulation
/// verifies is one the GPU compiles.
pub const SPTIR_STAGE2_TO_EMULATION: Pipeline = Pipeline {
    argument: "sptir-stage2-to-emulation",
    description: "Lower scheduled stage II to launches run serially on the CPU (then sptir-stage3-to-llvm), refusing what the GPU path refuses",
    elements: "sptir-stage2-to-launches,lower-affine,check-element-types,check-gpu-ops,check-host-memory,serialize-launches",
    defaults: "",
};

/// Scheduled stage II -> PTX plus host code: loops bound to GPU dimensions
/// become launches, then kernels.
pub const SPTIR_STAGE2_TO_GPU: Pipeline = Pipeline {
    argument: "sptir-stage2-to-gpu",
    description: "Lower scheduled stage II (bound loops) to GPU kernels in PTX and host code (option chip=sm_90)",
    elements: "sptir-stage2-to-launches,sptir-launches-to-gpu{chip=$chip}",
    defaults: "chip=sm_90",
};

/// Stage I -> GPU with the default schedule (`sparse-pos-auto-bind`).
pub const SPTIR_TO_GPU: Pipeline = Pipeline {
    argument: "sptir-to-gpu",
    description: "Lower stage I to GPU kernels in PTX with the default schedule (option chip=sm_90)",
    elements: "lower-affine,lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-gpu{chip=$chip}",
    defaults: "chip=sm_90",
};

pub static PIPELINES: &[Pipeline] = &[
    SPTIR_TO_STAGE3,
    SPTIR_F8_IN_F32,
    SPTIR_STAGE3_TO_LLVM,
    SPTIR_TO_CPU_STAGE3,
    SPTIR_TO_CPU,
    SPTIR_STAGE2_TO_LAUNCHES,
    SPTIR_LAUNCHES_TO_GPU,
    SPTIR_STAGE2_TO_EMULATION,
    SPTIR_STAGE2_TO_GPU,
    SPTIR_TO_GPU,
];

extern "C" {
    fn sptirRegisterPassPipeline(
        argument: MlirStringRef,
        description: MlirStringRef,
        elements: MlirStringRef,
        defaults: MlirStringRef,
    );
}

pub(crate) fn register() {
    for pipeline in PIPELINES {
        unsafe {
            sptirRegisterPassPipeline(
                string_ref(pipeline.argument),
                string_ref(pipeline.description),
                string_ref(pipeline.elements),
                string_ref(pipeline.defaults),
            )
        }
    }
}
