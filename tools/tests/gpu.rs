//! GPU integration: SpMM and SDDMM in every format compiled by
//! `sptir-to-gpu` and run on the device, verified against the float64
//! references. Skipped, saying so, where there is no CUDA driver or GPU.

mod inputs;

use sptir_runtime::{cuda, graphs::locate_or_skip, load_matrix, randomize_values, relative_error, Csr, RmatSpec};
use sptir_tools::{
    compile::run_pipeline,
    context::create_context,
    kernels::{prepare, specialization, Format, Layout, Op},
    schedules::{LaneSddmm, RowSpmm, SddmmWalk},
};

fn matrices() -> Vec<(String, Csr)> {
    let mut list = vec![
        ("rmat:9:8:1".to_string(), RmatSpec::parse("rmat:9:8:1").unwrap().generate().unwrap()),
        ("empty rows".to_string(), Csr::new(4, 5, vec![0, 2, 2, 2, 3], vec![0, 4, 2], vec![1.0; 3]).unwrap()),
    ];
    if let Some(path) = locate_or_skip("cora") {
        list.push(("cora".into(), load_matrix(&path.to_string_lossy()).unwrap()));
    }
    for (seed, (_, a)) in list.iter_mut().enumerate() {
        randomize_values(a, 40 + seed as u64);
    }
    list
}

#[test]
fn kernels_verify_on_the_gpu() {
    if !cuda::available() {
        println!("skipping GPU integration tests: no CUDA driver or GPU on this machine");
        return;
    }
    for (name, a) in matrices() {
        for op in [Op::Spmm, Op::Sddmm] {
            for format in [Format::Csr, Format::Ell, Format::Bsr, Format::Hyb] {
                for feat in [1, 32, 100] {
                    let mut problem = prepare(op, format, &a, feat, Layout::default(), 9).unwrap();
                    // Compiled for any extents, then for these.
                    let specialized = format!("{},", specialization(problem.function, &problem.extents()));
                    for specialize in ["", specialized.as_str()] {
                        let context = create_context();
                        let mut module = problem.program(&context);
                        let pipeline = format!("builtin.module({specialize}sptir-to-gpu)");
                        run_pipeline(&context, &mut module, &pipeline).unwrap();
                        let kernel = cuda::GpuKernel::compile(&module, 3).unwrap();
                        problem.poison();
                        kernel.run(problem.function, &mut problem.kernel_args()).unwrap();
                        let error = relative_error(&problem.result(), &problem.reference);
                        let (op, format) = (op.name(), format.name());
                        assert!(
                            error < 1e-5,
                            "{name} {op} {format} feat {feat} [{specialize}]: relative error {error}"
                        );
                    }
                }
            }
        }
        println!("{name}: every op and format verified on the GPU");
    }
}

/// SDDMM with each non-zero's dot product on a row of lanes whose sums
/// meet in warp shuffles (`nvvm.shfl.sync` under cluster masks): rows
/// that end inside a warp, lanes that idle past the features.
#[test]
fn warp_shuffled_sddmm_verifies_on_the_gpu() {
    if !cuda::available() {
        println!("GPU warp-shuffle tests: compiling to PTX only, no CUDA driver or GPU on this machine");
    }
    for (name, a) in matrices() {
        for feat in [1, 13, 64] {
            let odd = LaneSddmm { rows: 3, threads: 8, vector: 1, walk: SddmmWalk::NonZeros };
            for schedule in [
                LaneSddmm::for_features(feat),
                odd,
                LaneSddmm { walk: SddmmWalk::Rows, ..odd },
                LaneSddmm { walk: SddmmWalk::RowNonZerosOnLanes, ..odd },
            ] {
                let mut problem = prepare(Op::Sddmm, Format::Csr, &a, feat, Layout::default(), 9).unwrap();
                let stage1 = schedule.stage1().map(|s| format!("{s},")).unwrap_or_default();
                check_schedule(&name, &mut problem, &stage1, &schedule.passes(Some(feat)), feat);
            }
        }
        if cuda::available() {
            println!("{name}: warp-shuffled SDDMM verified on the GPU");
        }
    }
}

/// Row-wise SpMM whose rows stage their non-zeros through shared memory:
/// a row a block (block barriers), or several rows a block, each with its
/// own tile, whose lanes meet at `bar.warp.sync` on their own mask (rows
/// of 8 lanes share a warp with three others).
#[test]
fn cached_rows_verify_on_the_gpu() {
    if !cuda::available() {
        println!("GPU shared-memory tests: compiling to PTX only, no CUDA driver or GPU on this machine");
    }
    for (name, a) in matrices() {
        for feat in [7, 32, 128] {
            let each = [(1, 32, 1, 32), (4, 32, 4, 32), (8, 8, 1, 16), (3, 4, 1, 8), (3, 64, 2, 64), (4, 128, 1, 128)];
            for (rows, threads, vector, cache) in each {
                let schedule = RowSpmm { rows, threads, vector, cache, ..RowSpmm::default() };
                let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 9).unwrap();
                check_schedule(&name, &mut problem, "", &schedule.passes("csrmm", Some(feat)), feat);
            }
        }
        if cuda::available() {
            println!("{name}: shared-memory row SpMM verified on the GPU");
        }
    }
}

/// Programs beyond the built-in kernels under the default schedule: a
/// maximum (a sequential host loop around launches) and a buffer of the
/// program's own that one launch writes and the next reads (GPU memory
/// the host code allocates), and math functions (NVPTX instructions).
#[test]
fn default_schedule_programs_verify_on_the_gpu() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    if !cuda::available() {
        println!("skipping GPU program tests: no CUDA driver or GPU on this machine");
        return;
    }
    let compile = |name: &str, source: &str| {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, source, name).unwrap();
        run_pipeline(&context, &mut module, "builtin.module(sptir-to-gpu)").unwrap();
        cuda::GpuKernel::compile(&module, 3).unwrap()
    };
    let maxima = compile("column_maxima.mlir", inputs::COLUMN_MAXIMA);
    let staged = compile("staged_buffer.mlir", inputs::STAGED_BUFFER);
    let math = compile("math_functions.mlir", inputs::MATH_FUNCTIONS);
    for (m, n) in [(1, 1), (37, 23), (1000, 3), (5, 200)] {
        let x = random_dense(n * m, (m * 1000 + n) as u64);
        let mut y = vec![f32::NAN; m];
        let args = &mut [KernelArg::Values(&x), KernelArg::Output(&mut y), KernelArg::Index(m), KernelArg::Index(n)];
        maxima.run("colmax", args).unwrap();
        assert_eq!(y, inputs::column_maxima(&x, m, n), "colmax {m} x {n}");

        let mut y = vec![f32::NAN; m];
        staged
            .run("staged", &mut [KernelArg::Values(&x[..m]), KernelArg::Output(&mut y), KernelArg::Index(m)])
            .unwrap();
        let expected: Vec<f32> = x[..m].iter().map(|v| (v + v) * (v + v)).collect();
        assert_eq!(y, expected, "staged buffer of {m}");

        // Approximate instructions (ex2, lg2, sin, cos: about 2^-22).
        let mut y = vec![f32::NAN; m];
        math.run("math", &mut [KernelArg::Values(&x[..m]), KernelArg::Output(&mut y), KernelArg::Index(m)]).unwrap();
        let expected: Vec<f64> = x[..m].iter().map(|&v| inputs::math_functions(v)).collect();
        let error = relative_error(&y, &expected);
        assert!(error < 1e-5, "math functions on {m}: relative error {error}");
    }
    // ceil, round, roundeven and fma as single instructions: right on
    // huge values, infinities, NaN, ties, -0, and the unrounded product.
    let roundings = compile("roundings.mlir", inputs::ROUNDINGS);
    inputs::check_roundings(|args| {
        roundings.run("roundings", args).unwrap();
    });
    // Rows that read earlier rows: a race if any ran at once.
    let solve = compile("triangular_solve.mlir", inputs::TRIANGULAR_SOLVE);
    for (name, a) in matrices().into_iter().filter(|(_, a)| a.rows() == a.cols()) {
        let l = inputs::strict_lower_triangle(&a);
        let b = random_dense(l.rows(), 5);
        let mut x = b.clone();
        solve.run("trsv", &mut inputs::triangular_solve_args(&l, &mut x)).unwrap();
        let error = relative_error(&x, &inputs::triangular_solve(&l, &b));
        assert!(error < 1e-5, "triangular solve on {name}: relative error {error}");
    }
    // Steps that read the step before: a launch each, rows at once.
    let propagate = compile("propagate.mlir", inputs::PROPAGATE);
    for (name, a) in matrices().into_iter().filter(|(_, a)| a.rows() == a.cols()) {
        let (n, steps) = (a.rows(), 3);
        let mut x = vec![f32::NAN; (steps + 1) * n];
        x[..n].copy_from_slice(&random_dense(n, 6));
        let expected = inputs::propagate(&a, &x, steps);
        propagate.run("propagate", &mut inputs::propagate_args(&a, &mut x, steps)).unwrap();
        let error = relative_error(&x, &expected);
        assert!(error < 1e-5, "propagation on {name}: relative error {error}");
    }
    println!("column maxima, a staged buffer, math functions, roundings, triangular solves and propagation verified on the GPU");
}

/// Row maxima and minima on the GPU: a row's non-zeros over 8 lanes that
/// meet in warp shuffles of `max.NaN.f32` and `min.s32`, and over a
/// block's threads that update the row atomically (a compare-and-swap loop
/// for the float maximum, `atom.min.s32` for the integer minimum). The PTX
/// is compiled everywhere; it runs where there is a GPU.
#[test]
fn row_extrema_verify_on_the_gpu() {
    let schedules = [
        (
            "rowext",
            "sparse-pos-split{loop=rext.0 factor=4},sparse-pos-bind{loop=rext.0.i to=threadIdx.y},\
             sparse-pos-split{loop=rext.1 factor=8},sparse-pos-bind{loop=rext.1.i to=threadIdx.x shuffle=true}",
        ),
        (
            "rowpos",
            "sparse-pos-split{loop=rpos.0 factor=4},sparse-pos-bind{loop=rpos.0.i to=threadIdx.y},\
             sparse-pos-split{loop=rpos.1 factor=8},sparse-pos-bind{loop=rpos.1.i to=threadIdx.x shuffle=true}",
        ),
        (
            "rowsign",
            "sparse-pos-split{loop=rsign.0 factor=4},sparse-pos-bind{loop=rsign.0.i to=threadIdx.y},\
             sparse-pos-split{loop=rsign.1 factor=8},sparse-pos-bind{loop=rsign.1.i to=threadIdx.x shuffle=true}",
        ),
        (
            "rowext_atomic",
            "sparse-pos-bind{loop=rx.0 to=blockIdx.x},sparse-pos-split{loop=rx.1 factor=32},\
             sparse-pos-bind{loop=rx.1.i to=threadIdx.x atomic=true}",
        ),
    ];
    for (function, schedule) in schedules {
        let pipeline = format!("builtin.module(lower-sparse-iter,{schedule},sparse-pos-auto-bind,sptir-stage2-to-gpu)");
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::ROW_EXTREMA, "row_extrema.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        if !cuda::available() {
            println!("skipping the GPU run of {function}: no CUDA driver or GPU on this machine (its PTX compiled)");
            continue;
        }
        let kernel = cuda::GpuKernel::compile(&module, 3).unwrap();
        for (name, a) in matrices() {
            let mut top = vec![f32::NAN; a.rows()];
            let mut bottom = vec![-7; a.rows()];
            kernel.run(function, &mut inputs::row_extrema_args(&a, &mut top, &mut bottom)).unwrap();
            let expected = inputs::row_extrema_of(function, &a);
            assert_eq!((top, bottom), expected, "{function} on {name}");
        }
    }
}

/// A guarded kernel (`guard-memory-accesses`) whose rows run past indptr
/// counts its failed checks on the GPU instead of faulting; the correct
/// kernel, guarded the same way, fails none and is right.
#[test]
fn out_of_bounds_accesses_are_counted_on_the_gpu() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    if !cuda::available() {
        println!("skipping GPU bounds-check tests: no CUDA driver or GPU on this machine");
        return;
    }
    let example = include_str!("../../examples/csr_spmm.mlir");
    let a = RmatSpec::parse("rmat:9:8:1").unwrap().generate().unwrap();
    let feat = 8;
    let b = random_dense(a.cols() * feat, 3);
    for (source, expect_faults) in
        [(example.replace("dense_fixed %m", "dense_fixed %nnz"), true), (example.into(), false)]
    {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, &source, "csr_spmm.mlir").unwrap();
        run_pipeline(
            &context,
            &mut module,
            "builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,guard-memory-accesses,sptir-launches-to-gpu)",
        )
        .unwrap();
        let kernel = cuda::GpuKernel::compile(&module, 3).unwrap();
        let mut c = vec![f32::NAN; a.rows() * feat];
        let mut faults = [0i32; 2];
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
                    KernelArg::Counts(&mut faults),
                ],
            )
            .unwrap();
        assert_eq!(faults[0] > 0 && faults[1] > 0, expect_faults, "faults {faults:?}");
        if !expect_faults {
            let reference = sptir_runtime::reference::spmm(&a, &b, feat).unwrap();
            assert!(relative_error(&c, &reference) < 1e-5);
        }
    }
    println!("out-of-bounds accesses counted on the GPU");
}

/// Compiles `problem` for its extents under the stage I pass list `stage1`
/// (empty, or ending in a comma) and the stage II pass list `schedule` to
/// PTX (which needs no GPU) and, where there is one, runs it with the
/// output poisoned and checks it.
fn check_schedule(name: &str, problem: &mut sptir_tools::kernels::Prepared, stage1: &str, schedule: &str, feat: usize) {
    let context = create_context();
    let mut module = problem.program(&context);
    let specialize = specialization(problem.function, &problem.extents());
    // As sptir-bench runs it: compiled for these extents, the default
    // binding what the schedule leaves (a row schedule of one row a block
    // leaves the rows to it).
    let pipeline = format!(
        "builtin.module({specialize},{stage1}lower-sparse-iter,{schedule},sparse-pos-auto-bind,sptir-stage2-to-gpu)"
    );
    run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{name} [{pipeline}]: {e}"));
    if !cuda::available() {
        return;
    }
    let kernel = cuda::GpuKernel::compile(&module, 3).unwrap();
    problem.poison();
    kernel.run(problem.function, &mut problem.kernel_args()).unwrap();
    let error = relative_error(&problem.result(), &problem.reference);
    assert!(error < 1e-5, "{name} feat {feat} [{schedule}]: relative error {error}");
}

/// Row SpMM in feature slices on blockIdx.y (csr and hyb, the last slice
/// partial at 100 features) or several non-zeros a step, and hyb SDDMM on lanes (COO and 16-wide
/// buckets; one lane a slot, or eight meeting in shuffles). Without a GPU
/// only their compilation to PTX is checked.
#[test]
fn slices_and_hyb_lanes_verify_on_the_gpu() {
    if !cuda::available() {
        println!("GPU slice and hyb-lane tests: compiling to PTX only, no CUDA driver or GPU on this machine");
    }
    for (name, a) in matrices() {
        for feat in [32, 100] {
            let slices = RowSpmm { rows: 8, threads: 8, vector: 4, slice: 32, ..RowSpmm::default() };
            let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 9).unwrap();
            check_schedule(&name, &mut problem, "", &slices.passes("csrmm", Some(feat)), feat);
            // A row's non-zeros three or sixteen a step, the rest after.
            for unroll in [3, 16] {
                let unrolled = RowSpmm { unroll, ..RowSpmm::for_features(feat) };
                check_schedule(&name, &mut problem, "", &unrolled.passes("csrmm", Some(feat)), feat);
            }
            let mut problem = prepare(Op::Spmm, Format::Hyb, &a, feat, Layout::default(), 9).unwrap();
            let widths: Vec<Option<usize>> = problem.bucket_widths().iter().copied().map(Some).collect();
            check_schedule(&name, &mut problem, "", &slices.hyb_passes(&widths, None, Some(feat)), feat);
            // Buckets that own their rows store them; the rest add atomically.
            let layout = Layout { bucket_exponent: 2, hyb_exclusive: true, ..Layout::default() };
            let mut problem = prepare(Op::Spmm, Format::Hyb, &a, feat, layout, 9).unwrap();
            let widths: Vec<Option<usize>> = problem.bucket_widths().iter().copied().map(Some).collect();
            let owners = problem.exclusive_buckets().map(<[bool]>::to_vec);
            let rows = RowSpmm::for_features(feat);
            check_schedule(&name, &mut problem, "", &rows.hyb_passes(&widths, owners.as_deref(), Some(feat)), feat);
            for bucket_exponent in [0, 4] {
                for lanes in [
                    LaneSddmm::for_features(feat),
                    LaneSddmm { rows: 16, threads: 8, vector: 4, walk: SddmmWalk::NonZeros },
                ] {
                    let layout = Layout { bucket_exponent, ..Layout::default() };
                    let mut problem = prepare(Op::Sddmm, Format::Hyb, &a, feat, layout, 9).unwrap();
                    let widths: Vec<Option<usize>> = problem.bucket_widths().iter().copied().map(Some).collect();
                    check_schedule(&name, &mut problem, "", &lanes.hyb_passes(&widths, Some(feat)), feat);
                }
            }
        }
        if cuda::available() {
            println!("{name}: feature slices and hyb SDDMM lanes verified on the GPU");
        }
    }
}
