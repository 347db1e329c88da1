//! sptir's passes. Each pass is one file named after what it does; all are
//! registered with MLIR's pass registry by [`register_all_passes`], so any
//! textual pipeline can name them.

pub mod accumulation_chain;
pub mod align_workgroup_memory;
pub mod aux_buffers;
pub mod axis;
pub mod bound_stack_allocations;
pub mod buffer;
pub mod check_dim_indices;
pub mod check_element_types;
pub mod check_gpu_ops;
pub mod check_stage_three;
pub mod clamp_guarded_loops;
pub mod contract_float_ops;
pub mod decompose_format;
pub mod defer_vector_reductions;
pub mod drop_cast_fast_math;
pub mod expand_f8_conversions;
pub mod format_rules;
pub mod fuse_launches;
pub mod guard_memory_accesses;
pub mod hoist_invariant_guards;
pub mod hoist_invariant_loads;
pub mod ir_builder;
pub mod ir_query;
pub mod lower_atomic_accumulations;
pub mod lower_loop_bindings;
pub mod lower_math_to_nvvm;
pub mod lower_row_barriers;
pub mod lower_shuffle_accumulations;
pub mod lower_sparse_buffer;
pub mod lower_sparse_iter;
pub mod lower_subgroup_reductions;
pub mod mark_noalias_kernel_arguments;
pub mod merge_alignment_versions;
pub mod pad_grid_loops;
pub mod pass_registry;
pub mod pipelines;
pub mod place_device_memory;
pub mod privatize_row_tiles;
pub mod promote_accumulators;
pub mod reduction;
pub mod relax_atomic_updates;
pub mod serialize_launches;
pub mod sink_host_reads;
pub mod sink_shuffle_guards;
pub mod sparse_fuse;
pub mod sparse_iter_ops;
pub mod sparse_pos_auto_bind;
pub mod sparse_pos_bind;
pub mod sparse_pos_cache_read;
pub mod sparse_pos_fuse;
pub mod sparse_pos_ops;
pub mod sparse_pos_reorder;
pub mod sparse_pos_split;
pub mod sparse_pos_unroll;
pub mod sparse_pos_vectorize;
pub mod sparse_reorder;
pub mod specialize_arguments;
pub mod split_fma_accumulations;
pub mod synchronize_thread_loops;
pub mod unroll_loops;
pub mod vectorize_atomic_adds;
pub mod vectorize_loops;
pub mod verify_llvm_lowering;
pub mod widen_power_bases;
pub mod widen_power_exponents;

use pass_registry::PassDef;
use std::sync::Once;

/// Every sptir pass, in pipeline order.
pub static PASSES: &[PassDef] = &[
    specialize_arguments::PASS,
    sparse_reorder::PASS,
    sparse_fuse::PASS,
    decompose_format::PASS,
    lower_sparse_iter::PASS,
    sparse_pos_split::PASS,
    sparse_pos_reorder::PASS,
    sparse_pos_fuse::PASS,
    sparse_pos_vectorize::PASS,
    sparse_pos_unroll::PASS,
    sparse_pos_cache_read::PASS,
    sparse_pos_bind::PASS,
    sparse_pos_auto_bind::PASS,
    pad_grid_loops::PASS,
    lower_sparse_buffer::PASS,
    privatize_row_tiles::PASS,
    synchronize_thread_loops::PASS,
    lower_loop_bindings::PASS,
    vectorize_loops::PASS,
    unroll_loops::PASS,
    hoist_invariant_guards::PASS,
    clamp_guarded_loops::PASS,
    merge_alignment_versions::PASS,
    sink_shuffle_guards::PASS,
    promote_accumulators::PASS,
    defer_vector_reductions::PASS,
    lower_atomic_accumulations::PASS,
    lower_shuffle_accumulations::PASS,
    lower_subgroup_reductions::PASS,
    lower_row_barriers::PASS,
    vectorize_atomic_adds::PASS,
    lower_math_to_nvvm::PASS,
    fuse_launches::PASS,
    sink_host_reads::PASS,
    place_device_memory::PASS,
    place_device_memory::CHECK_PASS,
    mark_noalias_kernel_arguments::PASS,
    align_workgroup_memory::PASS,
    bound_stack_allocations::PASS,
    contract_float_ops::PASS,
    guard_memory_accesses::PASS,
    hoist_invariant_loads::PASS,
    serialize_launches::PASS,
    expand_f8_conversions::PASS,
    check_element_types::PASS,
    check_stage_three::PASS,
    check_dim_indices::PASS,
    check_gpu_ops::PASS,
    drop_cast_fast_math::PASS,
    relax_atomic_updates::PASS,
    split_fma_accumulations::PASS,
    widen_power_bases::PASS,
    widen_power_exponents::PASS,
    verify_llvm_lowering::PASS,
];

static REGISTERED: Once = Once::new();

/// Registers every sptir pass and named pipeline with MLIR's global pass
/// registry (idempotent).
pub fn register_all_passes() {
    pass_registry::register(PASSES, &REGISTERED);
    PIPELINES_REGISTERED.call_once(pipelines::register);
}

static PIPELINES_REGISTERED: Once = Once::new();

/// C API: registers sptir's passes so that another MLIR-based compiler's
/// pipelines can name them.
#[no_mangle]
pub extern "C" fn sptirRegisterAllPasses() {
    register_all_passes();
}
