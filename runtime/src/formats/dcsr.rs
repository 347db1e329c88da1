//! Doubly compressed sparse row: CSR over the non-empty rows only.

use super::check::{check_len, check_ptr, check_run, check_segments, fits_i32, Level};
use super::{Coo, Csr, FormatError};

const ROW_LEVEL: Level = Level { ptr: "row_ids", outer: "matrix", inner: "row" };

const LEVEL: Level = Level { ptr: "indptr", outer: "stored row", inner: "column" };

/// A `rows x cols` matrix that stores only its non-empty rows.
///
/// `row_ids` lists the non-empty rows, strictly increasing; `indptr` has
/// `row_ids.len() + 1` entries and strictly increases (every stored row has an entry);
/// `indices`/`values` are as in [`Csr`]. Errors name the stored-row position `i`; its
/// matrix row is `row_ids[i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Dcsr {
    rows: usize,
    cols: usize,
    row_ids: Vec<i32>,
    indptr: Vec<i32>,
    indices: Vec<i32>,
    values: Vec<f32>,
}

impl Dcsr {
    pub fn new(
        rows: usize,
        cols: usize,
        row_ids: Vec<i32>,
        indptr: Vec<i32>,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let dcsr = Dcsr { rows, cols, row_ids, indptr, indices, values };
        dcsr.validate()?;
        Ok(dcsr)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        check_run(ROW_LEVEL, 0, 0, &self.row_ids, self.rows, true)?;
        check_len("indices", self.values.len(), self.indices.len())?;
        check_ptr(LEVEL, &self.indptr, self.row_ids.len(), self.values.len(), true)?;
        check_segments(LEVEL, &self.indptr, &self.indices, self.cols, true)
    }

    pub fn from_csr(csr: &Csr) -> Dcsr {
        let mut row_ids = Vec::new();
        let mut indptr = vec![0i32];
        for (r, w) in csr.indptr().windows(2).enumerate() {
            if w[1] > w[0] {
                row_ids.push(r as i32);
                indptr.push(w[1]);
            }
        }
        Dcsr {
            rows: csr.rows(),
            cols: csr.cols(),
            row_ids,
            indptr,
            indices: csr.indices().to_vec(),
            values: csr.values().to_vec(),
        }
    }

    pub fn to_csr(&self) -> Csr {
        let mut indptr = vec![0i32; self.rows + 1];
        for (i, &r) in self.row_ids.iter().enumerate() {
            indptr[r as usize + 1] = self.indptr[i + 1] - self.indptr[i];
        }
        for r in 0..self.rows {
            indptr[r + 1] += indptr[r];
        }
        Csr::from_trusted(self.rows, self.cols, indptr, self.indices.clone(), self.values.clone())
    }

    pub fn to_coo(&self) -> Coo {
        self.to_csr().to_coo()
    }

    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        self.to_csr().to_dense()
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
    /// The non-empty rows, increasing.
    pub fn row_ids(&self) -> &[i32] {
        &self.row_ids
    }
    /// Pointers over the stored rows, `row_ids.len() + 1` entries.
    pub fn indptr(&self) -> &[i32] {
        &self.indptr
    }
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
        let d = Dcsr::from_csr(&sample());
        d.validate().unwrap();
        assert_eq!(d.row_ids(), &[0, 2, 3]);
        assert_eq!(d.indptr(), &[0, 2, 5, 10]);
    }

    #[test]
    fn round_trips() {
        // Low density so that many rows are empty.
        let a = random_csr(30, 8, 0.05, 11);
        let d = Dcsr::from_csr(&a);
        d.validate().unwrap();
        assert!(d.row_ids().len() < 30);
        assert_eq!(d.to_csr(), a);
        assert_eq!(d.to_dense().unwrap(), a.to_dense().unwrap());
        assert_eq!(d.to_coo().to_csr(), a);
    }

    #[test]
    fn rejects_bad_input() {
        // Empty stored row.
        assert!(matches!(
            Dcsr::new(3, 3, vec![0, 2], vec![0, 1, 1], vec![0], vec![1.0]),
            Err(FormatError::EmptySegment { index: 1, .. })
        ));
        // Row ids unsorted / out of range.
        assert!(Dcsr::new(3, 3, vec![2, 0], vec![0, 1, 2], vec![0, 0], vec![1.0; 2]).is_err());
        let err = Dcsr::new(3, 3, vec![3], vec![0, 1], vec![0], vec![1.0]).unwrap_err();
        assert_eq!(err.to_string(), "matrix 0: row index 3 at position 0 is out of range 0..3");
        // Column out of range.
        assert!(Dcsr::new(3, 3, vec![1], vec![0, 1], vec![3], vec![1.0]).is_err());
    }
}
