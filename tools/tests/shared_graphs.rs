//! The larger real graphs of `../shared/data/graphs/` (not bundled): SpMM
//! and SDDMM in CSR and hyb, verified against the float64 references. Each
//! graph that is not there is skipped with a message.

use sptir_runtime::{cpu::CpuKernel, graphs::locate_or_skip, load_matrix, randomize_values, relative_error};
use sptir_tools::{
    compile::run_pipeline,
    context::create_context,
    kernels::{prepare, Format, Layout, Op},
};

const GRAPHS: [&str; 8] = [
    "ppi-graphsaint",
    "email-Enron",
    "luxembourg_osm",
    "bcsstk25",
    "musae-github",
    "ogbn-arxiv",
    "ogbn-arxiv-sym",
    "USA-road-d.NY-recon",
];

#[test]
fn spmm_and_sddmm_verify_on_every_shared_graph() {
    let mut checked = 0;
    for name in GRAPHS {
        let Some(path) = locate_or_skip(name) else { continue };
        let mut a = load_matrix(&path.to_string_lossy()).unwrap_or_else(|e| panic!("{name}: {e}"));
        randomize_values(&mut a, 5);
        for op in [Op::Spmm, Op::Sddmm] {
            for format in [Format::Csr, Format::Hyb] {
                let mut problem = prepare(op, format, &a, 4, Layout::default(), 8).unwrap();
                let context = create_context();
                let mut module = problem.program(&context);
                run_pipeline(&context, &mut module, "builtin.module(sptir-to-cpu)").unwrap();
                let kernel = CpuKernel::compile(&module, 2).unwrap();
                problem.poison();
                kernel.run(problem.function, &mut problem.kernel_args()).unwrap();
                let error = relative_error(&problem.result(), &problem.reference);
                assert!(error < 1e-5, "{name} {} {}: relative error {error}", op.name(), format.name());
                checked += 1;
            }
        }
        println!("{name}: spmm and sddmm in csr and hyb verified");
    }
    println!("{checked} kernel runs verified");
}
