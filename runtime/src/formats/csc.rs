//! Compressed sparse column.

use super::check::{check_len, check_ptr, check_segments, fits_i32, Level};
use super::csr::transpose_arrays;
use super::{Coo, Csr, FormatError};

const LEVEL: Level = Level { ptr: "indptr", outer: "column", inner: "row" };

/// A `rows x cols` matrix in CSC form: `indptr` has `cols + 1` entries and `indices` holds
/// row indices, strictly increasing within each column. Same invariants as [`Csr`] with
/// the roles of rows and columns swapped.
#[derive(Debug, Clone, PartialEq)]
pub struct Csc {
    rows: usize,
    cols: usize,
    indptr: Vec<i32>,
    indices: Vec<i32>,
    values: Vec<f32>,
}

impl Csc {
    pub fn new(
        rows: usize,
        cols: usize,
        indptr: Vec<i32>,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let csc = Csc { rows, cols, indptr, indices, values };
        csc.validate()?;
        Ok(csc)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        check_len("indices", self.values.len(), self.indices.len())?;
        check_ptr(LEVEL, &self.indptr, self.cols, self.values.len(), false)?;
        check_segments(LEVEL, &self.indptr, &self.indices, self.rows, true)
    }

    pub fn from_csr(csr: &Csr) -> Csc {
        let (indptr, indices, values) =
            transpose_arrays(csr.rows(), csr.cols(), csr.indptr(), csr.indices(), csr.values());
        Csc { rows: csr.rows(), cols: csr.cols(), indptr, indices, values }
    }

    pub fn to_csr(&self) -> Csr {
        let (indptr, indices, values) =
            transpose_arrays(self.cols, self.rows, &self.indptr, &self.indices, &self.values);
        Csr::from_trusted(self.rows, self.cols, indptr, indices, values)
    }

    pub fn to_coo(&self) -> Coo {
        let mut cols = Vec::with_capacity(self.nnz());
        for (c, w) in self.indptr.windows(2).enumerate() {
            cols.extend(std::iter::repeat_n(c as i32, (w[1] - w[0]) as usize));
        }
        Coo::from_trusted(self.rows, self.cols, self.indices.clone(), cols, self.values.clone())
    }

    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        self.to_coo().to_dense()
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
    /// Column pointers, `cols + 1` entries.
    pub fn indptr(&self) -> &[i32] {
        &self.indptr
    }
    /// Row index of each entry.
    pub fn indices(&self) -> &[i32] {
        &self.indices
    }
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::csr::tests::{random_csr, sample};

    #[test]
    fn from_csr_layout() {
        let c = Csc::from_csr(&sample());
        c.validate().unwrap();
        assert_eq!(c.indptr(), &[0, 2, 4, 6, 8, 10]);
        assert_eq!(c.indices(), &[0, 3, 2, 3, 2, 3, 0, 3, 2, 3]);
        assert_eq!(c.values(), &[1.0, 6.0, 3.0, 7.0, 0.0, 8.0, 2.0, 9.0, 5.0, 10.0]);
    }

    #[test]
    fn round_trips() {
        let a = random_csr(11, 6, 0.3, 3);
        let c = Csc::from_csr(&a);
        assert_eq!(c.to_csr(), a);
        assert_eq!(c.to_dense().unwrap(), a.to_dense().unwrap());
        assert_eq!(c.to_coo().to_csr(), a);
    }

    #[test]
    fn rejects_bad_input() {
        let err = Csc::new(2, 2, vec![0, 2, 3], vec![1, 0, 1], vec![1.0; 3]).unwrap_err();
        assert!(matches!(err, FormatError::Unsorted { outer: "column", index: 0, .. }));
        let err = Csc::new(2, 2, vec![0, 1, 2], vec![0, 2], vec![1.0; 2]).unwrap_err();
        assert_eq!(err.to_string(), "column 1: row index 2 at position 1 is out of range 0..2");
        assert!(Csc::new(2, 2, vec![0, 1], vec![0], vec![1.0]).is_err());
    }
}
