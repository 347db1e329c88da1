//! SparseTIR's hybrid format `hyb(c, k)`: column partitions, each split into ELL buckets.

use std::ops::Range;

use super::check::{check_len, check_run, dense_len, fits_i32, Level};
use super::ell::{padding_mask, push_padded_row, real_len};
use super::{Coo, Csr, FormatError};

const LEVEL: Level = Level { ptr: "row_indices", outer: "hyb bucket row", inner: "column" };

/// One ELL sub-matrix of a [`Hyb`]: `num_rows()` padded rows of `width` slots each.
///
/// `row_indices[i]` is the matrix row that bucket row `i` belongs to; a row may appear
/// several times when it was split. `indices`/`values` are row-major
/// `num_rows x width` arrays holding global column indices, padded as described at
/// [`super::ELL_PAD_COL`].
#[derive(Debug, Clone, PartialEq)]
pub struct HybBucket {
    width: usize,
    row_indices: Vec<i32>,
    indices: Vec<i32>,
    values: Vec<f32>,
}

impl HybBucket {
    /// Checks only the lengths; index ranges are checked by [`Hyb::new`], which knows the
    /// matrix shape and the bucket's column partition.
    pub fn new(width: usize, row_indices: Vec<i32>, indices: Vec<i32>, values: Vec<f32>) -> Result<Self, FormatError> {
        let bucket = HybBucket { width, row_indices, indices, values };
        bucket.check_lengths()?;
        Ok(bucket)
    }

    fn check_lengths(&self) -> Result<(), FormatError> {
        let slots = self
            .row_indices
            .len()
            .checked_mul(self.width)
            .ok_or(FormatError::TooLarge { what: "bucket rows * width", value: usize::MAX })?;
        fits_i32("bucket rows * width", slots)?;
        check_len("bucket indices", slots, self.indices.len())?;
        check_len("bucket values", slots, self.values.len())
    }

    /// Row-major `num_rows x width` mask: 1 at a real entry, 0 at padding.
    pub fn mask(&self) -> Vec<i32> {
        padding_mask(&self.indices, &self.values, self.width)
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn num_rows(&self) -> usize {
        self.row_indices.len()
    }
    pub fn row_indices(&self) -> &[i32] {
        &self.row_indices
    }
    pub fn indices(&self) -> &[i32] {
        &self.indices
    }
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

/// A `rows x cols` matrix in SparseTIR's `hyb(c, k)` layout.
///
/// The columns are cut into `col_parts` contiguous partitions of `ceil(cols / col_parts)`
/// columns (the last may be shorter or empty). Within each partition every row with at
/// least one entry there goes to the first bucket whose width is at least its entry count;
/// a row longer than the widest bucket is cut into chunks of that width, all stored in the
/// widest bucket. `buckets` is partition-major: bucket `b` of partition `p` is
/// `buckets[p * bucket_widths.len() + b]`. Rows are stored in increasing row order.
#[derive(Debug, Clone, PartialEq)]
pub struct Hyb {
    rows: usize,
    cols: usize,
    col_parts: usize,
    bucket_widths: Vec<usize>,
    buckets: Vec<HybBucket>,
}

/// The most buckets (column partitions times widths) a hyb matrix has;
/// `decompose-format`'s `hyb:` rule has the same limit.
pub const MAX_BUCKETS: usize = 256;

fn check_params(col_parts: usize, cols: usize, widths: &[usize]) -> Result<(), FormatError> {
    if col_parts == 0 {
        return Err(FormatError::InvalidParameter {
            name: "col_parts",
            value: 0,
            reason: "need at least one column partition",
        });
    }
    // More partitions than columns only adds empty ones, and an absurd count would
    // allocate absurd bucket lists.
    if col_parts > cols.max(1) {
        return Err(FormatError::InvalidParameter {
            name: "col_parts",
            value: col_parts,
            reason: "at most one column partition per column",
        });
    }
    if widths.is_empty() {
        return Err(FormatError::InvalidParameter {
            name: "number of bucket widths",
            value: 0,
            reason: "need at least one bucket",
        });
    }
    // Each (partition, bucket) is a kernel of its own: thousands of them
    // take minutes and gigabytes to compile.
    if col_parts.saturating_mul(widths.len()) > MAX_BUCKETS {
        return Err(FormatError::InvalidParameter {
            name: "col_parts * buckets",
            value: col_parts.saturating_mul(widths.len()),
            reason: "at most 256 (each is a kernel to compile)",
        });
    }
    let mut prev = 0;
    for &w in widths {
        if w <= prev {
            return Err(FormatError::InvalidParameter {
                name: "bucket width",
                value: w,
                reason: "bucket widths must be positive and strictly increasing",
            });
        }
        prev = w;
    }
    Ok(())
}

/// The widths 1, 2, 4, ..., 2^k of SparseTIR's `hyb(c, k)`.
pub fn pow2_bucket_widths(k: u32) -> Result<Vec<usize>, FormatError> {
    if k > 30 {
        return Err(FormatError::InvalidParameter {
            name: "k",
            value: k as usize,
            reason: "the widest bucket 2^k must fit in i32, so k <= 30",
        });
    }
    Ok((0..=k).map(|i| 1usize << i).collect())
}

impl Hyb {
    pub fn new(
        rows: usize,
        cols: usize,
        col_parts: usize,
        bucket_widths: Vec<usize>,
        buckets: Vec<HybBucket>,
    ) -> Result<Self, FormatError> {
        let hyb = Hyb { rows, cols, col_parts, bucket_widths, buckets };
        hyb.validate()?;
        Ok(hyb)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        fits_i32("rows", self.rows)?;
        fits_i32("cols", self.cols)?;
        check_params(self.col_parts, self.cols, &self.bucket_widths)?;
        let nb = self.bucket_widths.len();
        let expected = self
            .col_parts
            .checked_mul(nb)
            .ok_or(FormatError::TooLarge { what: "col_parts * buckets", value: usize::MAX })?;
        check_len("buckets", expected, self.buckets.len())?;
        for (i, bucket) in self.buckets.iter().enumerate() {
            let (part, b) = (i / nb, i % nb);
            bucket.check_lengths()?;
            if bucket.width != self.bucket_widths[b] {
                return Err(FormatError::InvalidParameter {
                    name: "bucket width",
                    value: bucket.width,
                    reason: "a bucket's width differs from its entry in bucket_widths",
                });
            }
            let range = self.partition_cols(part);
            let w = bucket.width;
            for (slot_row, &r) in bucket.row_indices.iter().enumerate() {
                if r < 0 || r as usize >= self.rows {
                    return Err(FormatError::IndexOutOfRange {
                        outer: "hyb bucket",
                        index: i,
                        inner: "row",
                        pos: slot_row,
                        value: r.into(),
                        bound: self.rows,
                    });
                }
                let start = slot_row * w;
                let cs = &bucket.indices[start..start + w];
                let n = real_len(cs, &bucket.values[start..start + w]);
                check_run(LEVEL, slot_row, start, &cs[..n], self.cols, true)?;
                for (k, &c) in cs[..n].iter().enumerate() {
                    if !range.contains(&(c as usize)) {
                        return Err(FormatError::ColumnOutsidePartition {
                            part,
                            bucket: b,
                            pos: start + k,
                            col: c,
                            start: range.start,
                            end: range.end,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// `hyb(c, k)` exactly as SparseTIR defines it: bucket widths 1, 2, 4, ..., 2^k.
    pub fn from_csr_pow2(csr: &Csr, col_parts: usize, k: u32) -> Result<Hyb, FormatError> {
        Hyb::from_csr(csr, col_parts, &pow2_bucket_widths(k)?)
    }

    /// How many slots (padding included) [`Hyb::from_csr`] stores for
    /// `csr`, counted without building the buckets, so that what they take
    /// can be checked before it is allocated.
    pub fn count_slots(csr: &Csr, col_parts: usize, bucket_widths: &[usize]) -> Result<usize, FormatError> {
        check_params(col_parts, csr.cols(), bucket_widths)?;
        let mut slots = 0usize;
        for part in 0..col_parts {
            for (_, run, b) in bucket_runs(csr, col_parts, part, bucket_widths) {
                let width = bucket_widths[b];
                slots = run
                    .len()
                    .div_ceil(width)
                    .checked_mul(width)
                    .and_then(|s| s.checked_add(slots))
                    .ok_or(FormatError::TooLarge { what: "hyb slots", value: usize::MAX })?;
            }
        }
        Ok(slots)
    }

    /// Builds the hybrid layout with arbitrary strictly increasing bucket widths.
    pub fn from_csr(csr: &Csr, col_parts: usize, bucket_widths: &[usize]) -> Result<Hyb, FormatError> {
        check_params(col_parts, csr.cols(), bucket_widths)?;
        let (rows, cols) = (csr.rows(), csr.cols());
        let mut buckets = Vec::with_capacity(col_parts * bucket_widths.len());
        for part in 0..col_parts {
            let mut part_buckets: Vec<HybBucket> = bucket_widths
                .iter()
                .map(|&w| HybBucket { width: w, row_indices: vec![], indices: vec![], values: vec![] })
                .collect();
            for (r, run, b) in bucket_runs(csr, col_parts, part, bucket_widths) {
                let (cs, vs) = csr.row(r).unwrap_or((&[], &[]));
                let bucket = &mut part_buckets[b];
                let chunks = run.len().div_ceil(bucket.width);
                // Wide buckets multiply the storage; refuse before allocating rather than abort.
                dense_len(&[bucket.row_indices.len() + chunks, bucket.width])?;
                for start in run.clone().step_by(bucket.width) {
                    let end = (start + bucket.width).min(run.end);
                    bucket.row_indices.push(r as i32);
                    push_padded_row(
                        &mut bucket.indices,
                        &mut bucket.values,
                        &cs[start..end],
                        &vs[start..end],
                        bucket.width,
                    );
                }
            }
            for bucket in &part_buckets {
                bucket.check_lengths()?;
            }
            buckets.extend(part_buckets);
        }
        Ok(Hyb { rows, cols, col_parts, bucket_widths: bucket_widths.to_vec(), buckets })
    }

    /// All real entries (padding dropped); a split row contributes one run per chunk.
    pub fn to_coo(&self) -> Coo {
        let (mut ri, mut ci, mut vs) = (Vec::new(), Vec::new(), Vec::new());
        for bucket in &self.buckets {
            let w = bucket.width;
            for (i, &r) in bucket.row_indices.iter().enumerate() {
                let cs = &bucket.indices[i * w..(i + 1) * w];
                let vals = &bucket.values[i * w..(i + 1) * w];
                let n = real_len(cs, vals);
                ri.extend(std::iter::repeat_n(r, n));
                ci.extend_from_slice(&cs[..n]);
                vs.extend_from_slice(&vals[..n]);
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
    pub fn col_parts(&self) -> usize {
        self.col_parts
    }
    pub fn bucket_widths(&self) -> &[usize] {
        &self.bucket_widths
    }
    /// Columns per partition, `ceil(cols / col_parts)`.
    pub fn partition_width(&self) -> usize {
        self.cols.div_ceil(self.col_parts.max(1))
    }
    /// The columns of partition `part` (empty past the last column).
    pub fn partition_cols(&self, part: usize) -> Range<usize> {
        partition_range(part, self.partition_width(), self.cols)
    }
    /// Bucket `b` of partition `part`.
    pub fn bucket(&self, part: usize, b: usize) -> Option<&HybBucket> {
        if part >= self.col_parts || b >= self.bucket_widths.len() {
            return None;
        }
        self.buckets.get(part * self.bucket_widths.len() + b)
    }
    /// All buckets, partition-major.
    pub fn buckets(&self) -> &[HybBucket] {
        &self.buckets
    }
    /// The buckets that hold rows, partition-major: what a kernel needs a
    /// loop nest for (hyb(8, 30) has 248 buckets, most of them empty).
    pub fn filled_buckets(&self) -> impl Iterator<Item = &HybBucket> {
        self.buckets.iter().filter(|bucket| bucket.num_rows() > 0)
    }
    /// Slots over all buckets, padding included (compare with nnz for the padding cost).
    pub fn stored_slots(&self) -> usize {
        self.buckets.iter().map(|b| b.values.len()).sum()
    }
}

/// Each non-empty row of `csr` within column partition `part`: the row,
/// the positions in the row of its entries there, and the bucket they go
/// to (the narrowest that holds them, else the widest, in chunks).
fn bucket_runs<'a>(
    csr: &'a Csr,
    col_parts: usize,
    part: usize,
    bucket_widths: &'a [usize],
) -> impl Iterator<Item = (usize, Range<usize>, usize)> + 'a {
    let range = partition_range(part, csr.cols().div_ceil(col_parts), csr.cols());
    (0..csr.rows()).filter_map(move |r| {
        let (cs, _) = csr.row(r).unwrap_or((&[], &[]));
        // Rows are sorted, so the partition's entries are one contiguous run.
        let lo = cs.partition_point(|&c| (c as usize) < range.start);
        let hi = cs.partition_point(|&c| (c as usize) < range.end);
        let b = bucket_widths.iter().position(|&w| w >= hi - lo).unwrap_or(bucket_widths.len() - 1);
        (hi > lo).then_some((r, lo..hi, b))
    })
}

fn partition_range(part: usize, part_width: usize, cols: usize) -> Range<usize> {
    let start = part.saturating_mul(part_width).min(cols);
    let end = part.saturating_add(1).saturating_mul(part_width).min(cols);
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::csr::tests::{random_csr, sample};

    #[test]
    fn pow2_widths() {
        assert_eq!(pow2_bucket_widths(0).unwrap(), vec![1]);
        assert_eq!(pow2_bucket_widths(3).unwrap(), vec![1, 2, 4, 8]);
        assert!(pow2_bucket_widths(31).is_err());
    }

    #[test]
    fn layout_of_sample() {
        // sample rows have 2, 0, 3, 5 entries; one partition, widths 1, 2, 4.
        let h = Hyb::from_csr_pow2(&sample(), 1, 2).unwrap();
        h.validate().unwrap();
        assert_eq!(h.bucket(0, 0).unwrap().num_rows(), 0);
        let b1 = h.bucket(0, 1).unwrap();
        assert_eq!(b1.row_indices(), &[0]);
        assert_eq!(b1.indices(), &[0, 3]);
        // Row 2 (3 entries) is padded to 4; row 3 (5 entries) is split 4 + 1.
        let b2 = h.bucket(0, 2).unwrap();
        assert_eq!(b2.row_indices(), &[2, 3, 3]);
        assert_eq!(b2.indices(), &[1, 2, 4, 0, 0, 1, 2, 3, 4, 0, 0, 0]);
        assert_eq!(&b2.values()[8..], &[10.0, 0.0, 0.0, 0.0]);
        assert_eq!(b2.mask(), vec![1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0]);
        assert_eq!(h.stored_slots(), 2 + 12);
        assert!(h.bucket(1, 0).is_none());
    }

    #[test]
    fn column_partitions() {
        // 5 columns in 2 partitions: 0..3 and 3..5.
        let h = Hyb::from_csr_pow2(&sample(), 2, 1).unwrap();
        h.validate().unwrap();
        assert_eq!(h.partition_cols(0), 0..3);
        assert_eq!(h.partition_cols(1), 3..5);
        // Partition 1: rows 0 and 2 have one entry each -> width-1 bucket; row 3 has two.
        let b = h.bucket(1, 0).unwrap();
        assert_eq!(b.row_indices(), &[0, 2]);
        assert_eq!(b.indices(), &[3, 4]);
        assert_eq!(h.bucket(1, 1).unwrap().row_indices(), &[3]);
        // Partition 0, row 3 has 3 entries (cols 0,1,2) -> split 2 + 1 in the width-2 bucket.
        let b = h.bucket(0, 1).unwrap();
        assert_eq!(b.row_indices(), &[2, 3, 3]);
        assert_eq!(b.indices(), &[1, 2, 0, 1, 2, 0]);
    }

    #[test]
    fn round_trips() {
        let a = random_csr(40, 33, 0.15, 7);
        for c in [1, 2, 3, 8, 33] {
            for k in [0, 1, 3, 6] {
                let h = Hyb::from_csr_pow2(&a, c, k).unwrap();
                h.validate().unwrap();
                assert_eq!(h.to_csr(), a, "c = {c}, k = {k}");
                let widths = pow2_bucket_widths(k).unwrap();
                assert_eq!(Hyb::count_slots(&a, c, &widths).unwrap(), h.stored_slots(), "c = {c}, k = {k}");
            }
        }
        let h = Hyb::from_csr(&a, 3, &[3, 5, 11]).unwrap();
        assert_eq!(h.to_dense().unwrap(), a.to_dense().unwrap());
        let empty = Csr::empty(3, 0).unwrap();
        assert_eq!(Hyb::from_csr_pow2(&empty, 1, 2).unwrap().to_csr(), empty);
    }

    #[test]
    fn rejects_bad_input() {
        let a = sample();
        assert!(Hyb::from_csr(&a, 0, &[1]).is_err());
        assert!(Hyb::from_csr(&a, 1, &[]).is_err());
        assert!(Hyb::from_csr(&a, 1, &[2, 2]).is_err());
        assert!(Hyb::from_csr(&a, 1, &[0, 2]).is_err());
        assert!(HybBucket::new(2, vec![0], vec![0], vec![1.0, 1.0]).is_err());
        assert!(Hyb::from_csr(&a, 6, &[1]).is_err());
        assert!(Hyb::from_csr(&a, usize::MAX, &[1]).is_err());
        assert!(matches!(Hyb::from_csr(&a, 1, &[1, 1 << 31]), Err(FormatError::DenseTooLarge { .. })));

        let bucket = |rows: Vec<i32>, cols: Vec<i32>| {
            let n = cols.len();
            HybBucket::new(2, rows, cols, vec![1.0; n]).unwrap()
        };
        let empty = || HybBucket::new(1, vec![], vec![], vec![]).unwrap();
        // 2 partitions of a 4x4 matrix: columns 0..2 and 2..4.
        let make = |b: HybBucket| Hyb::new(4, 4, 2, vec![1, 2], vec![empty(), b, empty(), bucket(vec![], vec![])]);
        assert!(make(bucket(vec![1], vec![0, 1])).is_ok());
        assert!(matches!(
            make(bucket(vec![1], vec![0, 2])),
            Err(FormatError::ColumnOutsidePartition { part: 0, col: 2, .. })
        ));
        assert!(make(bucket(vec![4], vec![0, 1])).is_err());
        assert!(make(bucket(vec![1], vec![1, 0])).is_err());
        // Wrong number of buckets; bucket width differing from the list.
        assert!(Hyb::new(4, 4, 2, vec![1, 2], vec![empty()]).is_err());
        assert!(Hyb::new(4, 4, 1, vec![1, 2], vec![empty(), empty()]).is_err());
    }
}
