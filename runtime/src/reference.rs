//! Float64 reference implementations that kernel outputs are compared against.
//!
//! Inputs are the same `f32` buffers the kernels get; every product and sum is done in
//! f64 so that the reference's own rounding is negligible next to the kernel's. Dense
//! operands are row-major; the shapes are those documented in [`crate::shape`].

use crate::formats::{Bsr, Csf, Csr};
use crate::shape::{check_bsr_spmm, check_csf_ttm, check_rgms, check_sddmm, check_spmm, ShapeError};

/// A float64 result and, per element, the sum of the magnitudes of the
/// terms it adds up (`sum |a * x|`). A float32 kernel's rounding error
/// scales with the magnitudes, which cancellation between terms does not
/// shrink: a sum near zero of large terms is only as accurate as the
/// terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Terms {
    pub values: Vec<f64>,
    pub magnitudes: Vec<f64>,
}

/// `Y[i, :] = sum_j A[i, j] * X[j, :]`; X is `cols x feat`, Y is `rows x feat`.
pub fn spmm(a: &Csr, x: &[f32], feat: usize) -> Result<Vec<f64>, ShapeError> {
    spmm_terms(a, x, feat).map(|terms| terms.values)
}

/// [`spmm`] with the magnitudes of its terms.
pub fn spmm_terms(a: &Csr, x: &[f32], feat: usize) -> Result<Terms, ShapeError> {
    let len = check_spmm(a.rows(), a.cols(), feat, x.len())?;
    let mut terms = Terms { values: vec![0.0f64; len], magnitudes: vec![0.0f64; len] };
    by_row_ranges(
        a.rows(),
        |r| r * feat,
        &mut terms,
        |rows, y, magnitudes| {
            let first = rows.start;
            for i in rows {
                let (cols, vals) = a.row(i).unwrap_or((&[], &[]));
                let out = &mut y[(i - first) * feat..(i - first + 1) * feat];
                let scale = &mut magnitudes[(i - first) * feat..(i - first + 1) * feat];
                for (&j, &v) in cols.iter().zip(vals) {
                    let xj = &x[j as usize * feat..(j as usize + 1) * feat];
                    for ((o, m), &xv) in out.iter_mut().zip(scale.iter_mut()).zip(xj) {
                        let term = v as f64 * xv as f64;
                        *o += term;
                        *m += term.abs();
                    }
                }
            }
        },
    );
    Ok(terms)
}

/// Fills `terms` from consecutive ranges of rows on the machine's cores
/// (a reference over a large matrix and many features would otherwise
/// take longer than the kernels it checks): `fill(rows, values,
/// magnitudes)` gets the outputs of `rows`, which start at `offset(r)` for
/// row r, each row's contiguous and in row order (`offset(rows)` is the
/// length).
fn by_row_ranges(
    rows: usize,
    offset: impl Fn(usize) -> usize,
    terms: &mut Terms,
    fill: impl Fn(std::ops::Range<usize>, &mut [f64], &mut [f64]) + Sync,
) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 64);
    let per_thread = rows.div_ceil(threads).max(1);
    let (mut values, mut magnitudes) = (&mut terms.values[..], &mut terms.magnitudes[..]);
    std::thread::scope(|scope| {
        let fill = &fill;
        let mut start = 0;
        while start < rows {
            let end = (start + per_thread).min(rows);
            let len = offset(end) - offset(start);
            let (these_values, rest) = std::mem::take(&mut values).split_at_mut(len);
            values = rest;
            let (these_magnitudes, rest) = std::mem::take(&mut magnitudes).split_at_mut(len);
            magnitudes = rest;
            scope.spawn(move || fill(start..end, these_values, these_magnitudes));
            start = end;
        }
    });
}

/// `out[p] = A.values[p] * sum_k X[i, k] * Y[j, k]` for each stored entry `p = (i, j)`.
///
/// X is `rows x feat` and Y is `cols x feat` (Y is given transposed relative to the
/// textbook `X Y` so that both operands are read along contiguous rows). The output
/// follows A's storage order.
pub fn sddmm(a: &Csr, x: &[f32], y: &[f32], feat: usize) -> Result<Vec<f64>, ShapeError> {
    sddmm_terms(a, x, y, feat).map(|terms| terms.values)
}

/// [`sddmm`] with the magnitudes of its terms.
pub fn sddmm_terms(a: &Csr, x: &[f32], y: &[f32], feat: usize) -> Result<Terms, ShapeError> {
    let len = check_sddmm(a.rows(), a.cols(), a.nnz(), feat, x.len(), y.len())?;
    let mut terms = Terms { values: vec![0.0f64; len], magnitudes: vec![0.0f64; len] };
    let indptr = a.indptr();
    by_row_ranges(
        a.rows(),
        |r| indptr[r] as usize,
        &mut terms,
        |rows, out, magnitudes| {
            let first = indptr[rows.start] as usize;
            for i in rows {
                let Some(range) = a.row_range(i) else {
                    continue;
                };
                let xi = &x[i * feat..(i + 1) * feat];
                for p in range {
                    let j = a.indices()[p] as usize;
                    let yj = &y[j * feat..(j + 1) * feat];
                    let (dot, size) = xi.iter().zip(yj).fold((0.0f64, 0.0f64), |(dot, size), (&u, &w)| {
                        let term = u as f64 * w as f64;
                        (dot + term, size + term.abs())
                    });
                    let value = a.values()[p] as f64;
                    out[p - first] = value * dot;
                    magnitudes[p - first] = value.abs() * size;
                }
            }
        },
    );
    Ok(terms)
}

/// SpMM with a BSR matrix, computed block by block (padding positions are skipped).
/// X is `cols x feat`, Y is `rows x feat` (the logical, unpadded shape).
pub fn bsr_spmm(a: &Bsr, x: &[f32], feat: usize) -> Result<Vec<f64>, ShapeError> {
    let mut y = vec![0.0f64; check_bsr_spmm(a, feat, x.len())?];
    let b = a.block_size();
    for (br, w) in a.indptr().windows(2).enumerate() {
        for block in w[0] as usize..w[1] as usize {
            let bc = a.indices()[block] as usize;
            let values = &a.values()[block * b * b..(block + 1) * b * b];
            for r in 0..b {
                let i = br * b + r;
                if i >= a.rows() {
                    break;
                }
                for c in 0..b {
                    let j = bc * b + c;
                    if j >= a.cols() {
                        break;
                    }
                    let v = values[r * b + c] as f64;
                    for k in 0..feat {
                        y[i * feat + k] += v * x[j * feat + k] as f64;
                    }
                }
            }
        }
    }
    Ok(y)
}

/// RGMS (relational gather-matmul-scatter, as in R-GCN):
/// `Y[i, fo] = sum_r sum_j A_r[i, j] * sum_fi W[r, fo, fi] * X[j, fi]`.
///
/// W is `relations x feat_out x feat_in`, X is `cols x feat_in`, Y is `rows x feat_out`.
pub fn rgms(relations: &[Csr], w: &[f32], x: &[f32], feat_in: usize, feat_out: usize) -> Result<Vec<f64>, ShapeError> {
    let mut y = vec![0.0f64; check_rgms(relations, feat_in, feat_out, w.len(), x.len())?];
    let cols = relations.first().map_or(0, |a| a.cols());
    let mut xw = vec![0.0f64; cols * feat_out];
    for (r, a) in relations.iter().enumerate() {
        // Transform every X row once per relation, then aggregate; same result as the
        // per-edge formula at a fraction of the cost.
        let wr = &w[r * feat_out * feat_in..(r + 1) * feat_out * feat_in];
        for j in 0..cols {
            let xj = &x[j * feat_in..(j + 1) * feat_in];
            for fo in 0..feat_out {
                let row = &wr[fo * feat_in..(fo + 1) * feat_in];
                xw[j * feat_out + fo] = row.iter().zip(xj).map(|(&u, &v)| u as f64 * v as f64).sum();
            }
        }
        for i in 0..a.rows() {
            let (js, vals) = a.row(i).unwrap_or((&[], &[]));
            for (&j, &v) in js.iter().zip(vals) {
                let src = &xw[j as usize * feat_out..(j as usize + 1) * feat_out];
                for (o, &s) in y[i * feat_out..(i + 1) * feat_out].iter_mut().zip(src) {
                    *o += v as f64 * s;
                }
            }
        }
    }
    Ok(y)
}

/// Tensor-times-matrix along the last mode, over the CSF's fibers:
/// `Y[f, l] = sum_k A[i, j, k] * B[k, l]` for each (i, j) fiber `f` in storage order
/// (see [`Csf::fiber_coords`]). B is `dims[2] x l`, Y is `num_fibers x l`.
pub fn csf_ttm(a: &Csf, b: &[f32], l: usize) -> Result<Vec<f64>, ShapeError> {
    let mut y = vec![0.0f64; check_csf_ttm(a, l, b.len())?];
    for (f, w) in a.j_ptr().windows(2).enumerate() {
        let out = &mut y[f * l..(f + 1) * l];
        for p in w[0] as usize..w[1] as usize {
            let k = a.k_ids()[p] as usize;
            let v = a.values()[p] as f64;
            for (o, &bv) in out.iter_mut().zip(&b[k * l..(k + 1) * l]) {
                *o += v * bv as f64;
            }
        }
    }
    Ok(y)
}

/// `||out - reference||_2 / ||reference||_2`.
///
/// When the reference is all zero this is the absolute error `||out||_2` (0 when both are
/// zero). Returns `f64::INFINITY` when the lengths differ or the result is not a number
/// (a NaN or infinity in `out`), so `err <= tol` fails for every broken output.
pub fn relative_error(out: &[f32], reference: &[f64]) -> f64 {
    ErrorSums::of(out, reference).relative_error()
}

/// The squared norms behind [`relative_error`], which add up over the
/// parts of one result (row panels) so that the error is the whole
/// result's, not the worst part's on its own scale; and the worst
/// element's error on its own scale, which the norms can hide: a few hub
/// rows make most of the norm, so a short row that is wrong in full
/// moves it by less than rounding.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ErrorSums {
    pub diff: f64,
    pub norm: f64,
    /// The largest `|out - reference| / (m + 1e-7 max m)`, `m` being the
    /// element's magnitude (see [`ErrorSums::scaled`]); infinite for a
    /// NaN. The floor keeps elements with no terms from dividing by 0.
    pub worst: f64,
}

/// The largest accepted error of one element relative to its own
/// magnitude. float32 rounding of a sum of n terms stays under about
/// n * 6e-8 of the magnitudes at worst (n up to 16000 here) and near
/// sqrt(n) * 6e-8 in practice; an element that is missing, or that
/// lost or doubled a term of a short row, is off by far more.
pub const ELEMENT_TOLERANCE: f64 = 1e-3;

impl ErrorSums {
    pub fn of(out: &[f32], reference: &[f64]) -> Self {
        Self::scaled(out, reference, reference)
    }

    /// The error of `out` against `reference` relative to the norm of
    /// `scale`, the magnitudes of its terms ([`Terms`]): rounding of
    /// float32 sums counts as much where terms cancel as where they do
    /// not, and a wrong or missing term still counts in full.
    pub fn scaled(out: &[f32], reference: &[f64], scale: &[f64]) -> Self {
        if out.len() != reference.len() || scale.len() != reference.len() {
            return ErrorSums { diff: f64::INFINITY, norm: 0.0, worst: f64::INFINITY };
        }
        let floor = scale.iter().fold(0.0f64, |max, m| max.max(m.abs())) * 1e-7;
        let mut sums = ErrorSums::default();
        for ((&o, &r), &m) in out.iter().zip(reference).zip(scale) {
            let diff = (o as f64 - r).abs();
            sums.diff += diff * diff;
            sums.norm += m * m;
            let element = if diff == 0.0 { 0.0 } else { diff / (m.abs() + floor) };
            sums.worst = if element.is_nan() { f64::INFINITY } else { sums.worst.max(element) };
        }
        sums
    }

    pub fn add(self, other: ErrorSums) -> Self {
        ErrorSums { diff: self.diff + other.diff, norm: self.norm + other.norm, worst: self.worst.max(other.worst) }
    }

    pub fn relative_error(self) -> f64 {
        let ErrorSums { diff, norm, .. } = self;
        let err = if norm == 0.0 { diff.sqrt() } else { (diff / norm).sqrt() };
        if err.is_nan() {
            f64::INFINITY
        } else {
            err
        }
    }

    /// Whether both the whole result and its worst element are within
    /// tolerance (`tolerance` for the norms, [`ELEMENT_TOLERANCE`] for the
    /// element).
    pub fn within(self, tolerance: f64) -> bool {
        self.relative_error() <= tolerance && self.worst <= ELEMENT_TOLERANCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{random_csr, random_entries, sample};
    use crate::random::random_dense;

    /// A short row wrong in full beside hub rows: the norms pass it,
    /// the worst element does not.
    #[test]
    fn a_wrong_short_row_fails_beside_hubs() {
        let mut reference = vec![1000.0; 20];
        reference.push(1.0);
        let scale = reference.clone();
        let mut out: Vec<f32> = reference.iter().map(|&x| x as f32).collect();
        assert!(ErrorSums::scaled(&out, &reference, &scale).within(1e-5));
        out[20] = 0.0;
        let sums = ErrorSums::scaled(&out, &reference, &scale);
        assert!(sums.relative_error() < 1e-3 && sums.worst > 0.99 && !sums.within(1e-3));
        // Empty rows: no terms, so exactly zero, and the floor keeps 0/0 out.
        let (zero, none) = ([0.0f64; 3], [0.0f32; 3]);
        assert_eq!(ErrorSums::scaled(&none, &zero, &zero).worst, 0.0);
        assert_eq!(ErrorSums::scaled(&[f32::NAN, 0.0, 0.0], &zero, &zero).worst, f64::INFINITY);
        let parts = ErrorSums::scaled(&out, &reference, &scale).add(ErrorSums::of(&[1.0], &[1.0]));
        assert_eq!(parts.worst, sums.worst);
    }

    fn to_f32(v: &[f64]) -> Vec<f32> {
        v.iter().map(|&x| x as f32).collect()
    }

    /// Dense `m x n` times dense `n x p`.
    fn matmul(a: &[f32], b: &[f32], m: usize, n: usize, p: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * p];
        for i in 0..m {
            for k in 0..n {
                for j in 0..p {
                    c[i * p + j] += a[i * n + k] as f64 * b[k * p + j] as f64;
                }
            }
        }
        c
    }

    fn assert_close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "at {i}: {x} vs {y}");
        }
    }

    #[test]
    fn spmm_matches_dense() {
        let a = random_csr(12, 9, 0.3, 21);
        let x = random_dense(9 * 5, 1);
        let y = spmm(&a, &x, 5).unwrap();
        assert_close(&y, &matmul(&a.to_dense().unwrap(), &x, 12, 9, 5));
        assert!(spmm(&a, &x[1..], 5).is_err());
        assert_eq!(spmm(&a, &[], 0).unwrap(), Vec::<f64>::new());
    }

    #[test]
    fn sddmm_matches_definition() {
        let a = sample();
        let feat = 3;
        let x = random_dense(4 * feat, 2);
        let y = random_dense(5 * feat, 3);
        let out = sddmm(&a, &x, &y, feat).unwrap();
        let rows = a.row_of_each_entry();
        for p in 0..a.nnz() {
            let (i, j) = (rows[p] as usize, a.indices()[p] as usize);
            let dot: f64 = (0..feat).map(|k| x[i * feat + k] as f64 * y[j * feat + k] as f64).sum();
            assert!((out[p] - a.values()[p] as f64 * dot).abs() < 1e-12);
        }
        // The explicit zero of sample gives 0.
        assert_eq!(out[3], 0.0);
        assert!(sddmm(&a, &y, &x, feat).is_err());
    }

    #[test]
    fn bsr_spmm_matches_csr_spmm() {
        let a = random_csr(13, 11, 0.2, 22);
        let x = random_dense(11 * 4, 4);
        let expected = spmm(&a, &x, 4).unwrap();
        for b in [1, 2, 3, 5, 16] {
            let bsr = Bsr::from_csr(&a, b).unwrap();
            assert_close(&bsr_spmm(&bsr, &x, 4).unwrap(), &expected);
        }
    }

    #[test]
    fn rgms_matches_per_edge_formula() {
        let (rows, cols, fi, fo) = (6, 7, 3, 2);
        let rels =
            vec![random_csr(rows, cols, 0.3, 30), random_csr(rows, cols, 0.3, 31), Csr::empty(rows, cols).unwrap()];
        let w = random_dense(rels.len() * fo * fi, 5);
        let x = random_dense(cols * fi, 6);
        let y = rgms(&rels, &w, &x, fi, fo).unwrap();
        let mut expected = vec![0.0f64; rows * fo];
        for (r, a) in rels.iter().enumerate() {
            let dense = a.to_dense().unwrap();
            for i in 0..rows {
                for j in 0..cols {
                    for o in 0..fo {
                        let t: f64 = (0..fi).map(|k| w[(r * fo + o) * fi + k] as f64 * x[j * fi + k] as f64).sum();
                        expected[i * fo + o] += dense[i * cols + j] as f64 * t;
                    }
                }
            }
        }
        assert_close(&y, &expected);
        assert!(rgms(&rels, &w[1..], &x, fi, fo).is_err());
    }

    #[test]
    fn ttm_matches_dense_tensor() {
        let dims = [4, 5, 6];
        let t = Csf::from_coo(dims, &random_entries(dims, 40, 9)).unwrap();
        let l = 3;
        let b = random_dense(6 * l, 7);
        let y = csf_ttm(&t, &b, l).unwrap();
        let dense = t.to_dense().unwrap();
        for (f, (i, j)) in t.fiber_coords().into_iter().enumerate() {
            for c in 0..l {
                let e: f64 = (0..6).map(|k| dense[(i * 5 + j) * 6 + k] as f64 * b[k * l + c] as f64).sum();
                assert!((y[f * l + c] - e).abs() < 1e-12);
            }
        }
        assert!(csf_ttm(&t, &b, 4).is_err());
    }

    #[test]
    fn relative_error_cases() {
        let r = [3.0, 4.0];
        assert_eq!(relative_error(&[3.0, 4.0], &r), 0.0);
        assert!((relative_error(&[3.0, 4.5], &r) - 0.1).abs() < 1e-12);
        assert_eq!(relative_error(&[0.0, 0.0], &[0.0, 0.0]), 0.0);
        assert_eq!(relative_error(&[3.0, 4.0], &[0.0, 0.0]), 5.0);
        assert_eq!(relative_error(&[1.0], &r), f64::INFINITY);
        assert_eq!(relative_error(&[f32::NAN, 4.0], &r), f64::INFINITY);
        assert_eq!(relative_error(&[], &[]), 0.0);
        // An f32 rounding of the reference is well inside a typical tolerance.
        let a = random_csr(50, 40, 0.1, 40);
        let x = random_dense(40 * 8, 41);
        let y = spmm(&a, &x, 8).unwrap();
        assert!(relative_error(&to_f32(&y), &y) < 1e-6);
    }

    #[test]
    fn errors_scale_with_the_magnitudes_of_the_terms() {
        // One dot product whose terms cancel to about 1e-4 of their size:
        // the float32 sum is off by more than 1e-5 of the result, yet by
        // far less than 1e-5 of the terms.
        let a = Csr::new(1, 1, vec![0, 1], vec![0], vec![1.0]).unwrap();
        let (x, y) = ([1.0f32, 1.0, 1.0], [0.3f32, 0.4, -0.7001]);
        let terms = sddmm_terms(&a, &x, &y, 3).unwrap();
        assert!((terms.magnitudes[0] - 1.4001).abs() < 1e-6);
        let float32 = [(x[0] * y[0] + x[1] * y[1]) + x[2] * y[2]];
        assert!(relative_error(&float32, &terms.values) > 1e-5);
        let scaled = ErrorSums::scaled(&float32, &terms.values, &terms.magnitudes).relative_error();
        assert!(scaled < 1e-6, "{scaled}");
        // A term left out still counts in full.
        let missing = [x[0] * y[0] + x[1] * y[1]];
        assert!(ErrorSums::scaled(&missing, &terms.values, &terms.magnitudes).relative_error() > 0.4);

        // SpMM's magnitudes are |A| |X|.
        let a = random_csr(30, 20, 0.2, 7);
        let x = random_dense(20 * 4, 8);
        let terms = spmm_terms(&a, &x, 4).unwrap();
        let abs = |v: &[f32]| v.iter().map(|e| e.abs()).collect::<Vec<f32>>();
        let a_abs = a.clone().with_values(abs(a.values())).unwrap();
        assert_close(&terms.magnitudes, &spmm(&a_abs, &abs(&x), 4).unwrap());
        assert_close(&terms.values, &spmm(&a, &x, 4).unwrap());
    }
}
