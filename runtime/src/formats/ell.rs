//! ELLPACK: every row padded to the same width.

use super::check::{check_len, check_run, dense_len, fits_i32, Level};
use super::{Coo, Csr, FormatError};

/// Column index of a padding slot in [`Ell`] and [`super::Hyb`] buckets.
///
/// Padding convention: each row's real entries come first with strictly increasing
/// columns; the remaining slots hold column `ELL_PAD_COL` (0) and value `0.0`.
/// Column 0 rather than -1 is used so that a kernel can read `X[col]` for every slot
/// without a bounds branch (the read is in range whenever the matrix has a column, and
/// it is multiplied by 0). A trailing slot equal to `(0, 0.0)` is therefore padding;
/// the only stored entry that looks like padding is an explicit zero at column 0 that
/// is alone in its row, which conversions back to COO/CSR drop (numerically harmless).
pub const ELL_PAD_COL: i32 = 0;

const LEVEL: Level = Level { ptr: "rows", outer: "row", inner: "column" };

/// A `rows x cols` matrix with exactly `width` slots per row: `indices` and `values` are
/// row-major `rows x width` arrays. See [`ELL_PAD_COL`] for the padding convention.
#[derive(Debug, Clone, PartialEq)]
pub struct Ell {
    rows: usize,
    cols: usize,
    width: usize,
    indices: Vec<i32>,
    values: Vec<f32>,
}

/// Number of real entries in one padded row: everything up to the last slot that is not
/// `(ELL_PAD_COL, 0.0)`.
pub(crate) fn real_len(indices: &[i32], values: &[f32]) -> usize {
    indices.iter().zip(values).rposition(|(&c, &v)| !(c == ELL_PAD_COL && v == 0.0)).map_or(0, |p| p + 1)
}

/// 1 at real slots and 0 at padding slots of row-major padded rows of `width` slots.
pub(crate) fn padding_mask(indices: &[i32], values: &[f32], width: usize) -> Vec<i32> {
    let mut mask = Vec::with_capacity(indices.len());
    if width == 0 {
        return mask;
    }
    for (cs, vs) in indices.chunks(width).zip(values.chunks(width)) {
        let n = real_len(cs, vs);
        mask.extend((0..width).map(|k| i32::from(k < n)));
    }
    mask
}

/// Writes `cols`/`vals` into a `width`-slot row followed by padding.
pub(crate) fn push_padded_row(indices: &mut Vec<i32>, values: &mut Vec<f32>, cols: &[i32], vals: &[f32], width: usize) {
    indices.extend_from_slice(cols);
    values.extend_from_slice(vals);
    let pad = width.saturating_sub(cols.len());
    indices.extend(std::iter::repeat_n(ELL_PAD_COL, pad));
    values.extend(std::iter::repeat_n(0.0f32, pad));
}

impl Ell {
    pub fn new(
        rows: usize,
        cols: usize,
        width: usize,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let ell = Ell { rows, cols, width, indices, values };
        ell.validate()?;
        Ok(ell)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        let slots = dense_len(&[self.rows, self.width])?;
        fits_i32("rows * width", slots)?;
        check_len("indices", slots, self.indices.len())?;
        check_len("values", slots, self.values.len())?;
        for r in 0..self.rows {
            let range = r * self.width..(r + 1) * self.width;
            let (cs, vs) = (&self.indices[range.clone()], &self.values[range.clone()]);
            let n = real_len(cs, vs);
            check_run(LEVEL, r, range.start, &cs[..n], self.cols, true)?;
        }
        Ok(())
    }

    /// Pads every row of `csr` to `width` slots; `None` uses the longest row's length.
    pub fn from_csr(csr: &Csr, width: Option<usize>) -> Result<Ell, FormatError> {
        let width = width.unwrap_or_else(|| csr.max_row_nnz());
        let slots = dense_len(&[csr.rows(), width])?;
        fits_i32("rows * width", slots)?;
        let mut indices = Vec::with_capacity(slots);
        let mut values = Vec::with_capacity(slots);
        for r in 0..csr.rows() {
            let (cs, vs) = csr.row(r).unwrap_or((&[], &[]));
            if cs.len() > width {
                return Err(FormatError::RowTooLong { row: r, nnz: cs.len(), width });
            }
            push_padded_row(&mut indices, &mut values, cs, vs, width);
        }
        Ok(Ell { rows: csr.rows(), cols: csr.cols(), width, indices, values })
    }

    /// The real entries (padding dropped).
    pub fn to_coo(&self) -> Coo {
        let (mut ri, mut ci, mut vs) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..self.rows {
            let range = r * self.width..(r + 1) * self.width;
            let n = self.row_len(r);
            ri.extend(std::iter::repeat_n(r as i32, n));
            ci.extend_from_slice(&self.indices[range.start..range.start + n]);
            vs.extend_from_slice(&self.values[range.start..range.start + n]);
        }
        Coo::from_trusted(self.rows, self.cols, ri, ci, vs)
    }

    pub fn to_csr(&self) -> Csr {
        self.to_coo().to_csr()
    }

    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        self.to_coo().to_dense()
    }

    /// Number of real (non-padding) entries in row `r`; 0 when out of range.
    pub fn row_len(&self, r: usize) -> usize {
        if r >= self.rows {
            return 0;
        }
        let range = r * self.width..(r + 1) * self.width;
        real_len(&self.indices[range.clone()], &self.values[range])
    }

    /// Row-major `rows x width` mask: 1 at a real entry, 0 at padding (the form the
    /// generated hyb/ELL kernels take).
    pub fn mask(&self) -> Vec<i32> {
        padding_mask(&self.indices, &self.values, self.width)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    pub fn width(&self) -> usize {
        self.width
    }
    /// Row-major `rows x width` column indices, padding included.
    pub fn indices(&self) -> &[i32] {
        &self.indices
    }
    /// Row-major `rows x width` values, padding included.
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
        let e = Ell::from_csr(&sample(), None).unwrap();
        e.validate().unwrap();
        assert_eq!(e.width(), 5);
        assert_eq!(&e.indices()[..10], &[0, 3, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&e.values()[..5], &[1.0, 2.0, 0.0, 0.0, 0.0]);
        assert_eq!((e.row_len(0), e.row_len(1), e.row_len(2), e.row_len(3)), (2, 0, 3, 5));
        assert_eq!(e.row_len(9), 0);
        assert_eq!(&e.mask()[..10], &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&e.mask()[10..], &[1, 1, 1, 0, 0, 1, 1, 1, 1, 1]);
        assert!(Ell::from_csr(&Csr::empty(2, 2).unwrap(), None).unwrap().mask().is_empty());
    }

    #[test]
    fn round_trips() {
        let a = random_csr(15, 9, 0.3, 5);
        for width in [None, Some(a.max_row_nnz() + 3)] {
            let e = Ell::from_csr(&a, width).unwrap();
            e.validate().unwrap();
            assert_eq!(e.to_csr(), a);
            assert_eq!(e.to_dense().unwrap(), a.to_dense().unwrap());
        }
        // The explicit zero at (2, 2) of sample survives because its column is not 0.
        let s = sample();
        assert_eq!(Ell::from_csr(&s, None).unwrap().to_csr(), s);
    }

    #[test]
    fn explicit_zero_at_column_zero() {
        // Leading (0, 0.0) followed by a real entry stays a real entry...
        let a = Csr::new(2, 3, vec![0, 2, 3], vec![0, 2, 0], vec![0.0, 1.0, 0.0]).unwrap();
        let e = Ell::from_csr(&a, None).unwrap();
        assert_eq!(e.row_len(0), 2);
        // ...but a lone one is indistinguishable from padding and is dropped.
        assert_eq!(e.row_len(1), 0);
        assert_eq!(e.to_dense().unwrap(), a.to_dense().unwrap());
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(Ell::from_csr(&sample(), Some(4)), Err(FormatError::RowTooLong { row: 3, nnz: 5, width: 4 })));
        // Unsorted real entries.
        let err = Ell::new(1, 4, 3, vec![2, 1, 0], vec![1.0, 1.0, 0.0]).unwrap_err();
        assert!(matches!(err, FormatError::Unsorted { index: 0, pos: 1, .. }), "{err}");
        // Padding in the middle of real entries counts as a real column-0 entry out of order.
        assert!(Ell::new(1, 4, 3, vec![1, 0, 2], vec![1.0, 0.0, 1.0]).is_err());
        // Column out of range, wrong lengths.
        assert!(Ell::new(1, 2, 2, vec![0, 2], vec![1.0, 1.0]).is_err());
        assert!(Ell::new(2, 2, 2, vec![0, 1], vec![1.0, 1.0]).is_err());
        assert!(Ell::new(1, 2, 2, vec![0, 1], vec![1.0]).is_err());
    }
}
