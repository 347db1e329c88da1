//! Every stage I program in examples/ lowered with `sptir-to-cpu`, and
//! for the GPU with the default schedule (its launches emulated on the
//! CPU), run on the JIT and compared with a float64 reference.
//!
//! Inputs: small random matrices that cover the edge cases (empty rows, no
//! stored entries, no rows, no columns, one row, one column, a dense row and
//! a dense column, several random patterns) and, when the files are there,
//! the cora, citeseer and pubmed graphs. Every check draws fresh random
//! values and poisons the outputs with NaN first, so an output element the
//! kernel never writes fails the check. `sparse-reorder` is checked on
//! csr_spmm and sddmm.

use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use sptir_runtime::{
    cpu::{CpuKernel, KernelArg},
    load_matrix, random_dense, randomize_values, reference, relative_error, Bsr, Csc, Csf, Csr, Dcsr, Ell, Hyb,
    SplitMix64,
};
use sptir_tools::context::create_context;
use std::sync::OnceLock;

const TOLERANCE: f64 = 1e-5;
const FEATS: [usize; 3] = [1, 4, 32];

macro_rules! example {
    ($name:literal) => {
        include_str!(concat!("../../examples/", $name, ".mlir"))
    };
}

// ---------------------------------------------------------------------------
// Shared helpers: compile, check, inputs.

/// Parses `source`, runs `pre` (a comma-separated pass list, if any) and then
/// `sptir-to-cpu`, and JIT-compiles the result.
fn compile(name: &str, source: &str, pre: Option<&str>) -> Kernel {
    let pipeline = match pre {
        Some(pre) => format!("builtin.module({pre},sptir-to-cpu)"),
        None => "builtin.module(sptir-to-cpu)".to_string(),
    };
    compile_with(name, source, &pipeline)
}

/// The GPU path with the default schedule, its launches run one block
/// and thread after another on the CPU (what `sptir-bench --device
/// emulate` runs).
const EMULATED: &str =
    "builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-emulation,sptir-stage3-to-llvm)";

/// The CPU path with every memory access checking its indices.
const GUARDED: &str = "builtin.module(sptir-to-cpu-stage3,guard-memory-accesses,sptir-stage3-to-llvm)";

/// The emulated GPU path, checked the same way.
const GUARDED_EMULATED: &str = "builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-emulation,\
                                guard-memory-accesses,sptir-stage3-to-llvm)";

/// Runs `checks` on the example compiled for the CPU and, emulated, for
/// the GPU with the default schedule, each also with its memory accesses
/// checked (no kernel may read or write outside its buffers, on any
/// input); each path's checks are reported under `test` and the path's
/// name.
fn on_each_path(name: &str, source: &str, test: &str, checks: impl Fn(&Kernel, &mut Checks)) {
    on_each_path_after("", name, source, test, checks);
}

/// `on_each_path` with the stage I `schedule` (passes, each followed by a
/// comma) run first.
fn on_each_path_after(schedule: &str, name: &str, source: &str, test: &str, checks: impl Fn(&Kernel, &mut Checks)) {
    for (path, pipeline) in [
        ("cpu", "builtin.module(sptir-to-cpu)"),
        ("emulated gpu", EMULATED),
        ("cpu, accesses checked", GUARDED),
        ("emulated gpu, accesses checked", GUARDED_EMULATED),
    ] {
        let pipeline = pipeline.replacen("builtin.module(", &format!("builtin.module({schedule}"), 1);
        let kernel = compile_with(name, source, &pipeline);
        let mut found =
            Checks::new(&format!("{test} ({path}{})", if schedule.is_empty() { "" } else { ", scheduled" }));
        checks(&kernel, &mut found);
        found.finish();
    }
}

/// A compiled example; where its accesses are checked
/// (`guard-memory-accesses`), each run passes the count of failed checks
/// and panics naming one if any failed.
struct Kernel {
    kernel: CpuKernel,
    checks: Option<Vec<String>>,
}

impl Kernel {
    fn run(&self, function: &str, args: &mut [KernelArg<'_>]) -> Result<(), sptir_runtime::cpu::ExecError> {
        let Some(checks) = &self.checks else { return self.kernel.run(function, args) };
        let mut faults = [0i32; 2];
        let mut raw: Vec<_> = args.iter_mut().map(KernelArg::raw).collect();
        raw.push(KernelArg::Counts(&mut faults).raw());
        self.kernel.run_raw(function, &raw)?;
        if let Some(failures) = sptir_lowering::guard_memory_accesses::failures(faults, checks) {
            panic!("@{function}: {failures}");
        }
        Ok(())
    }
}

fn compile_with(name: &str, source: &str, pipeline: &str) -> Kernel {
    let context = create_context();
    let mut module =
        sptir_dialects::parse_module(&context, source, name).unwrap_or_else(|| panic!("{name}: does not parse"));
    let manager = PassManager::new(&context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
        .unwrap_or_else(|e| panic!("{name}: bad pipeline {pipeline}: {e}"));
    manager.run(&mut module).unwrap_or_else(|e| panic!("{name}: {pipeline} failed: {e}"));
    assert!(module.as_operation().verify(), "{name}: lowered module does not verify");
    let checks = sptir_lowering::guard_memory_accesses::checks(module.as_operation());
    Kernel { kernel: CpuKernel::compile(&module, 2).unwrap_or_else(|e| panic!("{name}: {e}")), checks }
}

/// Collects the outcome of every check of one test, so that a failing test
/// lists all failing inputs instead of the first one.
struct Checks {
    test: String,
    passed: usize,
    failures: Vec<String>,
}

impl Checks {
    fn new(test: &str) -> Self {
        Checks { test: test.to_string(), passed: 0, failures: Vec::new() }
    }

    /// Compares one kernel output (made by [`poisoned`], guard included)
    /// with its float64 reference.
    fn check(&mut self, label: &str, out: &[f32], expected: &[f64]) {
        let (out, guard) = out.split_at(out.len().saturating_sub(GUARD));
        if guard.len() != GUARD || guard.iter().any(|g| !g.is_nan()) {
            self.failures.push(format!("{label}: the kernel wrote past the end of its output"));
            return;
        }
        let error = relative_error(out, expected);
        if error < TOLERANCE {
            self.passed += 1;
            return;
        }
        let first_bad = out.iter().zip(expected).position(|(&o, &e)| !((o as f64 - e).abs() <= 1e-4 * (1.0 + e.abs())));
        let detail = match first_bad {
            Some(p) => format!(", first mismatch at {p}: got {} expected {}", out[p], expected[p]),
            None if out.len() != expected.len() => {
                format!(", length {} expected {}", out.len(), expected.len())
            }
            None => String::new(),
        };
        self.failures.push(format!("{label}: relative error {error:e}{detail}"));
    }

    fn finish(self) {
        println!("{}: {} checks passed, {} failed", self.test, self.passed, self.failures.len());
        for failure in &self.failures {
            println!("  FAIL {failure}");
        }
        assert!(
            self.failures.is_empty(),
            "{}: {} of {} checks failed:\n{}",
            self.test,
            self.failures.len(),
            self.passed + self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// NaN elements after each output that the kernel must not touch.
const GUARD: usize = 8;

/// A NaN-filled output buffer of `len` elements plus the guard; pass it to
/// the kernel with [`body`].
fn poisoned(len: usize) -> Vec<f32> {
    vec![f32::NAN; len + GUARD]
}

/// The part of a [`poisoned`] buffer the kernel gets.
fn body(buffer: &mut [f32]) -> &mut [f32] {
    let len = buffer.len() - GUARD;
    &mut buffer[..len]
}

/// `a` with fresh random values.
fn fresh(a: &Csr, seeds: &mut SplitMix64) -> Csr {
    let mut a = a.clone();
    randomize_values(&mut a, seeds.next_u64());
    a
}

/// A duplicate-free random `rows x cols` pattern (values 1): each entry is
/// stored with probability `density`, except in rows for which `keep_row` is
/// false; the rows in `dense_rows` and the columns in `dense_cols` are full.
fn pattern(
    rows: usize,
    cols: usize,
    density: f64,
    seed: u64,
    keep_row: impl Fn(usize) -> bool,
    dense_rows: &[usize],
    dense_cols: &[usize],
) -> Csr {
    let mut rng = SplitMix64::new(seed);
    let (mut indptr, mut indices) = (vec![0i32], Vec::new());
    for r in 0..rows {
        for c in 0..cols {
            let random = rng.next_f64() < density && keep_row(r);
            if random || dense_rows.contains(&r) || dense_cols.contains(&c) {
                indices.push(c as i32);
            }
        }
        indptr.push(indices.len() as i32);
    }
    let nnz = indices.len();
    Csr::new(rows, cols, indptr, indices, vec![1.0; nnz]).unwrap()
}

/// The synthetic matrices every example runs on.
fn synthetic() -> Vec<(String, Csr)> {
    let all = |_: usize| true;
    let mut cases = vec![
        ("dense_3x4".to_string(), pattern(3, 4, 1.0, 0, all, &[], &[])),
        ("single_entry_1x1".to_string(), pattern(1, 1, 1.0, 0, all, &[], &[])),
        ("no_entries_7x5".to_string(), Csr::empty(7, 5).unwrap()),
        ("no_rows_0x5".to_string(), Csr::empty(0, 5).unwrap()),
        ("no_cols_6x0".to_string(), Csr::empty(6, 0).unwrap()),
        ("one_row_1x50".to_string(), pattern(1, 50, 0.3, 11, all, &[], &[])),
        ("one_col_50x1".to_string(), pattern(50, 1, 0.4, 12, all, &[], &[])),
        ("hub_60x80".to_string(), pattern(60, 80, 0.05, 13, all, &[7], &[3])),
    ];
    for seed in [1u64, 2, 3] {
        cases.push((
            format!("empty_rows_40x30_s{seed}"),
            pattern(40, 30, 0.2, 100 + seed, |r| r % 3 != 0 && r != 39, &[], &[]),
        ));
    }
    for (seed, (rows, cols, density)) in [(33, 47, 0.1), (64, 64, 0.05), (17, 9, 0.5)].into_iter().enumerate() {
        cases.push((
            format!("random_{rows}x{cols}_s{seed}"),
            pattern(rows, cols, density, 200 + seed as u64, all, &[], &[]),
        ));
    }
    cases
}

/// cora, citeseer and pubmed, loaded once per process; a missing folder or
/// file is skipped with a message.
fn graphs() -> &'static [(String, Csr)] {
    static GRAPHS: OnceLock<Vec<(String, Csr)>> = OnceLock::new();
    GRAPHS.get_or_init(|| {
        let mut graphs = Vec::new();
        for name in ["cora", "citeseer", "pubmed"] {
            let Some(path) = sptir_runtime::graphs::locate_or_skip(name) else { continue };
            let a = load_matrix(&path.to_string_lossy()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            println!("graph {name}: {} ({}x{}, {} entries)", path.display(), a.rows(), a.cols(), a.nnz());
            graphs.push((name.to_string(), a));
        }
        graphs
    })
}

/// Every input: the synthetic matrices, then the graphs.
fn inputs() -> Vec<(String, Csr)> {
    let mut all = synthetic();
    all.extend(graphs().iter().cloned());
    all
}

/// `a` split into `count` relations by a hash of the coordinates, plus one
/// relation with no entries (values are those of `a`).
fn relations(a: &Csr, count: usize) -> Vec<Csr> {
    let mut parts: Vec<(Vec<i32>, Vec<i32>, Vec<f32>)> = vec![(vec![0], vec![], vec![]); count];
    for r in 0..a.rows() {
        let (cols, vals) = a.row(r).unwrap();
        for (&c, &v) in cols.iter().zip(vals) {
            let part = &mut parts[(r * 7 + c as usize * 13) % count];
            part.1.push(c);
            part.2.push(v);
        }
        for part in &mut parts {
            part.0.push(part.1.len() as i32);
        }
    }
    let mut out: Vec<Csr> = parts
        .into_iter()
        .map(|(indptr, indices, values)| Csr::new(a.rows(), a.cols(), indptr, indices, values).unwrap())
        .collect();
    out.push(Csr::empty(a.rows(), a.cols()).unwrap());
    out
}

/// A `rows x cols x p` tensor with one non-empty fiber per stored (i, j) of
/// `a`; each fiber stores a random non-empty subset of `0..p`.
fn tensor(a: &Csr, p: usize, seed: u64) -> Csf {
    let mut rng = SplitMix64::new(seed);
    let rows = a.row_of_each_entry();
    let mut entries = Vec::new();
    for (q, &j) in a.indices().iter().enumerate() {
        let i = rows[q] as usize;
        let before = entries.len();
        for k in 0..p {
            if rng.next_u64() % 2 == 0 {
                entries.push((i, j as usize, k, rng.next_signed_f32()));
            }
        }
        if entries.len() == before {
            entries.push((i, j as usize, (rng.next_u64() % p as u64) as usize, rng.next_signed_f32()));
        }
    }
    Csf::from_coo([a.rows(), a.cols(), p], &entries).unwrap()
}

// ---------------------------------------------------------------------------
// Local float64 references for the ops the runtime has no reference for.

/// DCSR SpMM straight from the DCSR arrays.
fn dcsr_spmm_reference(a: &Dcsr, b: &[f32], feat: usize) -> Vec<f64> {
    let mut c = vec![0.0f64; a.rows() * feat];
    for (s, &i) in a.row_ids().iter().enumerate() {
        for q in a.indptr()[s] as usize..a.indptr()[s + 1] as usize {
            let (j, v) = (a.indices()[q] as usize, a.values()[q] as f64);
            for k in 0..feat {
                c[i as usize * feat + k] += v * b[j * feat + k] as f64;
            }
        }
    }
    c
}

/// Ragged sequence sum: `S[b, f] = sum_l X[indptr[b] + l, f]`.
fn ragged_reference(indptr: &[i32], x: &[f32], feat: usize) -> Vec<f64> {
    let batch = indptr.len() - 1;
    let mut s = vec![0.0f64; batch * feat];
    for b in 0..batch {
        for l in indptr[b] as usize..indptr[b + 1] as usize {
            for f in 0..feat {
                s[b * feat + f] += x[l * feat + f] as f64;
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------
// Runners: one call of one example's kernel; each returns the outputs.

fn run_csr_spmm(kernel: &Kernel, a: &Csr, b: &[f32], feat: usize) -> Vec<f32> {
    let mut c = poisoned(a.rows() * feat);
    kernel
        .run(
            "csr_spmm",
            &mut [
                KernelArg::Ids(a.indptr()),
                KernelArg::Ids(a.indices()),
                KernelArg::Values(a.values()),
                KernelArg::Values(b),
                KernelArg::Output(body(&mut c)),
                KernelArg::Index(a.rows()),
                KernelArg::Index(a.cols()),
                KernelArg::Index(a.nnz()),
                KernelArg::Index(feat),
            ],
        )
        .unwrap();
    c
}

/// SDDMM: `x` is `rows x feat`, `y` is `feat x cols` (the kernel's layout).
fn run_sddmm(kernel: &Kernel, function: &str, a: &Csr, x: &[f32], y: &[f32], feat: usize) -> Vec<f32> {
    let mut out = poisoned(a.nnz());
    kernel
        .run(
            function,
            &mut [
                KernelArg::Ids(a.indptr()),
                KernelArg::Ids(a.indices()),
                KernelArg::Values(a.values()),
                KernelArg::Values(x),
                KernelArg::Values(y),
                KernelArg::Output(body(&mut out)),
                KernelArg::Index(a.rows()),
                KernelArg::Index(a.cols()),
                KernelArg::Index(a.nnz()),
                KernelArg::Index(feat),
            ],
        )
        .unwrap();
    out
}

/// Runs csr_spmm compiled as `kernel` on every input and feature size.
fn check_csr_spmm(checks: &mut Checks, kernel: &Kernel, seed: u64) {
    let mut seeds = SplitMix64::new(seed);
    for (name, pattern) in inputs() {
        for feat in FEATS {
            let a = fresh(&pattern, &mut seeds);
            let b = random_dense(a.cols() * feat, seeds.next_u64());
            let c = run_csr_spmm(kernel, &a, &b, feat);
            checks.check(&format!("{name} feat={feat}"), &c, &reference::spmm(&a, &b, feat).unwrap());
        }
    }
}

/// Runs an SDDMM kernel (`function` of `kernel`) on every input and feature size.
fn check_sddmm(checks: &mut Checks, kernel: &Kernel, function: &str, seed: u64) {
    let mut seeds = SplitMix64::new(seed);
    for (name, pattern) in inputs() {
        for feat in FEATS {
            let a = fresh(&pattern, &mut seeds);
            let x = random_dense(a.rows() * feat, seeds.next_u64());
            let y = random_dense(a.cols() * feat, seeds.next_u64());
            let out = run_sddmm(kernel, function, &a, &x, &y, feat);
            let expected = reference::sddmm(&a, &x, &y, feat).unwrap();
            checks.check(&format!("{name} feat={feat}"), &out, &expected);
        }
    }
}

// ---------------------------------------------------------------------------
// One test per example.

#[test]
fn csr_spmm() {
    on_each_path("csr_spmm.mlir", example!("csr_spmm"), "csr_spmm", |kernel, checks| {
        check_csr_spmm(checks, kernel, 1);
    });
}

#[test]
fn csc_spmm() {
    on_each_path("csc_spmm.mlir", example!("csc_spmm"), "csc_spmm", |kernel, checks| {
        let mut seeds = SplitMix64::new(2);
        for (name, pattern) in inputs() {
            for feat in FEATS {
                let a = fresh(&pattern, &mut seeds);
                let csc = Csc::from_csr(&a);
                let b = random_dense(a.cols() * feat, seeds.next_u64());
                let mut c = poisoned(a.rows() * feat);
                kernel
                    .run(
                        "csc_spmm",
                        &mut [
                            KernelArg::Ids(csc.indptr()),
                            KernelArg::Ids(csc.indices()),
                            KernelArg::Values(csc.values()),
                            KernelArg::Values(&b),
                            KernelArg::Output(body(&mut c)),
                            KernelArg::Index(a.rows()),
                            KernelArg::Index(a.cols()),
                            KernelArg::Index(a.nnz()),
                            KernelArg::Index(feat),
                        ],
                    )
                    .unwrap();
                // CSC SpMM of A is CSR SpMM of the same A.
                checks.check(&format!("{name} feat={feat}"), &c, &reference::spmm(&a, &b, feat).unwrap());
            }
        }
    });
}

#[test]
fn sddmm() {
    on_each_path("sddmm.mlir", example!("sddmm"), "sddmm", |kernel, checks| {
        check_sddmm(checks, kernel, "sddmm", 3);
    });
}

#[test]
fn sddmm_fused() {
    on_each_path("sddmm_fused.mlir", example!("sddmm_fused"), "sddmm_fused", |kernel, checks| {
        check_sddmm(checks, kernel, "sddmm_fused", 4);
    });
}

#[test]
fn bsr_spmm() {
    on_each_path("bsr_spmm.mlir", example!("bsr_spmm"), "bsr_spmm", |kernel, checks| {
        let mut seeds = SplitMix64::new(5);
        for (name, pattern) in inputs() {
            for blk in [1, 2, 3] {
                for feat in FEATS {
                    let a = fresh(&pattern, &mut seeds);
                    let bsr = Bsr::from_csr(&a, blk).unwrap();
                    let (nb, mb) = (bsr.block_rows(), bsr.block_cols());
                    // B covers the padded columns too; they only meet zero block entries.
                    let b = random_dense(mb * blk * feat, seeds.next_u64());
                    let mut c = poisoned(nb * blk * feat);
                    kernel
                        .run(
                            "bsr_spmm",
                            &mut [
                                KernelArg::Ids(bsr.indptr()),
                                KernelArg::Ids(bsr.indices()),
                                KernelArg::Values(bsr.values()),
                                KernelArg::Values(&b),
                                KernelArg::Output(body(&mut c)),
                                KernelArg::Index(nb),
                                KernelArg::Index(mb),
                                KernelArg::Index(bsr.num_blocks()),
                                KernelArg::Index(blk),
                                KernelArg::Index(feat),
                            ],
                        )
                        .unwrap();
                    let mut expected = reference::bsr_spmm(&bsr, &b[..a.cols() * feat], feat).unwrap();
                    // The padded rows of C are 0.
                    expected.resize(nb * blk * feat, 0.0);
                    checks.check(&format!("{name} blk={blk} feat={feat}"), &c, &expected);
                }
            }
        }
    });
}

#[test]
fn ell_spmm() {
    on_each_path("ell_spmm.mlir", example!("ell_spmm"), "ell_spmm", |kernel, checks| {
        let mut seeds = SplitMix64::new(6);
        for (name, pattern) in inputs() {
            let max = pattern.max_row_nnz();
            // The exact width, and extra padding (padding reads column 0, so only
            // when there is one).
            let widths = if pattern.cols() > 0 { vec![max, max + 3] } else { vec![max] };
            for width in widths {
                for feat in FEATS {
                    let a = fresh(&pattern, &mut seeds);
                    let ell = Ell::from_csr(&a, Some(width)).unwrap();
                    let b = random_dense(a.cols() * feat, seeds.next_u64());
                    let mut c = poisoned(a.rows() * feat);
                    kernel
                        .run(
                            "ell_spmm",
                            &mut [
                                KernelArg::Ids(ell.indices()),
                                KernelArg::Values(ell.values()),
                                KernelArg::Values(&b),
                                KernelArg::Output(body(&mut c)),
                                KernelArg::Index(a.rows()),
                                KernelArg::Index(a.cols()),
                                KernelArg::Index(width),
                                KernelArg::Index(feat),
                            ],
                        )
                        .unwrap();
                    let expected = reference::spmm(&a, &b, feat).unwrap();
                    checks.check(&format!("{name} width={width} feat={feat}"), &c, &expected);
                }
            }
        }
    });
}

#[test]
fn dcsr_spmm() {
    on_each_path("dcsr_spmm.mlir", example!("dcsr_spmm"), "dcsr_spmm", |kernel, checks| {
        let mut seeds = SplitMix64::new(7);
        for (name, pattern) in inputs() {
            for feat in FEATS {
                let a = fresh(&pattern, &mut seeds);
                let dcsr = Dcsr::from_csr(&a);
                let nnz_rows = dcsr.row_ids().len();
                let indptr_i = [0, nnz_rows as i32];
                let b = random_dense(a.cols() * feat, seeds.next_u64());
                let mut c = poisoned(a.rows() * feat);
                kernel
                    .run(
                        "dcsr_spmm",
                        &mut [
                            KernelArg::Ids(&indptr_i),
                            KernelArg::Ids(dcsr.row_ids()),
                            KernelArg::Ids(dcsr.indptr()),
                            KernelArg::Ids(dcsr.indices()),
                            KernelArg::Values(dcsr.values()),
                            KernelArg::Values(&b),
                            KernelArg::Output(body(&mut c)),
                            KernelArg::Index(a.rows()),
                            KernelArg::Index(a.cols()),
                            KernelArg::Index(nnz_rows),
                            KernelArg::Index(a.nnz()),
                            KernelArg::Index(feat),
                        ],
                    )
                    .unwrap();
                checks.check(&format!("{name} feat={feat}"), &c, &dcsr_spmm_reference(&dcsr, &b, feat));
            }
        }
    });
}

#[test]
fn csf_ttm() {
    on_each_path("csf_ttm.mlir", example!("csf_ttm"), "csf_ttm", csf_ttm_checks);
}

/// With the fibres' two levels fused into one loop, the default GPU
/// schedule puts the fused loop on blocks: fibre f writes Y[row(f),
/// f - indptr[row(f)], :] and no other fibre does.
#[test]
fn csf_ttm_fused() {
    on_each_path_after(
        "sparse-fuse{iteration=ttm loops=0,1},",
        "csf_ttm.mlir",
        example!("csf_ttm"),
        "csf_ttm",
        csf_ttm_checks,
    );
}

fn csf_ttm_checks(kernel: &Kernel, checks: &mut Checks) {
    {
        let mut seeds = SplitMix64::new(8);
        let p = 6;
        for (name, pattern) in inputs() {
            for feat in FEATS {
                let t = tensor(&pattern, p, seeds.next_u64());
                let [m, n, _] = t.dims();
                // The example's I axis is dense: one indptr_j entry per i, not per
                // stored slice as in Csf.
                let mut indptr_j = vec![0i32; m + 1];
                for (s, &i) in t.i_ids().iter().enumerate() {
                    indptr_j[i as usize + 1] = t.i_ptr()[s + 1] - t.i_ptr()[s];
                }
                for i in 0..m {
                    indptr_j[i + 1] += indptr_j[i];
                }
                let b = random_dense(p * feat, seeds.next_u64());
                let mut y = poisoned(t.num_fibers() * feat);
                kernel
                    .run(
                        "csf_ttm",
                        &mut [
                            KernelArg::Ids(&indptr_j),
                            KernelArg::Ids(t.j_ids()),
                            KernelArg::Ids(t.j_ptr()),
                            KernelArg::Ids(t.k_ids()),
                            KernelArg::Values(t.values()),
                            KernelArg::Values(&b),
                            KernelArg::Output(body(&mut y)),
                            KernelArg::Index(m),
                            KernelArg::Index(n),
                            KernelArg::Index(p),
                            KernelArg::Index(t.num_fibers()),
                            KernelArg::Index(t.nnz()),
                            KernelArg::Index(feat),
                        ],
                    )
                    .unwrap();
                let expected = reference::csf_ttm(&t, &b, feat).unwrap();
                checks.check(&format!("{name} p={p} feat={feat}"), &y, &expected);
            }
        }
    }
}

#[test]
fn ragged() {
    on_each_path("ragged.mlir", example!("ragged"), "ragged", |kernel, checks| {
        let mut seeds = SplitMix64::new(9);
        // Sequence b of the batch is row b of the matrix: its length is the row's
        // entry count.
        for (name, pattern) in inputs() {
            for feat in FEATS {
                let indptr = pattern.indptr();
                let (batch, total) = (pattern.rows(), pattern.nnz());
                let x = random_dense(total * feat, seeds.next_u64());
                let mut s = poisoned(batch * feat);
                kernel
                    .run(
                        "ragged",
                        &mut [
                            KernelArg::Ids(indptr),
                            KernelArg::Values(&x),
                            KernelArg::Output(body(&mut s)),
                            KernelArg::Index(batch),
                            KernelArg::Index(pattern.max_row_nnz()),
                            KernelArg::Index(total),
                            KernelArg::Index(feat),
                        ],
                    )
                    .unwrap();
                checks.check(&format!("{name} feat={feat}"), &s, &ragged_reference(indptr, &x, feat));
            }
        }
    });
}

#[test]
fn rgms() {
    on_each_path("rgms.mlir", example!("rgms"), "rgms", |kernel, checks| {
        let mut seeds = SplitMix64::new(10);
        for (name, pattern) in inputs() {
            for (feat_in, feat_out) in [(1, 1), (4, 32), (32, 4)] {
                let rels: Vec<Csr> = relations(&pattern, 3).iter().map(|r| fresh(r, &mut seeds)).collect();
                let (m, n) = (pattern.rows(), pattern.cols());
                // One CSF over (relation, row, column): per relation the rows that
                // have edges of it, then their columns.
                let (mut indptr_i, mut indices_i, mut indptr_j) = (vec![0i32], Vec::new(), vec![0i32]);
                let (mut indices_j, mut values) = (Vec::new(), Vec::new());
                for rel in &rels {
                    for i in 0..m {
                        let (cols, vals) = rel.row(i).unwrap();
                        if !cols.is_empty() {
                            indices_i.push(i as i32);
                            indices_j.extend_from_slice(cols);
                            values.extend_from_slice(vals);
                            indptr_j.push(indices_j.len() as i32);
                        }
                    }
                    indptr_i.push(indices_i.len() as i32);
                }
                let w = random_dense(rels.len() * feat_out * feat_in, seeds.next_u64());
                let x = random_dense(n * feat_in, seeds.next_u64());
                let mut y = poisoned(m * feat_out);
                kernel
                    .run(
                        "rgms",
                        &mut [
                            KernelArg::Ids(&indptr_i),
                            KernelArg::Ids(&indices_i),
                            KernelArg::Ids(&indptr_j),
                            KernelArg::Ids(&indices_j),
                            KernelArg::Values(&values),
                            KernelArg::Values(&w),
                            KernelArg::Values(&x),
                            KernelArg::Output(body(&mut y)),
                            KernelArg::Index(rels.len()),
                            KernelArg::Index(m),
                            KernelArg::Index(n),
                            KernelArg::Index(indices_i.len()),
                            KernelArg::Index(values.len()),
                            KernelArg::Index(feat_in),
                            KernelArg::Index(feat_out),
                        ],
                    )
                    .unwrap();
                let expected = reference::rgms(&rels, &w, &x, feat_in, feat_out).unwrap();
                checks.check(&format!("{name} feat_in={feat_in} feat_out={feat_out}"), &y, &expected);
            }
        }
    });
}

#[test]
fn hyb_spmm() {
    on_each_path("hyb_spmm.mlir", example!("hyb_spmm"), "hyb_spmm", |kernel, checks| {
        let mut seeds = SplitMix64::new(11);
        for (name, pattern) in inputs() {
            // hyb(1, ...) with the example's two buckets: one column partition;
            // rows longer than the last width are split over several of its rows.
            for widths in [[1, 4], [4, 16]] {
                for feat in FEATS {
                    let a = fresh(&pattern, &mut seeds);
                    let hyb = Hyb::from_csr(&a, 1, &widths).unwrap();
                    let (b0, b1) = (hyb.bucket(0, 0).unwrap(), hyb.bucket(0, 1).unwrap());
                    let (mask_0, mask_1) = (b0.mask(), b1.mask());
                    let b = random_dense(a.cols() * feat, seeds.next_u64());
                    let mut c = poisoned(a.rows() * feat);
                    let mut a_0 = poisoned(b0.values().len());
                    let mut a_1 = poisoned(b1.values().len());
                    kernel
                        .run(
                            "hyb_spmm",
                            &mut [
                                KernelArg::Ids(a.indptr()),
                                KernelArg::Ids(a.indices()),
                                KernelArg::Values(a.values()),
                                KernelArg::Values(&b),
                                KernelArg::Output(body(&mut c)),
                                KernelArg::Index(a.rows()),
                                KernelArg::Index(a.cols()),
                                KernelArg::Index(a.nnz()),
                                KernelArg::Index(feat),
                                KernelArg::Ids(b0.row_indices()),
                                KernelArg::Ids(b0.indices()),
                                KernelArg::Ids(&mask_0),
                                KernelArg::Output(body(&mut a_0)),
                                KernelArg::Index(b0.num_rows()),
                                KernelArg::Index(b0.width()),
                                KernelArg::Ids(b1.row_indices()),
                                KernelArg::Ids(b1.indices()),
                                KernelArg::Ids(&mask_1),
                                KernelArg::Output(body(&mut a_1)),
                                KernelArg::Index(b1.num_rows()),
                                KernelArg::Index(b1.width()),
                            ],
                        )
                        .unwrap();
                    let label = format!("{name} widths={widths:?} feat={feat}");
                    // The format conversion reproduces the buckets' values exactly.
                    let as_f64 = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
                    checks.check(&format!("{label} a_0"), &a_0, &as_f64(b0.values()));
                    checks.check(&format!("{label} a_1"), &a_1, &as_f64(b1.values()));
                    // hyb SpMM of A is CSR SpMM of the same A.
                    checks.check(&label, &c, &reference::spmm(&a, &b, feat).unwrap());
                }
            }
        }
    });
}

// ---------------------------------------------------------------------------
// sparse-reorder: same results as the reference (and the original order).

#[test]
fn csr_spmm_reordered() {
    let kernel = compile("csr_spmm.mlir", example!("csr_spmm"), Some("sparse-reorder{iteration=csrmm order=0,2,1}"));
    let mut checks = Checks::new("csr_spmm reorder 0,2,1");
    check_csr_spmm(&mut checks, &kernel, 12);
    // Bit for bit against the original order on a few inputs.
    let original = compile("csr_spmm.mlir", example!("csr_spmm"), None);
    let mut seeds = SplitMix64::new(13);
    for (name, pattern) in inputs() {
        let a = fresh(&pattern, &mut seeds);
        let b = random_dense(a.cols() * 4, seeds.next_u64());
        let (x, y) = (run_csr_spmm(&kernel, &a, &b, 4), run_csr_spmm(&original, &a, &b, 4));
        let y64: Vec<f64> = y[..y.len() - GUARD].iter().map(|&v| v as f64).collect();
        checks.check(&format!("{name} reordered vs original"), &x, &y64);
    }
    checks.finish();
}

#[test]
fn sddmm_reordered() {
    for order in ["0,2,1", "2,0,1"] {
        let pre = format!("sparse-reorder{{iteration=sddmm order={order}}}");
        let kernel = compile("sddmm.mlir", example!("sddmm"), Some(&pre));
        let mut checks = Checks::new(if order == "0,2,1" { "sddmm reorder 0,2,1" } else { "sddmm reorder 2,0,1" });
        check_sddmm(&mut checks, &kernel, "sddmm", 14);
        checks.finish();
    }
}

// ---------------------------------------------------------------------------
// An iteration nested in another's init region: the init runs once per
// spatial point, where only the spatial axes have coordinates, so it may
// walk the children of those (here each row's non-zeros) and not of the
// reduction axes (the verifier's side is in test/dialects/sparse_iter).

const INIT_WALKS_ROW: &str = r#"
func.func @count_and_sum(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %y: memref<?xf32>,
                         %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "sum" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "count" [%J] "R" body {
    ^bb0(%j: index):
      %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
      %one = arith.constant 1.0 : f32
      %more = arith.addf %acc, %one : f32
      sparse_iter.store %more, %Y[%i] : !sparse_iter.buffer<1, f32>
    }
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %sum = arith.addf %acc, %v : f32
    sparse_iter.store %sum, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
"#;

#[test]
fn iteration_in_init_walks_the_row() {
    on_each_path("count_and_sum.mlir", INIT_WALKS_ROW, "iteration in init", |kernel, checks| {
        let mut seeds = SplitMix64::new(21);
        for (name, pattern) in inputs() {
            let a = fresh(&pattern, &mut seeds);
            let mut y = poisoned(a.rows());
            kernel
                .run(
                    "count_and_sum",
                    &mut [
                        KernelArg::Ids(a.indptr()),
                        KernelArg::Ids(a.indices()),
                        KernelArg::Values(a.values()),
                        KernelArg::Output(body(&mut y)),
                        KernelArg::Index(a.rows()),
                        KernelArg::Index(a.cols()),
                        KernelArg::Index(a.nnz()),
                    ],
                )
                .unwrap();
            let expected: Vec<f64> = (0..a.rows())
                .map(|i| {
                    let (_, values) = a.row(i).unwrap_or((&[], &[]));
                    values.len() as f64 + values.iter().map(|&v| v as f64).sum::<f64>()
                })
                .collect();
            checks.check(&name, &y, &expected);
        }
    });
}
