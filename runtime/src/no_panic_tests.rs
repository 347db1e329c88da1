//! Random garbage into every constructor and the Matrix Market parser: each must either
//! reject it with an error or accept something whose conversions then work, never panic.

use crate::formats::*;
use crate::mtx::parse_matrix_market;
use crate::random::SplitMix64;

struct Gen(SplitMix64);

impl Gen {
    fn small(&mut self, n: u64) -> usize {
        (self.0.next_u64() % n) as usize
    }
    fn ints(&mut self) -> Vec<i32> {
        let len = self.small(7);
        (0..len).map(|_| self.small(8) as i32 - 1).collect()
    }
    /// A pointer array over `segments` that is usually well formed, so that random
    /// inputs reach the deeper checks too.
    fn ptr(&mut self, segments: usize, nnz: usize) -> Vec<i32> {
        if self.small(4) == 0 {
            return self.ints();
        }
        let mut p: Vec<i32> = (0..=segments).map(|_| self.small(nnz as u64 + 1) as i32).collect();
        p.sort_unstable();
        p[0] = 0;
        p[segments] = nnz as i32;
        p
    }
    /// `n` column-like indices in -1..=bound, sorted most of the time.
    fn idx(&mut self, n: usize, bound: usize) -> Vec<i32> {
        let mut v: Vec<i32> = (0..n).map(|_| self.small(bound as u64 + 2) as i32 - 1).collect();
        if self.small(3) > 0 {
            v.sort_unstable();
            v.dedup();
        }
        v
    }
    fn floats(&mut self) -> Vec<f32> {
        let len = self.small(7);
        (0..len).map(|_| if self.small(3) == 0 { 0.0 } else { 1.0 }).collect()
    }
}

fn exercise_csr(a: &Csr) {
    a.validate().unwrap();
    let dense = a.to_dense().unwrap();
    assert_eq!(Csc::from_csr(a).to_dense().unwrap(), dense);
    assert_eq!(Dcsr::from_csr(a).to_dense().unwrap(), dense);
    if let Ok(b) = Bsr::from_csr(a, 2) {
        b.to_dense().unwrap();
    }
    if let Ok(e) = Ell::from_csr(a, None) {
        e.to_dense().unwrap();
    }
    if let Ok(h) = Hyb::from_csr_pow2(a, 2, 1) {
        h.to_dense().unwrap();
    }
}

#[test]
fn constructors_never_panic() {
    let mut g = Gen(SplitMix64::new(99));
    let mut accepted = 0;
    for _ in 0..20000 {
        let (rows, cols) = (g.small(4), g.small(4));
        let nnz = g.small(6);
        let indices = g.idx(nnz, cols);
        let values = vec![1.0; indices.len()];
        let indptr = g.ptr(rows, indices.len());
        if let Ok(a) = Csr::new(rows, cols, indptr, indices, values) {
            exercise_csr(&a);
            accepted += 1;
        }
        if let Ok(a) = Csc::new(rows, cols, g.ints(), g.ints(), g.floats()) {
            exercise_csr(&a.to_csr());
        }
        if let Ok(a) = Coo::new(rows, cols, g.ints(), g.ints(), g.floats()) {
            exercise_csr(&a.to_csr());
        }
        if let Ok(a) = Dcsr::new(rows, cols, g.ints(), g.ints(), g.ints(), g.floats()) {
            exercise_csr(&a.to_csr());
        }
        let b = g.small(4);
        if let Ok(a) = Bsr::new(rows, cols, b, g.ints(), g.ints(), g.floats()) {
            exercise_csr(&a.to_csr());
        }
        let w = g.small(4);
        if let Ok(a) = Ell::new(rows, cols, w, g.ints(), g.ints().into_iter().map(|v| v as f32).collect()) {
            exercise_csr(&a.to_csr());
            a.mask();
        }
        let buckets: Vec<HybBucket> =
            (0..g.small(4)).filter_map(|_| HybBucket::new(g.small(3), g.ints(), g.ints(), g.floats()).ok()).collect();
        if let Ok(a) = Hyb::new(rows, cols, g.small(3), vec![1, 2], buckets) {
            exercise_csr(&a.to_csr());
        }
        let dims = [g.small(3), g.small(3), g.small(3)];
        if let Ok(t) = Csf::new(dims, g.ints(), g.ints(), g.ints(), g.ints(), g.ints(), g.floats()) {
            t.to_dense().unwrap();
            t.fiber_coords();
        }
    }
    // The generator must hit valid inputs too, or the exercise above means little.
    assert!(accepted > 100, "only {accepted} CSR accepted");
}

#[test]
fn mtx_parser_never_panics() {
    let base = b"%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 3\n1 1 1.5\n3 2 -2\n2 1 4e0\n";
    let alphabet = b" \n%0123456789.-eax";
    let mut g = Gen(SplitMix64::new(5));
    let mut accepted = 0;
    for _ in 0..20000 {
        let mut text = base.to_vec();
        for _ in 0..1 + g.small(3) {
            let pos = g.small(text.len() as u64);
            match g.small(3) {
                0 => text[pos] = alphabet[g.small(alphabet.len() as u64)],
                1 => {
                    text.remove(pos);
                }
                _ => text.insert(pos, alphabet[g.small(alphabet.len() as u64)]),
            }
        }
        if let Ok(a) = parse_matrix_market(&text[..]) {
            a.validate().unwrap();
            accepted += 1;
        }
    }
    assert!(accepted > 100, "only {accepted} mutated files accepted");
}
