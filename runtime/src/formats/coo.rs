//! Coordinate (triplet) format: the common exchange form every other format converts to.

use super::check::{check_len, dense_len, fits_i32};
use super::{Csr, FormatError};

/// A `rows x cols` matrix as parallel (row, column, value) arrays.
///
/// Entries may be in any order and may repeat; repeated coordinates add up, both in
/// [`Coo::to_csr`] and in [`Coo::to_dense`].
#[derive(Debug, Clone, PartialEq)]
pub struct Coo {
    rows: usize,
    cols: usize,
    row_indices: Vec<i32>,
    col_indices: Vec<i32>,
    values: Vec<f32>,
}

impl Coo {
    /// Validates lengths and index ranges.
    pub fn new(
        rows: usize,
        cols: usize,
        row_indices: Vec<i32>,
        col_indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let coo = Coo { rows, cols, row_indices, col_indices, values };
        coo.validate()?;
        Ok(coo)
    }

    /// For conversions inside the crate whose output is valid by construction.
    pub(crate) fn from_trusted(
        rows: usize,
        cols: usize,
        row_indices: Vec<i32>,
        col_indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Self {
        Coo { rows, cols, row_indices, col_indices, values }
    }

    /// Re-checks every invariant [`Coo::new`] establishes.
    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        let nnz = self.values.len();
        fits_i32("number of entries", nnz)?;
        check_len("row_indices", nnz, self.row_indices.len())?;
        check_len("col_indices", nnz, self.col_indices.len())?;
        for (pos, (&r, &c)) in self.row_indices.iter().zip(&self.col_indices).enumerate() {
            if r < 0 || r as usize >= self.rows {
                return Err(FormatError::IndexOutOfRange {
                    outer: "entry",
                    index: pos,
                    inner: "row",
                    pos,
                    value: r.into(),
                    bound: self.rows,
                });
            }
            if c < 0 || c as usize >= self.cols {
                return Err(FormatError::IndexOutOfRange {
                    outer: "entry",
                    index: pos,
                    inner: "column",
                    pos,
                    value: c.into(),
                    bound: self.cols,
                });
            }
        }
        Ok(())
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
    pub fn row_indices(&self) -> &[i32] {
        &self.row_indices
    }
    pub fn col_indices(&self) -> &[i32] {
        &self.col_indices
    }
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// `(rows, cols, row_indices, col_indices, values)`.
    pub fn into_parts(self) -> (usize, usize, Vec<i32>, Vec<i32>, Vec<f32>) {
        (self.rows, self.cols, self.row_indices, self.col_indices, self.values)
    }

    /// Sorted, duplicate-free CSR; duplicates are summed in input order, so the result
    /// is deterministic.
    pub fn to_csr(&self) -> Csr {
        let (indptr, indices, values) =
            coo_to_compressed(self.rows, &self.row_indices, &self.col_indices, &self.values);
        Csr::from_trusted(self.rows, self.cols, indptr, indices, values)
    }

    /// Row-major dense copy; duplicates are summed.
    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        let mut dense = vec![0.0f32; dense_len(&[self.rows, self.cols])?];
        for ((&r, &c), &v) in self.row_indices.iter().zip(&self.col_indices).zip(&self.values) {
            dense[r as usize * self.cols + c as usize] += v;
        }
        Ok(dense)
    }
}

/// Builds canonical compressed arrays (sorted, duplicates summed) from validated triplets
/// with `outer` in `0..outer_len`. Bucketing by outer index first keeps this O(nnz log d)
/// instead of sorting all triplets globally.
pub(crate) fn coo_to_compressed(
    outer_len: usize,
    outer: &[i32],
    inner: &[i32],
    values: &[f32],
) -> (Vec<i32>, Vec<i32>, Vec<f32>) {
    let mut counts = vec![0usize; outer_len + 1];
    for &o in outer {
        counts[o as usize + 1] += 1;
    }
    for i in 0..outer_len {
        counts[i + 1] += counts[i];
    }
    let mut next = counts.clone();
    let mut bucketed: Vec<(i32, f32)> = vec![(0, 0.0); values.len()];
    for ((&o, &i), &v) in outer.iter().zip(inner).zip(values) {
        let slot = &mut next[o as usize];
        bucketed[*slot] = (i, v);
        *slot += 1;
    }

    let mut indptr = Vec::with_capacity(outer_len + 1);
    let mut indices = Vec::with_capacity(values.len());
    let mut out_values = Vec::with_capacity(values.len());
    indptr.push(0i32);
    for o in 0..outer_len {
        let segment = &mut bucketed[counts[o]..counts[o + 1]];
        // Stable, so duplicates are summed in input order.
        segment.sort_by_key(|&(i, _)| i);
        let row_start = indices.len();
        for &(i, v) in segment.iter() {
            if indices.len() > row_start && indices.last() == Some(&i) {
                if let Some(last) = out_values.last_mut() {
                    *last += v;
                }
            } else {
                indices.push(i);
                out_values.push(v);
            }
        }
        // nnz fits in i32 because the input was validated.
        indptr.push(indices.len() as i32);
    }
    (indptr, indices, out_values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_csr_sorts_and_sums_duplicates() {
        let coo = Coo::new(3, 4, vec![2, 0, 2, 0, 2], vec![1, 3, 1, 0, 0], vec![1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        let csr = coo.to_csr();
        csr.validate().unwrap();
        assert_eq!(csr.indptr(), &[0, 2, 2, 4]);
        assert_eq!(csr.indices(), &[0, 3, 0, 1]);
        assert_eq!(csr.values(), &[4.0, 2.0, 5.0, 4.0]);
        assert_eq!(coo.to_dense().unwrap(), csr.to_dense().unwrap());
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(
            Coo::new(2, 2, vec![0], vec![0, 1], vec![1.0]),
            Err(FormatError::LengthMismatch { what: "col_indices", .. })
        ));
        let err = Coo::new(2, 2, vec![0, 2], vec![0, 1], vec![1.0, 1.0]).unwrap_err();
        assert_eq!(err.to_string(), "entry 1: row index 2 at position 1 is out of range 0..2");
        assert!(Coo::new(2, 2, vec![0], vec![-1], vec![1.0]).is_err());
        assert!(Coo::new(i32::MAX as usize + 1, 2, vec![], vec![], vec![]).is_err());
    }

    #[test]
    fn empty_matrix() {
        let coo = Coo::new(0, 0, vec![], vec![], vec![]).unwrap();
        let csr = coo.to_csr();
        assert_eq!(csr.indptr(), &[0]);
        assert_eq!(coo.to_dense().unwrap(), Vec::<f32>::new());
    }
}
