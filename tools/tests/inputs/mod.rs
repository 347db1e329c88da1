//! Stage I programs beyond the built-in kernels, shared by the GPU and the
//! emulated GPU tests, with their float64 references.
#![allow(dead_code)]

pub const COLUMN_MAXIMA: &str = include_str!("column_maxima.mlir");
pub const STAGED_BUFFER: &str = include_str!("staged_buffer.mlir");
pub const MATH_FUNCTIONS: &str = include_str!("math_functions.mlir");

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
}
