use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use sptir_runtime::{
    cpu::{CpuKernel, KernelArg},
    random_dense, randomize_values, reference, relative_error, RmatSpec,
};
use sptir_tools::context::create_context;

#[test]
fn csr_spmm_example_runs_on_the_jit() {
    let context = create_context();
    let source = include_str!("../../examples/csr_spmm.mlir");
    let mut module = sptir_dialects::parse_module(&context, source, "csr_spmm.mlir").unwrap();
    let manager = PassManager::new(&context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), "builtin.module(sptir-to-cpu)").unwrap();
    manager.run(&mut module).unwrap();
    assert!(module.as_operation().verify());
    let kernel = CpuKernel::compile(&module, 2).unwrap();
    let mut a = RmatSpec::parse("rmat:8:4:1").unwrap().generate().unwrap();
    randomize_values(&mut a, 3);
    let feat = 8;
    let b = random_dense(a.cols() * feat, 4);
    let mut c = vec![f32::NAN; a.rows() * feat];
    kernel
        .run(
            "csr_spmm",
            &mut [
                KernelArg::Ids(a.indptr()),
                KernelArg::Ids(a.indices()),
                KernelArg::Values(a.values()),
                KernelArg::Values(&b),
                KernelArg::Output(&mut c),
                KernelArg::Index(a.rows()),
                KernelArg::Index(a.cols()),
                KernelArg::Index(a.nnz()),
                KernelArg::Index(feat),
            ],
        )
        .unwrap();
    let expected = reference::spmm(&a, &b, feat).unwrap();
    let error = relative_error(&c, &expected);
    assert!(error < 1e-5, "relative error {error}");
}
