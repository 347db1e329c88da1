//! Block sparse row with square `b x b` blocks.

use super::check::{check_len, check_ptr, check_segments, dense_len, fits_i32, Level};
use super::{Coo, Csr, FormatError};

const LEVEL: Level = Level { ptr: "indptr", outer: "block row", inner: "block column" };

/// A `rows x cols` matrix stored as dense `b x b` blocks.
///
/// The matrix is viewed as `block_rows = ceil(rows / b)` by `block_cols = ceil(cols / b)`
/// blocks. `indptr` (`block_rows + 1` entries) and `indices` (block column of each stored
/// block, strictly increasing within a block row) form a CSR over blocks. `values` holds
/// `b * b` values per stored block, each block row-major, blocks in storage order; so
/// element `(r, c)` of block `k` is `values[k*b*b + r*b + c]`. Positions of a stored block
/// that hold no matrix entry are zero ("zero-padded"); positions beyond the matrix edge
/// (when `b` does not divide `rows` or `cols`) must be zero.
#[derive(Debug, Clone, PartialEq)]
pub struct Bsr {
    rows: usize,
    cols: usize,
    block_size: usize,
    indptr: Vec<i32>,
    indices: Vec<i32>,
    values: Vec<f32>,
}

fn check_block_size(b: usize) -> Result<usize, FormatError> {
    if b == 0 {
        return Err(FormatError::InvalidParameter { name: "block_size", value: b, reason: "must be at least 1" });
    }
    fits_i32("block_size", b)?;
    b.checked_mul(b)
        .filter(|&bb| bb <= i32::MAX as usize)
        .ok_or(FormatError::TooLarge { what: "block_size squared", value: b.saturating_mul(b) })
}

impl Bsr {
    pub fn new(
        rows: usize,
        cols: usize,
        block_size: usize,
        indptr: Vec<i32>,
        indices: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let bsr = Bsr { rows, cols, block_size, indptr, indices, values };
        bsr.validate()?;
        Ok(bsr)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        let bb = check_block_size(self.block_size)?;
        let blocks = self.indices.len();
        check_ptr(LEVEL, &self.indptr, self.block_rows(), blocks, false)?;
        check_segments(LEVEL, &self.indptr, &self.indices, self.block_cols(), true)?;
        let expected = blocks
            .checked_mul(bb)
            .ok_or(FormatError::TooLarge { what: "number of block values", value: usize::MAX })?;
        check_len("values", expected, self.values.len())?;
        self.check_padding()
    }

    /// Values that would sit outside the matrix must be zero, or converting back would
    /// silently drop them.
    fn check_padding(&self) -> Result<(), FormatError> {
        let b = self.block_size;
        if self.rows % b == 0 && self.cols % b == 0 {
            return Ok(());
        }
        for (block_row, w) in self.indptr.windows(2).enumerate() {
            for block in w[0] as usize..w[1] as usize {
                let block_col = self.indices[block] as usize;
                for r in 0..b {
                    for c in 0..b {
                        let (row, col) = (block_row * b + r, block_col * b + c);
                        let value = self.values[block * b * b + r * b + c];
                        if (row >= self.rows || col >= self.cols) && value != 0.0 {
                            return Err(FormatError::NonzeroPadding {
                                block,
                                block_row,
                                block_col,
                                row,
                                col,
                                value,
                                rows: self.rows,
                                cols: self.cols,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// How many blocks [`Bsr::from_csr`] stores for `csr`, counted before
    /// their values are built, so that what those take (`blocks * b * b`
    /// floats) can be checked before it is allocated.
    pub fn count_blocks(csr: &Csr, block_size: usize) -> Result<usize, FormatError> {
        check_block_size(block_size)?;
        Ok(block_structure(csr, block_size)?.1.len())
    }

    /// Groups the entries of `csr` into `b x b` blocks; every block touched by at least
    /// one stored entry is stored.
    pub fn from_csr(csr: &Csr, block_size: usize) -> Result<Bsr, FormatError> {
        let b = block_size;
        let bb = check_block_size(b)?;
        let (rows, cols) = (csr.rows(), csr.cols());
        let (indptr, indices) = block_structure(csr, b)?;
        // Huge blocks multiply the storage; refuse before allocating rather than abort.
        let mut values = vec![0.0f32; dense_len(&[indices.len(), b, b])?];
        // slot_of[bc] = position of block column bc in the current block row, or -1.
        let mut slot_of = vec![-1i64; cols.div_ceil(b)];
        for (br, bounds) in indptr.windows(2).enumerate() {
            let blocks = bounds[0] as usize..bounds[1] as usize;
            for (slot, &bc) in blocks.clone().zip(&indices[blocks.clone()]) {
                slot_of[bc as usize] = slot as i64;
            }
            for r in br * b..((br + 1) * b).min(rows) {
                let (cs, vs) = csr.row(r).unwrap_or((&[], &[]));
                for (&c, &v) in cs.iter().zip(vs) {
                    let c = c as usize;
                    let block = slot_of[c / b] as usize;
                    values[block * bb + (r % b) * b + c % b] = v;
                }
            }
            for &bc in &indices[blocks] {
                slot_of[bc as usize] = -1;
            }
        }
        Ok(Bsr { rows, cols, block_size: b, indptr, indices, values })
    }

    /// Every non-zero inside the stored blocks, in row-major block order. Zeros are
    /// skipped because fill and explicit zeros cannot be told apart.
    pub fn to_coo(&self) -> Coo {
        let b = self.block_size;
        let (mut ri, mut ci, mut vs) = (Vec::new(), Vec::new(), Vec::new());
        for (br, w) in self.indptr.windows(2).enumerate() {
            for block in w[0] as usize..w[1] as usize {
                let bc = self.indices[block] as usize;
                for r in 0..b {
                    for c in 0..b {
                        let v = self.values[block * b * b + r * b + c];
                        let (row, col) = (br * b + r, bc * b + c);
                        if v != 0.0 && row < self.rows && col < self.cols {
                            ri.push(row as i32);
                            ci.push(col as i32);
                            vs.push(v);
                        }
                    }
                }
            }
        }
        Coo::from_trusted(self.rows, self.cols, ri, ci, vs)
    }

    pub fn to_csr(&self) -> Csr {
        self.to_coo().to_csr()
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
    pub fn block_size(&self) -> usize {
        self.block_size
    }
    /// `ceil(rows / b)`.
    pub fn block_rows(&self) -> usize {
        self.rows.div_ceil(self.block_size.max(1))
    }
    /// `ceil(cols / b)`.
    pub fn block_cols(&self) -> usize {
        self.cols.div_ceil(self.block_size.max(1))
    }
    pub fn num_blocks(&self) -> usize {
        self.indices.len()
    }
    /// Block-row pointers, `block_rows + 1` entries.
    pub fn indptr(&self) -> &[i32] {
        &self.indptr
    }
    /// Block column of each stored block.
    pub fn indices(&self) -> &[i32] {
        &self.indices
    }
    /// `num_blocks * b * b` values, each block row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

/// The blocks of `csr` in `b x b` blocks, before their values: for each
/// block row, the sorted block columns its entries touch (`indptr` over
/// block rows, `indices`).
fn block_structure(csr: &Csr, b: usize) -> Result<(Vec<i32>, Vec<i32>), FormatError> {
    // Each block row's block columns, sorted and deduplicated: memory in
    // proportion to the non-zeros, not to the columns (a marker a block
    // column took 8 GB for a 1 x 10^9 matrix, before any size check).
    let block_rows = csr.rows().div_ceil(b);
    let mut indptr = Vec::with_capacity(block_rows + 1);
    let mut indices: Vec<i32> = Vec::new();
    let mut row_blocks: Vec<i32> = Vec::new();
    indptr.push(0i32);
    for br in 0..block_rows {
        row_blocks.clear();
        for r in br * b..((br + 1) * b).min(csr.rows()) {
            let (cs, _) = csr.row(r).unwrap_or((&[], &[]));
            row_blocks.extend(cs.iter().map(|&c| (c as usize / b) as i32));
        }
        row_blocks.sort_unstable();
        row_blocks.dedup();
        indices.extend_from_slice(&row_blocks);
        fits_i32("number of blocks", indices.len())?;
        indptr.push(indices.len() as i32);
    }
    Ok((indptr, indices))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::csr::tests::{random_csr, sample};

    #[test]
    fn from_csr_layout() {
        // sample is 4x5; with b = 2 that is 2x3 blocks, the last block column half padding.
        let a = Bsr::from_csr(&sample(), 2).unwrap();
        a.validate().unwrap();
        assert_eq!((a.block_rows(), a.block_cols()), (2, 3));
        assert_eq!(a.indptr(), &[0, 2, 5]);
        assert_eq!(a.indices(), &[0, 1, 0, 1, 2]);
        // Block (0,1) holds row 0 col 3 = 2.0 at (0,1) within the block.
        assert_eq!(&a.values()[4..8], &[0.0, 2.0, 0.0, 0.0]);
        // Block (1,2) holds col 4 of rows 2,3; its second column is padding.
        assert_eq!(&a.values()[16..20], &[5.0, 0.0, 10.0, 0.0]);
    }

    #[test]
    fn round_trips() {
        for b in [1, 2, 3, 4, 7, 20] {
            let a = random_csr(17, 10, 0.2, b as u64);
            let bsr = Bsr::from_csr(&a, b).unwrap();
            bsr.validate().unwrap();
            assert_eq!(bsr.to_dense().unwrap(), a.to_dense().unwrap(), "b = {b}");
            assert_eq!(bsr.to_csr(), a, "b = {b}");
            assert_eq!(Bsr::count_blocks(&a, b).unwrap(), bsr.num_blocks(), "b = {b}");
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(Bsr::from_csr(&sample(), 0), Err(FormatError::InvalidParameter { name: "block_size", .. })));
        // 3x3 matrix, b = 2: one block whose (1,1) position is the matrix's (3,3): outside.
        let err = Bsr::new(3, 3, 2, vec![0, 0, 1], vec![1], vec![1.0, 0.0, 0.0, 9.0]).unwrap_err();
        assert!(matches!(err, FormatError::NonzeroPadding { row: 3, col: 3, .. }), "{err}");
        // Wrong number of values.
        assert!(matches!(
            Bsr::new(4, 4, 2, vec![0, 1, 1], vec![0], vec![1.0; 3]),
            Err(FormatError::LengthMismatch { what: "values", expected: 4, found: 3 })
        ));
        // Block column out of range, unsorted block columns.
        assert!(Bsr::new(4, 4, 2, vec![0, 1, 1], vec![2], vec![1.0; 4]).is_err());
        assert!(Bsr::new(4, 4, 2, vec![0, 2, 2], vec![1, 0], vec![1.0; 8]).is_err());
        assert!(Bsr::new(4, 4, 1 << 20, vec![0, 0], vec![], vec![]).is_err());
        // A legal but absurd block size is refused before allocating.
        assert!(matches!(Bsr::from_csr(&sample(), 46000), Err(FormatError::DenseTooLarge { .. })));
    }
}
