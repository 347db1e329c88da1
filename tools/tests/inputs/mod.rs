//! Stage I programs beyond the built-in kernels, shared by the GPU and the
//! emulated GPU tests, with their float64 references.
#![allow(dead_code)]

pub const COLUMN_MAXIMA: &str = include_str!("column_maxima.mlir");
pub const STAGED_BUFFER: &str = include_str!("staged_buffer.mlir");
pub const MATH_FUNCTIONS: &str = include_str!("math_functions.mlir");
pub const ROW_SUMS: &str = include_str!("row_sums.mlir");
pub const SCALED_ROWS: &str = include_str!("scaled_rows.mlir");
pub const ROW_EXTREMA: &str = include_str!("../../../test/lowering/Inputs/row_extrema.mlir");
pub const ROUNDINGS: &str = include_str!("roundings.mlir");
pub const SHIFTED_CSC_SPMM: &str = include_str!("shifted_csc_spmm.mlir");
pub const TRIANGULAR_SOLVE: &str = include_str!("../../../test/lowering/Inputs/triangular_solve.mlir");
pub const PROPAGATE: &str = include_str!("../../../test/lowering/Inputs/propagate.mlir");

/// The strictly lower triangle of the square `a`, each row's values scaled
/// by half its length so that a solve stays near the size of its input.
pub fn strict_lower_triangle(a: &sptir_runtime::Csr) -> sptir_runtime::Csr {
    let (mut indptr, mut indices, mut values) = (vec![0i32], Vec::new(), Vec::new());
    for r in 0..a.rows() {
        let (columns, stored) = a.row(r).unwrap_or((&[], &[]));
        let kept: Vec<(i32, f32)> =
            columns.iter().zip(stored).filter(|(&c, _)| (c as usize) < r).map(|(&c, &v)| (c, v)).collect();
        let scale = 0.5 / kept.len().max(1) as f32;
        indices.extend(kept.iter().map(|&(c, _)| c));
        values.extend(kept.iter().map(|&(_, v)| v * scale));
        indptr.push(indices.len() as i32);
    }
    sptir_runtime::Csr::new(a.rows(), a.rows(), indptr, indices, values).expect("a lower triangle is a valid CSR")
}

/// The arguments of `trsv` in `triangular_solve.mlir`: `l`, and `x`,
/// which the kernel solves in place.
pub fn triangular_solve_args<'a>(
    l: &'a sptir_runtime::Csr,
    x: &'a mut [f32],
) -> Vec<sptir_runtime::cpu::KernelArg<'a>> {
    use sptir_runtime::cpu::KernelArg;
    vec![
        KernelArg::Ids(l.indptr()),
        KernelArg::Ids(l.indices()),
        KernelArg::Values(l.values()),
        KernelArg::Output(x),
        KernelArg::Index(l.rows()),
        KernelArg::Index(l.nnz()),
    ]
}

/// `solve` of `triangular_solve.mlir`: `x` after `x[i] -= L[i, j] * x[j]`
/// over each row's stored `j` in turn, rows in order, in float64.
pub fn triangular_solve(l: &sptir_runtime::Csr, x: &[f32]) -> Vec<f64> {
    let mut out: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    for i in 0..l.rows() {
        let (columns, values) = l.row(i).unwrap_or((&[], &[]));
        for (&j, &v) in columns.iter().zip(values) {
            out[i] -= v as f64 * out[j as usize];
        }
    }
    out
}

/// The arguments of `propagate` in `propagate.mlir`: the square `a`, and
/// `x`, `steps + 1` rows of `a.rows()`, the first one the input.
pub fn propagate_args<'a>(
    a: &'a sptir_runtime::Csr,
    x: &'a mut [f32],
    steps: usize,
) -> Vec<sptir_runtime::cpu::KernelArg<'a>> {
    use sptir_runtime::cpu::KernelArg;
    vec![
        KernelArg::Ids(a.indptr()),
        KernelArg::Ids(a.indices()),
        KernelArg::Values(a.values()),
        KernelArg::Output(x),
        KernelArg::Index(steps),
        KernelArg::Index(a.rows()),
        KernelArg::Index(a.nnz()),
    ]
}

/// `prop` of `propagate.mlir` in float64: row 0 of `x`, then each row `a`
/// times the one before.
pub fn propagate(a: &sptir_runtime::Csr, x: &[f32], steps: usize) -> Vec<f64> {
    let n = a.rows();
    let mut out: Vec<f64> = x[..n].iter().map(|&v| v as f64).collect();
    for t in 0..steps {
        for i in 0..n {
            let (columns, values) = a.row(i).unwrap_or((&[], &[]));
            let sum = columns.iter().zip(values).map(|(&j, &v)| v as f64 * out[t * n + j as usize]).sum();
            out.push(sum);
        }
    }
    out
}

/// `colmax` of `column_maxima.mlir`: the maximum of each of the `m`
/// columns of the `n x m` matrix `x`.
pub fn column_maxima(x: &[f32], m: usize, n: usize) -> Vec<f32> {
    (0..m).map(|i| (0..n).map(|j| x[j * m + i]).fold(f32::NEG_INFINITY, f32::max)).collect()
}

/// `math` of `math_functions.mlir` at one element.
pub fn math_functions(x: f32) -> f64 {
    let v = x as f64;
    let a1 = v.abs() + 1.0;
    v.exp().mul_add(a1.ln(), v.abs().sqrt())
        + v.exp2()
        + a1.log2()
        + 1.0 / a1.sqrt()
        + v.tanh()
        + v.sin()
        + v.cos()
        + a1.powf(1.5)
        + roundings(x)
        + ((x * 0.25) as f64).tan()
        + 2.0 * v.powi(3)
        + v.powi(2)
        + ((x * 2.5) as f64).asinh()
}

/// The roundings in `math_functions.mlir`: of `x`, of `2.5 x` and of
/// `trunc(4 x) / 2` (in f32, as the kernel computes them).
fn roundings(x: f32) -> f64 {
    let w = (x * 2.5) as f64;
    let h = ((x * 4.0).trunc() * 0.5) as f64;
    let v = x as f64;
    v.floor() + w.ceil() + h.round() + h.round_ties_even() + w.trunc() + (v.abs() + 1.0).copysign(v)
}

/// `rowsum` of `row_sums.mlir`: the sum of each row of `a`, in float64.
pub fn row_sums(a: &sptir_runtime::Csr) -> Vec<f64> {
    (0..a.rows()).map(|r| a.row(r).map_or(0.0, |(_, values)| values.iter().map(|&v| v as f64).sum())).collect()
}

/// `scaled` of `scaled_rows.mlir`: `2 s[1] + s[0] (A x)[i]`, in float64.
pub fn scaled_rows(a: &sptir_runtime::Csr, x: &[f32], s: &[f32]) -> Vec<f64> {
    (0..a.rows())
        .map(|r| {
            let dot: f64 = a.row(r).map_or(0.0, |(columns, values)| {
                columns.iter().zip(values).map(|(&j, &v)| v as f64 * x[j as usize] as f64).sum()
            });
            2.0 * s[1] as f64 + s[0] as f64 * dot
        })
        .collect()
}

/// The arguments of the kernels of `row_extrema.mlir`.
pub fn row_extrema_args<'a>(
    a: &'a sptir_runtime::Csr,
    top: &'a mut [f32],
    bottom: &'a mut [i32],
) -> Vec<sptir_runtime::cpu::KernelArg<'a>> {
    use sptir_runtime::cpu::KernelArg;
    vec![
        KernelArg::Ids(a.indptr()),
        KernelArg::Ids(a.indices()),
        KernelArg::Values(a.values()),
        KernelArg::Output(top),
        KernelArg::Counts(bottom),
        KernelArg::Index(a.rows()),
        KernelArg::Index(a.cols()),
        KernelArg::Index(a.nnz()),
    ]
}

/// `rowext` of `row_extrema.mlir`: each row's largest value (-inf when
/// empty) and smallest `(value * 1000) as i32` (i32::MAX when empty).
pub fn row_extrema(a: &sptir_runtime::Csr) -> (Vec<f32>, Vec<i32>) {
    (0..a.rows())
        .map(|r| {
            let values = a.row(r).map_or(&[][..], |(_, values)| values);
            let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let bottom = values.iter().map(|&v| (v * 1000.0) as i32).min().unwrap_or(i32::MAX);
            (top, bottom)
        })
        .unzip()
}

/// `rowpos` of `row_extrema.mlir`: each row's largest positive value
/// (-inf when none) and how many values are positive.
pub fn row_positives(a: &sptir_runtime::Csr) -> (Vec<f32>, Vec<i32>) {
    (0..a.rows())
        .map(|r| {
            let values = a.row(r).map_or(&[][..], |(_, values)| values);
            let positive = values.iter().copied().filter(|&v| v > 0.0);
            (positive.clone().fold(f32::NEG_INFINITY, f32::max), positive.count() as i32)
        })
        .unzip()
}

/// `rowsign` of `row_extrema.mlir`: each row's largest magnitude (-inf
/// when empty) and how many values are not positive.
pub fn row_signs(a: &sptir_runtime::Csr) -> (Vec<f32>, Vec<i32>) {
    (0..a.rows())
        .map(|r| {
            let values = a.row(r).map_or(&[][..], |(_, values)| values);
            let top = values.iter().map(|&v| if v > 0.0 { v } else { -v }).fold(f32::NEG_INFINITY, f32::max);
            (top, values.iter().filter(|&&v| !(v > 0.0)).count() as i32)
        })
        .unzip()
}

/// The expected results of `function` of `row_extrema.mlir` on `a`.
pub fn row_extrema_of(function: &str, a: &sptir_runtime::Csr) -> (Vec<f32>, Vec<i32>) {
    match function {
        "rowpos" => row_positives(a),
        "rowsign" => row_signs(a),
        _ => row_extrema(a),
    }
}

/// `shifted` of `shifted_csc_spmm.mlir` with `a` the CSC structure (its
/// rows are A's columns) and `c` C's values before the kernel, `w` wide.
pub fn shifted_csc_spmm(a: &sptir_runtime::Csr, b: &[f32], c: &[f32], feat: usize, w: usize) -> Vec<f64> {
    let mut out: Vec<f64> = c.iter().map(|&v| v as f64).collect();
    for j in 0..a.rows() {
        let (rows, values) = a.row(j).unwrap_or((&[], &[]));
        for (&i, &v) in rows.iter().zip(values) {
            for k in (0..feat).filter(|k| k + 1 < w) {
                out[i as usize * w + k + 1] += v as f64 * b[j * feat + k] as f64;
            }
        }
    }
    out
}

/// The inputs of `roundings.mlir`: huge, infinite, NaN, ties, -0, and
/// 1 + 2^-12, whose square minus one an unfused multiply-add gets wrong.
pub fn rounding_inputs() -> Vec<f32> {
    vec![
        1e20,
        -3.5e19,
        9.3e18,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        2.5,
        -2.5,
        0.5,
        -0.5,
        1.0 + 1.0 / 4096.0,
        -0.0,
        7.25,
    ]
}

/// Runs `roundings.mlir` through `run` on `rounding_inputs` and checks
/// what it wrote bit for bit (NaN as any NaN), naming the output and input
/// that differ.
pub fn check_roundings(run: impl FnOnce(&mut [sptir_runtime::cpu::KernelArg])) {
    use sptir_runtime::cpu::KernelArg;
    let x = rounding_inputs();
    let n = x.len();
    let [mut c, mut r, mut e, mut f] = [(); 4].map(|_| vec![f32::NAN; n]);
    run(&mut [
        KernelArg::Values(&x),
        KernelArg::Output(&mut c),
        KernelArg::Output(&mut r),
        KernelArg::Output(&mut e),
        KernelArg::Output(&mut f),
        KernelArg::Index(n),
    ]);
    let expected: [fn(f32) -> f32; 4] = [f32::ceil, f32::round, f32::round_ties_even, |v| v.mul_add(v, -1.0)];
    for (name, (output, f)) in ["ceil", "round", "roundeven", "fma"].iter().zip([&c, &r, &e, &f].iter().zip(expected)) {
        for (&v, &got) in x.iter().zip(output.iter()) {
            let want = f(v);
            let same = if want.is_nan() { got.is_nan() } else { got.to_bits() == want.to_bits() };
            assert!(same, "{name}({v:e}) gave {got:e}, not {want:e}");
        }
    }
}
