//! Schedules preserve results: CSR SpMM and SDDMM after `sparse-reorder`,
//! `sparse-fuse`, each built-in `decompose-format` rule and the stage II
//! split, fuse and cache-read give the float64 reference's answer on the
//! JIT.

use sptir_lowering::format_rules::BuiltinRule;
use sptir_runtime::{cpu::CpuKernel, randomize_values, relative_error, Csr, RmatSpec};
use sptir_tools::{
    compile::run_pipeline,
    context::create_context,
    kernels::{decomposition_args, prepare, Format, Layout, Op},
};

fn matrices() -> Vec<Csr> {
    let mut list = vec![
        RmatSpec::parse("rmat:8:6:5").unwrap().generate().unwrap(),
        Csr::new(5, 7, vec![0, 2, 5, 5, 6, 9], vec![0, 6, 1, 2, 3, 4, 0, 5, 6], vec![1.0; 9]).unwrap(),
        Csr::empty(4, 2).unwrap(),
    ];
    for (seed, a) in list.iter_mut().enumerate() {
        randomize_values(a, 21 + seed as u64);
    }
    list
}

/// Builds the CSR program for `op`, runs `schedule` and the CPU pipeline,
/// and checks the result on every matrix.
fn check(op: Op, schedule: &str, rule: Option<BuiltinRule>) {
    for a in matrices() {
        let mut problem = prepare(op, Format::Csr, &a, 6, Layout::default(), 3).unwrap();
        if let Some(rule) = &rule {
            problem.append(decomposition_args(rule, &a).unwrap());
        }
        let context = create_context();
        let mut module = problem.program(&context);
        let pipeline = format!("builtin.module({schedule},sptir-to-cpu)");
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        problem.poison();
        kernel.run(problem.function, &mut problem.kernel_args()).unwrap();
        let error = relative_error(&problem.result(), &problem.reference);
        assert!(error < 1e-5, "{schedule} on {}x{}: relative error {error}", a.rows(), a.cols());
    }
}

#[test]
fn reorder_keeps_results() {
    check(Op::Spmm, "sparse-reorder{iteration=csrmm order=0,2,1}", None);
    check(Op::Sddmm, "sparse-reorder{iteration=sddmm order=2,0,1}", None);
}

#[test]
fn split_keeps_results() {
    check(
        Op::Spmm,
        "lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=3},sparse-pos-split{loop=csrmm.2 factor=4}",
        None,
    );
    check(Op::Sddmm, "lower-sparse-iter,sparse-pos-split{loop=sddmm.2 factor=5}", None);
}

#[test]
fn fuse_keeps_results() {
    check(Op::Sddmm, "sparse-fuse{iteration=sddmm loops=0,1}", None);
    // Stage II: non-zeros times features (SpMM), a dot product's halves
    // after a split (SDDMM), each as one loop.
    check(Op::Spmm, "lower-sparse-iter,sparse-pos-fuse{loops=csrmm.1,csrmm.2}", None);
    check(
        Op::Sddmm,
        "lower-sparse-iter,sparse-pos-split{loop=sddmm.2 factor=4},sparse-pos-fuse{loops=sddmm.2.o,sddmm.2.i}",
        None,
    );
}

#[test]
fn cache_read_keeps_results() {
    // Chunks of a row's non-zeros staged in tiles: clamped chunks (rows of
    // every length, the empty matrix), guarded chunks, SDDMM's non-zeros.
    check(
        Op::Spmm,
        "lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=4 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i}",
        None,
    );
    check(
        Op::Spmm,
        "lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},\
         sparse-pos-split{loop=csrmm.1 factor=3},sparse-pos-cache-read{loop=csrmm.1.i}",
        None,
    );
    check(
        Op::Sddmm,
        "lower-sparse-iter,sparse-pos-split{loop=sddmm.1 factor=2 clamp=true},sparse-pos-cache-read{loop=sddmm.1.i}",
        None,
    );
}

#[test]
fn builtin_decompositions_keep_results() {
    for rule in ["bsr:2", "bsr:3", "ell:0", "hyb:1:1,2,4", "hyb:2:2,8"] {
        for (op, label) in [(Op::Spmm, "csrmm"), (Op::Sddmm, "sddmm")] {
            // ell:0 stands for the widest row, which only the data knows.
            let rule = match rule {
                "ell:0" => {
                    let widest = matrices().iter().map(Csr::max_row_nnz).max().unwrap_or(1).max(1);
                    format!("ell:{widest}")
                }
                other => other.to_string(),
            };
            let parsed = BuiltinRule::parse(&rule).unwrap();
            check(op, &format!("decompose-format{{rule={rule} iteration={label}}}"), Some(parsed));
        }
    }
}

#[test]
fn decomposition_composes_with_reorder() {
    let rule = BuiltinRule::parse("bsr:2").unwrap();
    check(
        Op::Spmm,
        "decompose-format{rule=bsr:2 iteration=csrmm},sparse-reorder{iteration=csrmm.0 order=0,2,1,4,3}",
        Some(rule),
    );
}

/// A loop whose upper bound is below its lower one runs no position, split
/// (guarded or clamped) or fused, as before: its trip count is not the
/// unsigned difference, which wrapped around to nearly 2^64 positions.
#[test]
fn empty_ranges_stay_empty() {
    use sptir_runtime::cpu::KernelArg;
    const NEST: &str = r#"
func.func @nest(%y: memref<?xf32>, %m: index, %lo0: index, %hi0: index, %lo1: index, %hi1: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_pos.for "a" spatial %lo0 to %hi0 {
  ^bb0(%i: index):
    sparse_pos.for "b" spatial %lo1 to %hi1 {
    ^bb0(%j: index):
      %one = arith.constant 1.0 : f32
      sparse_pos.store %one, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
"#;
    let m = 6;
    for schedule in [
        "sparse-pos-split{loop=a factor=4},",
        "sparse-pos-split{loop=b factor=3 clamp=true},",
        "sparse-pos-fuse{loops=a,b},",
        "",
    ] {
        let pipeline = format!("builtin.module({schedule}sptir-to-stage3,sptir-stage3-to-llvm)");
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, NEST, "nest.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        // Each loop in turn empty (4 to 2), the other one over 1..3.
        for (lo0, hi0, lo1, hi1) in [(4, 2, 1, 3), (1, 3, 4, 2), (4, 2, 4, 2), (1, 3, 1, 3)] {
            let mut y = vec![f32::NAN; m * m];
            let bounds = [lo0, hi0, lo1, hi1].map(KernelArg::Index);
            let mut args = vec![KernelArg::Output(&mut y), KernelArg::Index(m)];
            args.extend(bounds);
            kernel.run("nest", &mut args).unwrap();
            let written: Vec<usize> = (0..m * m).filter(|&e| !y[e].is_nan()).collect();
            let expected: Vec<usize> = (lo0..hi0).flat_map(|i| (lo1..hi1).map(move |j| i * m + j)).collect();
            assert_eq!(written, expected, "{schedule} over {lo0}..{hi0} x {lo1}..{hi1}");
        }
    }
}
