//! Stage II schedules that `sptir-bench` and the tests name by their
//! parameters instead of spelling out pass lists.

/// The GPU schedule of a row-wise SpMM (`programs::row_spmm`: loops
/// `L.0` rows, `L.init.1` zeroing features, `L.1` non-zeros, `L.2`
/// features): `rows` rows per block on threadIdx.y, each row's features
/// on `threads` threads of threadIdx.x, `vector` consecutive features per
/// thread per step (1, 2 or 4), in chunks of `threads * vector` features
/// walked outside the non-zero loop so that each thread's sums stay in
/// registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSpmm {
    pub rows: usize,
    pub threads: usize,
    pub vector: usize,
}

impl RowSpmm {
    /// The pass list for the loops labelled `label.*`.
    pub fn passes(&self, label: &str) -> String {
        let mut passes = Vec::new();
        for features in [format!("{label}.2"), format!("{label}.init.1")] {
            passes.push(format!("sparse-pos-split{{loop={features} factor={}}}", self.threads * self.vector));
            let lanes = if self.vector > 1 {
                passes.push(format!("sparse-pos-split{{loop={features}.i factor={}}}", self.vector));
                passes.push(format!("sparse-pos-vectorize{{loop={features}.i.i}}"));
                format!("{features}.i.o")
            } else {
                format!("{features}.i")
            };
            passes.push(format!("sparse-pos-bind{{loop={lanes} to=threadIdx.x}}"));
        }
        passes.push(format!("sparse-pos-reorder{{loops={label}.2.o,{label}.1}}"));
        if self.rows > 1 {
            passes.push(format!("sparse-pos-split{{loop={label}.0 factor={}}}", self.rows));
            passes.push(format!("sparse-pos-bind{{loop={label}.0.o to=blockIdx.x}}"));
            passes.push(format!("sparse-pos-bind{{loop={label}.0.i to=threadIdx.y}}"));
        }
        passes.join(",")
    }

    /// A schedule that suits `feat` features without measuring: 16-byte
    /// vectors where the features divide into them, up to a warp per row,
    /// and about 128 threads a block.
    pub fn for_features(feat: usize) -> RowSpmm {
        let vector = if feat % 4 == 0 { 4 } else { 1 };
        let threads = feat.div_ceil(vector).next_power_of_two().clamp(1, 32);
        RowSpmm { rows: (128 / threads).max(1), threads, vector }
    }

    /// The candidates `--tune` tries for `feat` features: threads that
    /// cover the features in few chunks, blocks of 64 to 512 threads.
    pub fn candidates(feat: usize) -> Vec<RowSpmm> {
        let mut list = Vec::new();
        for vector in [1, 2, 4] {
            for threads in [8, 16, 32, 64, 128] {
                let chunk = threads * vector;
                // More lanes than features idle; many chunks re-walk the row.
                if chunk > feat.next_power_of_two().max(vector * 8) || feat.div_ceil(chunk) > 4 {
                    continue;
                }
                for rows in [1, 2, 4, 8, 16] {
                    let block = threads * rows;
                    if (64..=512).contains(&block) || (rows == 1 && block < 64) {
                        list.push(RowSpmm { rows, threads, vector });
                    }
                }
            }
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_cover_every_feature_size() {
        for feat in [1, 7, 32, 64, 128, 256, 512, 1000] {
            let list = RowSpmm::candidates(feat);
            assert!(!list.is_empty(), "feat {feat}");
            for c in &list {
                assert!(c.threads * c.rows <= 512, "{c:?}");
            }
        }
        assert_eq!(RowSpmm::for_features(32), RowSpmm { rows: 16, threads: 8, vector: 4 });
        assert_eq!(RowSpmm::for_features(7), RowSpmm { rows: 16, threads: 8, vector: 1 });
        assert_eq!(RowSpmm::for_features(512), RowSpmm { rows: 4, threads: 32, vector: 4 });
        assert!(RowSpmm::candidates(128).contains(&RowSpmm { rows: 4, threads: 32, vector: 4 }));
    }
}
