//! `decompose-format` end to end: the rule examples run after decomposition
//! and give CSR SpMM's result, and the copy iterations fill the new formats
//! with exactly the values the runtime conversions produce.

use sptir_runtime::{
    cpu::{CpuKernel, KernelArg},
    random_dense, randomize_values, reference, relative_error, Bsr, Csr, RmatSpec,
};
use sptir_tools::{compile::run_pipeline, context::create_context};

const PIPELINE: &str = "builtin.module(decompose-format,sptir-to-cpu)";

fn compile(source: &str) -> CpuKernel {
    let context = create_context();
    let mut module = sptir_dialects::parse_module(&context, source, "example").expect("example parses");
    run_pipeline(&context, &mut module, PIPELINE).expect("decomposes and lowers");
    CpuKernel::compile(&module, 2).expect("JIT compiles")
}

fn matrices() -> Vec<Csr> {
    let mut list = vec![
        RmatSpec::parse("rmat:7:4:3").unwrap().generate().unwrap(),
        // Odd sizes leave partial blocks; row 2 is empty.
        Csr::new(5, 7, vec![0, 2, 5, 5, 6, 9], vec![0, 6, 1, 2, 3, 4, 0, 5, 6], vec![1.0; 9]).unwrap(),
        Csr::empty(3, 3).unwrap(),
    ];
    for (seed, a) in list.iter_mut().enumerate() {
        randomize_values(a, 11 + seed as u64);
    }
    list
}

#[test]
fn csr_to_bsr_rule_matches_reference_and_runtime_bsr() {
    let kernel = compile(include_str!("../../examples/decompose_bsr.mlir"));
    for a in matrices() {
        let bsr = Bsr::from_csr(&a, 2).unwrap();
        let feat = 5;
        let b = random_dense(a.cols() * feat, 7);
        let mut c = vec![f32::NAN; a.rows() * feat];
        let mut ab = vec![f32::NAN; bsr.values().len()];
        kernel
            .run(
                "decompose_bsr",
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
                    KernelArg::Ids(bsr.indptr()),
                    KernelArg::Ids(bsr.indices()),
                    KernelArg::Output(&mut ab),
                    KernelArg::Index(bsr.block_rows()),
                    KernelArg::Index(bsr.block_cols()),
                    KernelArg::Index(bsr.num_blocks()),
                ],
            )
            .unwrap();
        assert_eq!(ab, bsr.values(), "copy iteration fills the blocks like the runtime conversion");
        let error = relative_error(&c, &reference::spmm(&a, &b, feat).unwrap());
        assert!(error < 1e-5, "relative error {error}");
    }
}

/// Two ELL buckets: rows with at most `narrow` non-zeros, and the rest;
/// padding columns are `cols` (out of range).
fn buckets(a: &Csr, narrow: usize) -> [(Vec<i32>, Vec<i32>, usize); 2] {
    let wide = a.max_row_nnz().max(1);
    let mut out = [(Vec::new(), Vec::new(), narrow), (Vec::new(), Vec::new(), wide)];
    for row in 0..a.rows() {
        let (columns, _) = a.row(row).unwrap();
        if columns.is_empty() {
            continue;
        }
        let bucket = &mut out[usize::from(columns.len() > narrow)];
        bucket.0.push(row as i32);
        let mut padded = columns.to_vec();
        padded.resize(bucket.2, a.cols() as i32);
        bucket.1.extend(padded);
    }
    out
}

#[test]
fn csr_to_ell_buckets_rule_matches_reference() {
    let kernel = compile(include_str!("../../examples/decompose_hyb.mlir"));
    for a in matrices() {
        let [(rows_0, cols_0, width_0), (rows_1, cols_1, width_1)] = buckets(&a, 2);
        let feat = 3;
        let b = random_dense(a.cols() * feat, 9);
        let mut c = vec![f32::NAN; a.rows() * feat];
        let mut a_0 = vec![f32::NAN; cols_0.len()];
        let mut a_1 = vec![f32::NAN; cols_1.len()];
        kernel
            .run(
                "decompose_hyb",
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
                    KernelArg::Ids(&rows_0),
                    KernelArg::Ids(&cols_0),
                    KernelArg::Output(&mut a_0),
                    KernelArg::Index(rows_0.len()),
                    KernelArg::Index(width_0),
                    KernelArg::Ids(&rows_1),
                    KernelArg::Ids(&cols_1),
                    KernelArg::Output(&mut a_1),
                    KernelArg::Index(rows_1.len()),
                    KernelArg::Index(width_1),
                ],
            )
            .unwrap();
        let stored: f32 = a_0.iter().chain(&a_1).map(|v| v.abs()).sum();
        let expected: f32 = a.values().iter().map(|v| v.abs()).sum();
        assert!((stored - expected).abs() <= 1e-4 * expected.max(1.0), "each non-zero copied exactly once");
        let error = relative_error(&c, &reference::spmm(&a, &b, feat).unwrap());
        assert!(error < 1e-5, "relative error {error}");
    }
}

/// A rule on a buffer an earlier iteration computes, written after it:
/// the copy into ELL runs between the SDDMM that writes the attention
/// values and the SpMM that reads them in ELL.
#[test]
fn rule_after_the_writer_stores_computed_values_in_ell() {
    let kernel = compile(include_str!("inputs/gat_ell.mlir"));
    for a in matrices() {
        let feat = 4;
        let x = random_dense(a.cols().max(a.rows()) * feat, 5);
        let width = a.max_row_nnz().max(1);
        let mut columns = Vec::new();
        for row in 0..a.rows() {
            let (row_columns, _) = a.row(row).unwrap();
            let mut padded = row_columns.to_vec();
            padded.resize(width, a.cols() as i32);
            columns.extend(padded);
        }
        let mut o = vec![f32::NAN; a.nnz()];
        let mut c = vec![f32::NAN; a.rows() * feat];
        let mut o_ell = vec![f32::NAN; columns.len()];
        kernel
            .run(
                "gat",
                &mut [
                    KernelArg::Ids(a.indptr()),
                    KernelArg::Ids(a.indices()),
                    KernelArg::Values(a.values()),
                    KernelArg::Values(&x),
                    KernelArg::Output(&mut o),
                    KernelArg::Output(&mut c),
                    KernelArg::Index(a.rows()),
                    KernelArg::Index(a.cols()),
                    KernelArg::Index(a.nnz()),
                    KernelArg::Index(feat),
                    KernelArg::Ids(&columns),
                    KernelArg::Output(&mut o_ell),
                    KernelArg::Index(width),
                ],
            )
            .unwrap();
        // X's rows are both the rows' and the columns' features.
        let (x_rows, x_columns) = (&x[..a.rows() * feat], &x[..a.cols() * feat]);
        let expected_o = reference::sddmm(&a, x_rows, x_columns, feat).unwrap();
        let error = relative_error(&o, &expected_o);
        assert!(error < 1e-5, "attention values: relative error {error}");
        let attention = a.clone().with_values(o.clone()).unwrap();
        let error = relative_error(&c, &reference::spmm(&attention, x_columns, feat).unwrap());
        assert!(error < 1e-5, "aggregation: relative error {error}");
    }
}
