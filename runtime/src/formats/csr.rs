//! Compressed sparse row: the canonical form every other format is built from.

use super::check::{check_len, check_ptr, check_segments, dense_len, fits_i32, Level};
use super::{Coo, FormatError};

const LEVEL: Level = Level { ptr: "indptr", outer: "row", inner: "column" };

/// A `rows x cols` matrix in CSR form.
///
/// Invariants (checked by [`Csr::new`]): `indptr.len() == rows + 1`, `indptr[0] == 0`,
/// `indptr` non-decreasing and ending at `nnz`; `indices.len() == values.len() == nnz`;
/// the column indices of each row are in `0..cols` and strictly increasing (sorted, no
/// duplicates); `rows`, `cols` and `nnz` fit in i32. Explicit zero values are allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct Csr {
    rows: usize,
    cols: usize,
    indptr: Vec<i32>,
    indices: Vec<i32>,
    values: Vec<f32>,
}

impl Csr {
    pub fn new(
        rows: usize,
        cols: usize,
        indptr: Vec<i32>,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let csr = Csr { rows, cols, indptr, indices, values };
        csr.validate()?;
        Ok(csr)
    }

    /// For conversions inside the crate whose output is valid by construction; the unit
    /// tests re-validate every such output.
    pub(crate) fn from_trusted(
        rows: usize,
        cols: usize,
        indptr: Vec<i32>,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Self {
        Csr { rows, cols, indptr, indices, values }
    }

    /// Re-checks every invariant [`Csr::new`] establishes.
    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        check_len("indices", self.values.len(), self.indices.len())?;
        check_ptr(LEVEL, &self.indptr, self.rows, self.values.len(), false)?;
        check_segments(LEVEL, &self.indptr, &self.indices, self.cols, true)
    }

    /// A matrix with no stored entries.
    pub fn empty(rows: usize, cols: usize) -> Result<Self, FormatError> {
        // Check before allocating rows + 1 pointers.
        fits_i32("rows", rows)?;
        Csr::new(rows, cols, vec![0; rows + 1], vec![], vec![])
    }

    /// Stores every non-zero of a row-major dense array.
    pub fn from_dense(rows: usize, cols: usize, dense: &[f32]) -> Result<Self, FormatError> {
        fits_i32("rows", rows)?;
        fits_i32("cols", cols)?;
        check_len("dense", dense_len(&[rows, cols])?, dense.len())?;
        let mut indptr = Vec::with_capacity(rows + 1);
        let mut indices = Vec::new();
        let mut values = Vec::new();
        indptr.push(0);
        for r in 0..rows {
            for c in 0..cols {
                let v = dense[r * cols + c];
                if v != 0.0 {
                    indices.push(c as i32);
                    values.push(v);
                }
            }
            fits_i32("number of stored entries", values.len())?;
            indptr.push(values.len() as i32);
        }
        Ok(Csr::from_trusted(rows, cols, indptr, indices, values))
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
    pub fn indptr(&self) -> &[i32] {
        &self.indptr
    }
    pub fn indices(&self) -> &[i32] {
        &self.indices
    }
    pub fn values(&self) -> &[f32] {
        &self.values
    }
    /// Values can change freely without breaking any invariant.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// Column indices and values of row `r`, or `None` when `r >= rows`.
    pub fn row(&self, r: usize) -> Option<(&[i32], &[f32])> {
        let range = self.row_range(r)?;
        Some((&self.indices[range.clone()], &self.values[range]))
    }

    /// Positions of row `r`'s entries in `indices`/`values`.
    pub fn row_range(&self, r: usize) -> Option<std::ops::Range<usize>> {
        if r >= self.rows {
            return None;
        }
        Some(self.indptr[r] as usize..self.indptr[r + 1] as usize)
    }

    /// Number of entries in row `r` (0 when out of range).
    pub fn row_nnz(&self, r: usize) -> usize {
        self.row_range(r).map_or(0, |range| range.len())
    }

    /// Longest row, 0 for a matrix with no rows.
    pub fn max_row_nnz(&self) -> usize {
        self.indptr.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// Same structure, new values.
    pub fn with_values(mut self, values: Vec<f32>) -> Result<Self, FormatError> {
        check_len("values", self.values.len(), values.len())?;
        self.values = values;
        Ok(self)
    }

    /// `(rows, cols, indptr, indices, values)`.
    pub fn into_parts(self) -> (usize, usize, Vec<i32>, Vec<i32>, Vec<f32>) {
        (self.rows, self.cols, self.indptr, self.indices, self.values)
    }

    /// Row index of every stored entry (the COO row array).
    pub fn row_of_each_entry(&self) -> Vec<i32> {
        let mut rows = Vec::with_capacity(self.nnz());
        for (r, w) in self.indptr.windows(2).enumerate() {
            rows.extend(std::iter::repeat_n(r as i32, (w[1] - w[0]) as usize));
        }
        rows
    }

    pub fn to_coo(&self) -> Coo {
        Coo::from_trusted(self.rows, self.cols, self.row_of_each_entry(), self.indices.clone(), self.values.clone())
    }

    /// Row-major dense copy.
    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        let mut dense = vec![0.0f32; dense_len(&[self.rows, self.cols])?];
        for r in 0..self.rows {
            let (cols, vals) = self.row(r).unwrap_or((&[], &[]));
            for (&c, &v) in cols.iter().zip(vals) {
                dense[r * self.cols + c as usize] = v;
            }
        }
        Ok(dense)
    }

    /// The `cols x rows` transpose, also canonical.
    /// Rows `range` as a matrix of their own (same columns), or `None` when
    /// the range is not within the rows.
    pub fn row_slice(&self, range: std::ops::Range<usize>) -> Option<Csr> {
        if range.start > range.end || range.end > self.rows {
            return None;
        }
        let (start, end) = (self.indptr[range.start] as usize, self.indptr[range.end] as usize);
        let indptr = self.indptr[range.clone()]
            .iter()
            .chain(std::iter::once(&self.indptr[range.end]))
            .map(|&p| p - start as i32)
            .collect();
        Some(Csr {
            rows: range.len(),
            cols: self.cols,
            indptr,
            indices: self.indices[start..end].to_vec(),
            values: self.values[start..end].to_vec(),
        })
    }

    pub fn transpose(&self) -> Csr {
        let (indptr, indices, values) =
            transpose_arrays(self.rows, self.cols, &self.indptr, &self.indices, &self.values);
        Csr::from_trusted(self.cols, self.rows, indptr, indices, values)
    }
}

/// Transposes valid compressed arrays with a counting sort. Walking the outer dimension in
/// order leaves each output segment sorted, so the result is canonical.
pub(crate) fn transpose_arrays(
    outer_len: usize,
    inner_len: usize,
    indptr: &[i32],
    indices: &[i32],
    values: &[f32],
) -> (Vec<i32>, Vec<i32>, Vec<f32>) {
    let mut ptr_t = vec![0i32; inner_len + 1];
    for &i in indices {
        ptr_t[i as usize + 1] += 1;
    }
    for i in 0..inner_len {
        ptr_t[i + 1] += ptr_t[i];
    }
    let mut next: Vec<usize> = ptr_t.iter().map(|&p| p as usize).collect();
    let mut indices_t = vec![0i32; indices.len()];
    let mut values_t = vec![0.0f32; values.len()];
    for o in 0..outer_len {
        for p in indptr[o] as usize..indptr[o + 1] as usize {
            let slot = &mut next[indices[p] as usize];
            indices_t[*slot] = o as i32;
            values_t[*slot] = values[p];
            *slot += 1;
        }
    }
    (ptr_t, indices_t, values_t)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn row_slices_keep_their_rows() {
        let a = Csr::from_dense(3, 3, &[1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0, 4.0, 0.0]).unwrap();
        let middle = a.row_slice(1..3).unwrap();
        middle.validate().unwrap();
        assert_eq!(middle.to_dense().unwrap(), vec![0.0, 0.0, 0.0, 3.0, 4.0, 0.0]);
        assert_eq!(a.row_slice(0..0).unwrap().rows(), 0);
        assert!(a.row_slice(2..4).is_none());
    }
    use crate::random::SplitMix64;

    /// A small matrix with an empty row, an explicit zero and a full row.
    pub(crate) fn sample() -> Csr {
        Csr::new(
            4,
            5,
            vec![0, 2, 2, 5, 10],
            vec![0, 3, 1, 2, 4, 0, 1, 2, 3, 4],
            vec![1.0, 2.0, 3.0, 0.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        )
        .unwrap()
    }

    /// Random canonical matrix with roughly `density` of the entries set (values in 1..2).
    pub(crate) fn random_csr(rows: usize, cols: usize, density: f64, seed: u64) -> Csr {
        let mut rng = SplitMix64::new(seed);
        let mut dense = vec![0.0f32; rows * cols];
        for v in dense.iter_mut() {
            if rng.next_f64() < density {
                *v = 1.0 + rng.next_f64() as f32;
            }
        }
        Csr::from_dense(rows, cols, &dense).unwrap()
    }

    #[test]
    fn accessors() {
        let a = sample();
        assert_eq!((a.rows(), a.cols(), a.nnz()), (4, 5, 10));
        assert_eq!(a.row(0).unwrap(), (&[0, 3][..], &[1.0, 2.0][..]));
        assert_eq!(a.row_nnz(1), 0);
        assert_eq!(a.max_row_nnz(), 5);
        assert!(a.row(4).is_none());
        assert_eq!(a.row_of_each_entry(), vec![0, 0, 2, 2, 2, 3, 3, 3, 3, 3]);
    }

    #[test]
    fn dense_round_trip() {
        let a = sample();
        let dense = a.to_dense().unwrap();
        assert_eq!(dense[4], 0.0);
        assert_eq!(dense[3], 2.0);
        let b = Csr::from_dense(4, 5, &dense).unwrap();
        // The explicit zero is dropped by from_dense; everything else is kept.
        assert_eq!(b.nnz(), 9);
        assert_eq!(b.to_dense().unwrap(), dense);
    }

    #[test]
    fn coo_round_trip() {
        let a = random_csr(13, 7, 0.3, 1);
        assert_eq!(a.to_coo().to_csr(), a);
    }

    #[test]
    fn transpose_twice_is_identity() {
        let a = random_csr(9, 14, 0.25, 2);
        let t = a.transpose();
        t.validate().unwrap();
        assert_eq!((t.rows(), t.cols()), (14, 9));
        let dense = a.to_dense().unwrap();
        let dense_t = t.to_dense().unwrap();
        for r in 0..9 {
            for c in 0..14 {
                assert_eq!(dense[r * 14 + c], dense_t[c * 9 + r]);
            }
        }
        assert_eq!(t.transpose(), a);
    }

    #[test]
    fn rejects_bad_input() {
        let e = |r| Csr::new(2, 3, r, vec![0, 2, 1], vec![1.0; 3]).unwrap_err();
        assert!(matches!(e(vec![0, 2]), FormatError::LengthMismatch { what: "indptr", .. }));
        assert!(matches!(e(vec![1, 2, 3]), FormatError::PtrStart { .. }));
        assert!(matches!(e(vec![0, 3, 2]), FormatError::PtrNotMonotone { .. }));
        assert!(matches!(e(vec![0, 2, 2]), FormatError::PtrEnd { .. }));
        // Unsorted row 0.
        let err = Csr::new(2, 3, vec![0, 2, 3], vec![2, 0, 1], vec![1.0; 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 0: column index 0 at position 1 is not greater than the previous index 2 (indices must be sorted and duplicate-free)"
        );
        // Duplicate in row 1.
        assert!(matches!(
            Csr::new(2, 3, vec![0, 1, 3], vec![2, 1, 1], vec![1.0; 3]),
            Err(FormatError::Unsorted { index: 1, pos: 2, .. })
        ));
        // Column out of range in row 1.
        assert!(matches!(
            Csr::new(2, 3, vec![0, 1, 2], vec![2, 3], vec![1.0; 2]),
            Err(FormatError::IndexOutOfRange { index: 1, value: 3, bound: 3, .. })
        ));
        // values / indices disagree.
        assert!(matches!(
            Csr::new(2, 3, vec![0, 1, 2], vec![0, 1], vec![1.0]),
            Err(FormatError::LengthMismatch { what: "indices", .. })
        ));
        assert!(Csr::from_dense(2, 2, &[1.0; 3]).is_err());
        assert!(sample().with_values(vec![1.0]).is_err());
    }

    #[test]
    fn empty_shapes() {
        let a = Csr::empty(3, 0).unwrap();
        assert_eq!(a.indptr(), &[0, 0, 0, 0]);
        assert_eq!(a.max_row_nnz(), 0);
        assert_eq!(Csr::empty(0, 0).unwrap().transpose().rows(), 0);
        assert!(Csr::empty(usize::MAX, 1).is_err());
    }
}
