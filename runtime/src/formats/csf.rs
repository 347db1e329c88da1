//! Compressed sparse fiber for 3-D tensors, mode order (i, j, k).

use super::check::{check_len, check_ptr, check_run, check_segments, dense_len, fits_i32, Level};
use super::FormatError;

const I_LEVEL: Level = Level { ptr: "i_ids", outer: "tensor", inner: "i" };
const J_LEVEL: Level = Level { ptr: "i_ptr", outer: "i slice", inner: "j" };
const K_LEVEL: Level = Level { ptr: "j_ptr", outer: "fiber", inner: "k" };

/// A `dims[0] x dims[1] x dims[2]` tensor in CSF form.
///
/// Level i: `i_ids` lists the non-empty i slices (strictly increasing). Level j: slice `s`
/// owns `j_ids[i_ptr[s]..i_ptr[s+1]]` (strictly increasing, non-empty). Each position `f`
/// of `j_ids` is one (i, j) fiber, and fiber `f` owns `k_ids[j_ptr[f]..j_ptr[f+1]]`
/// (strictly increasing, non-empty) with matching `values`.
#[derive(Debug, Clone, PartialEq)]
pub struct Csf {
    dims: [usize; 3],
    i_ids: Vec<i32>,
    i_ptr: Vec<i32>,
    j_ids: Vec<i32>,
    j_ptr: Vec<i32>,
    k_ids: Vec<i32>,
    values: Vec<f32>,
}

impl Csf {
    pub fn new(
        dims: [usize; 3],
        i_ids: Vec<i32>,
        i_ptr: Vec<i32>,
        j_ids: Vec<i32>,
        j_ptr: Vec<i32>,
        k_ids: Vec<i32>,
        values: Vec<f32>,
    ) -> Result<Self, FormatError> {
        let csf = Csf { dims, i_ids, i_ptr, j_ids, j_ptr, k_ids, values };
        csf.validate()?;
        Ok(csf)
    }

    pub fn validate(&self) -> Result<(), FormatError> {
        for (what, d) in ["dims[0]", "dims[1]", "dims[2]"].into_iter().zip(self.dims) {
            fits_i32(what, d)?;
        }
        check_run(I_LEVEL, 0, 0, &self.i_ids, self.dims[0], true)?;
        check_ptr(J_LEVEL, &self.i_ptr, self.i_ids.len(), self.j_ids.len(), true)?;
        check_segments(J_LEVEL, &self.i_ptr, &self.j_ids, self.dims[1], true)?;
        check_len("k_ids", self.values.len(), self.k_ids.len())?;
        check_ptr(K_LEVEL, &self.j_ptr, self.j_ids.len(), self.values.len(), true)?;
        check_segments(K_LEVEL, &self.j_ptr, &self.k_ids, self.dims[2], true)
    }

    /// Builds the CSF from `(i, j, k, value)` entries in any order; duplicates are summed
    /// in input order.
    pub fn from_coo(dims: [usize; 3], entries: &[(usize, usize, usize, f32)]) -> Result<Csf, FormatError> {
        for (what, d) in ["dims[0]", "dims[1]", "dims[2]"].into_iter().zip(dims) {
            fits_i32(what, d)?;
        }
        fits_i32("number of entries", entries.len())?;
        for (pos, &(i, j, k, _)) in entries.iter().enumerate() {
            for (inner, value, bound) in [("i", i, dims[0]), ("j", j, dims[1]), ("k", k, dims[2])] {
                if value >= bound {
                    return Err(FormatError::IndexOutOfRange {
                        outer: "entry",
                        index: pos,
                        inner,
                        pos,
                        value: i64::try_from(value).unwrap_or(i64::MAX),
                        bound,
                    });
                }
            }
        }
        let mut sorted: Vec<(usize, usize, usize, f32)> = entries.to_vec();
        // Stable, so duplicates are summed in input order.
        sorted.sort_by_key(|&(i, j, k, _)| (i, j, k));

        let mut csf =
            Csf { dims, i_ids: vec![], i_ptr: vec![0], j_ids: vec![], j_ptr: vec![0], k_ids: vec![], values: vec![] };
        let mut last: Option<(usize, usize, usize)> = None;
        for &(i, j, k, v) in &sorted {
            match last {
                Some(l) if l == (i, j, k) => {
                    if let Some(x) = csf.values.last_mut() {
                        *x += v;
                    }
                    continue;
                }
                Some((li, lj, _)) if (li, lj) == (i, j) => {}
                Some((li, _, _)) if li == i => csf.close_fiber(j),
                _ => {
                    if last.is_some() {
                        csf.close_fiber_and_slice();
                    }
                    csf.i_ids.push(i as i32);
                    csf.j_ids.push(j as i32);
                }
            }
            csf.k_ids.push(k as i32);
            csf.values.push(v);
            last = Some((i, j, k));
        }
        if last.is_some() {
            csf.close_fiber_and_slice();
        }
        Ok(csf)
    }

    /// Ends the current fiber and opens one for column `j` in the same slice.
    fn close_fiber(&mut self, j: usize) {
        self.j_ptr.push(self.k_ids.len() as i32);
        self.j_ids.push(j as i32);
    }

    fn close_fiber_and_slice(&mut self) {
        self.j_ptr.push(self.k_ids.len() as i32);
        self.i_ptr.push(self.j_ids.len() as i32);
    }

    /// `(i, j, k, value)` entries in (i, j, k) order.
    pub fn to_coo(&self) -> Vec<(usize, usize, usize, f32)> {
        let mut out = Vec::with_capacity(self.nnz());
        for (s, &i) in self.i_ids.iter().enumerate() {
            for f in self.i_ptr[s] as usize..self.i_ptr[s + 1] as usize {
                let j = self.j_ids[f] as usize;
                for p in self.j_ptr[f] as usize..self.j_ptr[f + 1] as usize {
                    out.push((i as usize, j, self.k_ids[p] as usize, self.values[p]));
                }
            }
        }
        out
    }

    /// Dense `dims[0] x dims[1] x dims[2]` array, row-major (k fastest).
    pub fn to_dense(&self) -> Result<Vec<f32>, FormatError> {
        let mut dense = vec![0.0f32; dense_len(&self.dims)?];
        for (i, j, k, v) in self.to_coo() {
            dense[(i * self.dims[1] + j) * self.dims[2] + k] = v;
        }
        Ok(dense)
    }

    /// The (i, j) coordinates of each fiber, in storage order.
    pub fn fiber_coords(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.num_fibers());
        for (s, &i) in self.i_ids.iter().enumerate() {
            for f in self.i_ptr[s] as usize..self.i_ptr[s + 1] as usize {
                out.push((i as usize, self.j_ids[f] as usize));
            }
        }
        out
    }

    pub fn dims(&self) -> [usize; 3] {
        self.dims
    }
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
    pub fn num_slices(&self) -> usize {
        self.i_ids.len()
    }
    /// Number of (i, j) fibers (= `j_ids.len()`).
    pub fn num_fibers(&self) -> usize {
        self.j_ids.len()
    }
    pub fn i_ids(&self) -> &[i32] {
        &self.i_ids
    }
    pub fn i_ptr(&self) -> &[i32] {
        &self.i_ptr
    }
    pub fn j_ids(&self) -> &[i32] {
        &self.j_ids
    }
    pub fn j_ptr(&self) -> &[i32] {
        &self.j_ptr
    }
    pub fn k_ids(&self) -> &[i32] {
        &self.k_ids
    }
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::random::SplitMix64;

    pub(crate) fn random_entries(dims: [usize; 3], n: usize, seed: u64) -> Vec<(usize, usize, usize, f32)> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let mut pick = |d: usize| (rng.next_u64() % d as u64) as usize;
                let (i, j, k) = (pick(dims[0]), pick(dims[1]), pick(dims[2]));
                (i, j, k, 1.0 + rng.next_f64() as f32)
            })
            .collect()
    }

    #[test]
    fn from_coo_layout() {
        let entries = [
            (2, 1, 0, 5.0),
            (0, 0, 1, 1.0),
            (0, 2, 0, 2.0),
            (0, 2, 3, 3.0),
            (2, 1, 0, 0.5), // duplicate, summed
            (2, 0, 2, 4.0),
        ];
        let t = Csf::from_coo([3, 3, 4], &entries).unwrap();
        t.validate().unwrap();
        assert_eq!(t.i_ids(), &[0, 2]);
        assert_eq!(t.i_ptr(), &[0, 2, 4]);
        assert_eq!(t.j_ids(), &[0, 2, 0, 1]);
        assert_eq!(t.j_ptr(), &[0, 1, 3, 4, 5]);
        assert_eq!(t.k_ids(), &[1, 0, 3, 2, 0]);
        assert_eq!(t.values(), &[1.0, 2.0, 3.0, 4.0, 5.5]);
        assert_eq!(t.fiber_coords(), vec![(0, 0), (0, 2), (2, 0), (2, 1)]);
        assert_eq!(t.to_coo()[4], (2, 1, 0, 5.5));
    }

    #[test]
    fn round_trips() {
        let dims = [7, 5, 9];
        let entries = random_entries(dims, 80, 13);
        let t = Csf::from_coo(dims, &entries).unwrap();
        t.validate().unwrap();
        let mut dense = vec![0.0f32; 7 * 5 * 9];
        for &(i, j, k, v) in &entries {
            dense[(i * 5 + j) * 9 + k] += v;
        }
        assert_eq!(t.to_dense().unwrap(), dense);
        assert_eq!(Csf::from_coo(dims, &t.to_coo()).unwrap(), t);
        let empty = Csf::from_coo(dims, &[]).unwrap();
        empty.validate().unwrap();
        assert_eq!(empty.num_fibers(), 0);
    }

    #[test]
    fn rejects_bad_input() {
        let err = Csf::from_coo([2, 2, 2], &[(0, 0, 0, 1.0), (1, 2, 0, 1.0)]).unwrap_err();
        assert_eq!(err.to_string(), "entry 1: j index 2 at position 1 is out of range 0..2");
        let ok = || Csf::new([2, 2, 2], vec![1], vec![0, 1], vec![0], vec![0, 2], vec![0, 1], vec![1.0; 2]);
        assert!(ok().is_ok());
        // Empty fiber, unsorted k, bad i id, length mismatch.
        assert!(Csf::new([2, 2, 2], vec![1], vec![0, 1], vec![0], vec![0, 0], vec![], vec![]).is_err());
        assert!(Csf::new([2, 2, 2], vec![1], vec![0, 1], vec![0], vec![0, 2], vec![1, 0], vec![1.0; 2]).is_err());
        assert!(Csf::new([2, 2, 2], vec![2], vec![0, 1], vec![0], vec![0, 2], vec![0, 1], vec![1.0; 2]).is_err());
        assert!(Csf::new([2, 2, 2], vec![1], vec![0, 1], vec![0], vec![0, 2], vec![0, 1], vec![1.0]).is_err());
    }
}
