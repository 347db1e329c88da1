//! Another MLIR-based compiler loads sptir into its own fresh context: once
//! through the C API, once through the Rust API, and runs one of our passes.

use melior::{dialect::DialectRegistry, ir::Module, pass::PassManager, utility::parse_pass_pipeline, Context};
use mlir_sys::MlirDialectRegistry;

// Keep the lowering crate linked: it defines `sptirRegisterAllPasses`.
use sptir_lowering as _;

extern "C" {
    fn sptirRegisterAllDialects(registry: MlirDialectRegistry);
    fn sptirRegisterAllPasses();
}

const PROGRAM: &str = include_str!("../../examples/csr_spmm.mlir");
const PIPELINE: &str = "builtin.module(sparse-reorder{iteration=csrmm order=0,2,1})";

fn reorder_in(context: &Context) -> String {
    context.load_all_available_dialects();
    let mut module = Module::parse(context, PROGRAM).expect("example parses once sptir is registered");
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), PIPELINE).expect("sptir pass is registered");
    manager.run(&mut module).expect("sparse-reorder runs");
    module.as_operation().to_string()
}

fn upstream_registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    registry
}

#[test]
fn c_api_loads_dialects_and_passes_into_a_fresh_context() {
    let registry = upstream_registry();
    unsafe {
        sptirRegisterAllDialects(registry.to_raw());
        sptirRegisterAllPasses();
    }
    let context = Context::new();
    context.append_dialect_registry(&registry);
    let printed = reorder_in(&context);
    assert!(printed.contains(r#"sparse_iter.iterate "csrmm" [%0, %3, %1] "SSR""#), "{printed}");
}

#[test]
fn rust_api_loads_dialects_and_passes_into_a_fresh_context() {
    let registry = upstream_registry();
    sptir_dialects::register_all_dialects(&registry);
    sptir_lowering::register_all_passes();
    let context = Context::new();
    context.append_dialect_registry(&registry);
    let printed = reorder_in(&context);
    assert!(printed.contains(r#"sparse_iter.iterate "csrmm" [%0, %3, %1] "SSR""#), "{printed}");
}

#[test]
fn dialect_handles_load_each_dialect() {
    let context = Context::new();
    sptir_dialects::sparse_iter_handle().load_dialect(&context);
    sptir_dialects::sparse_pos_handle().load_dialect(&context);
    assert!(context.is_registered_operation("sparse_iter.iterate"));
    assert!(context.is_registered_operation("sparse_pos.find"));
}

#[test]
fn a_context_without_sptir_rejects_its_ops() {
    let context = Context::new();
    context.append_dialect_registry(&upstream_registry());
    assert!(Module::parse(&context, PROGRAM).is_none());
}
