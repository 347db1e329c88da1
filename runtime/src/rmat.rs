//! Synthetic power-law graphs from the R-MAT model (Chakrabarti, Zhan, Faloutsos 2004).
//!
//! Spec strings look like `rmat:SCALE:DEGREE:SEED`: `2^SCALE` vertices and
//! `DEGREE * 2^SCALE` sampled edges with the usual Graph500 quadrant probabilities
//! a = 0.57, b = c = 0.19, d = 0.05. Duplicate edges are dropped, so the result has
//! somewhat fewer entries than sampled. Self-loops are kept and no vertex permutation is
//! applied (low vertex ids get the high degrees). Values are 1.0.

use std::str::FromStr;

use thiserror::Error;

use crate::formats::{Coo, Csr, FormatError};
use crate::random::SplitMix64;

const A: f64 = 0.57;
const B: f64 = 0.19;
const C: f64 = 0.19;

/// Largest SCALE: vertex ids must fit in i32.
pub const MAX_RMAT_SCALE: u32 = 30;

#[derive(Debug, Error, PartialEq)]
pub enum RmatError {
    #[error("bad R-MAT spec {spec:?}: {reason} (expected rmat:SCALE:DEGREE:SEED, e.g. rmat:10:8:1)")]
    BadSpec { spec: String, reason: String },

    #[error("R-MAT with scale {scale} and degree {degree} samples {edges} edges, more than the limit {max}", max = i32::MAX)]
    TooManyEdges { scale: u32, degree: u32, edges: u128 },

    #[error(
        "R-MAT with scale {scale} and degree {degree} needs about {needed} MiB to build, \
         and this process may allocate {available} MiB (free memory, ulimit -v, cgroup limit)"
    )]
    OutOfMemory { scale: u32, degree: u32, needed: u64, available: u64 },

    #[error(transparent)]
    Format(#[from] FormatError),
}

/// Parameters of one R-MAT graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmatSpec {
    /// log2 of the number of vertices, at most [`MAX_RMAT_SCALE`].
    pub scale: u32,
    /// Sampled edges per vertex (before deduplication).
    pub degree: u32,
    pub seed: u64,
}

impl RmatSpec {
    /// Parses `rmat:SCALE:DEGREE:SEED`.
    pub fn parse(spec: &str) -> Result<RmatSpec, RmatError> {
        let bad = |reason: String| RmatError::BadSpec { spec: spec.to_string(), reason };
        let parts: Vec<&str> = spec.split(':').collect();
        if parts.len() != 4 || parts[0] != "rmat" {
            return Err(bad(format!("expected 4 ':'-separated parts starting with \"rmat\", found {}", parts.len())));
        }
        let scale: u32 = parts[1]
            .parse()
            .map_err(|_| bad(format!("SCALE {:?} is not a non-negative integer below 2^32", parts[1])))?;
        let degree: u32 = parts[2]
            .parse()
            .map_err(|_| bad(format!("DEGREE {:?} is not a non-negative integer below 2^32", parts[2])))?;
        let seed: u64 = parts[3]
            .parse()
            .map_err(|_| bad(format!("SEED {:?} is not a non-negative integer below 2^64", parts[3])))?;
        if scale > MAX_RMAT_SCALE {
            return Err(bad(format!("SCALE {scale} is larger than {MAX_RMAT_SCALE}")));
        }
        Ok(RmatSpec { scale, degree, seed })
    }

    pub fn vertices(&self) -> usize {
        1usize << self.scale.min(MAX_RMAT_SCALE)
    }

    /// Edges sampled before deduplication, `degree * 2^scale`.
    pub fn sampled_edges(&self) -> u128 {
        self.degree as u128 * self.vertices() as u128
    }

    /// Whether this graph can be generated here (its scale, its edges in
    /// i32, the memory to build it), before any time is spent on it;
    /// the edges it samples.
    pub fn check_fits(&self) -> Result<u128, RmatError> {
        if self.scale > MAX_RMAT_SCALE {
            return Err(RmatError::BadSpec {
                spec: format!("rmat:{}:{}:{}", self.scale, self.degree, self.seed),
                reason: format!("SCALE {} is larger than {MAX_RMAT_SCALE}", self.scale),
            });
        }
        let edges = self.sampled_edges();
        if edges > i32::MAX as u128 {
            return Err(RmatError::TooManyEdges { scale: self.scale, degree: self.degree, edges });
        }
        // Keys, then coordinates and values per edge; row counters and
        // pointers per vertex (the CSR conversion).
        let needed = edges as u64 * 36 + (self.vertices() as u64 + 1) * 20;
        crate::memory::check_fits(needed).map_err(|(needed, available)| RmatError::OutOfMemory {
            scale: self.scale,
            degree: self.degree,
            needed,
            available,
        })?;
        Ok(edges)
    }

    /// Generates the graph as a sorted, duplicate-free CSR with values 1.0.
    pub fn generate(&self) -> Result<Csr, RmatError> {
        let edges = self.check_fits()?;
        let mut rng = SplitMix64::new(self.seed);
        // Packing (row, col) in one u64 makes sort + dedup cheap.
        let mut keys: Vec<u64> = (0..edges as usize)
            .map(|_| {
                let (mut r, mut c) = (0u64, 0u64);
                for _ in 0..self.scale {
                    let u = rng.next_f64();
                    let (dr, dc) = if u < A {
                        (0, 0)
                    } else if u < A + B {
                        (0, 1)
                    } else if u < A + B + C {
                        (1, 0)
                    } else {
                        (1, 1)
                    };
                    r = 2 * r + dr;
                    c = 2 * c + dc;
                }
                (r << 32) | c
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let rows: Vec<i32> = keys.iter().map(|&k| (k >> 32) as i32).collect();
        let cols: Vec<i32> = keys.iter().map(|&k| (k & 0xffff_ffff) as i32).collect();
        let n = self.vertices();
        let values = vec![1.0f32; keys.len()];
        Ok(Coo::new(n, n, rows, cols, values)?.to_csr())
    }
}

impl FromStr for RmatSpec {
    type Err = RmatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RmatSpec::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_specs() {
        assert_eq!(RmatSpec::parse("rmat:10:8:42").unwrap(), RmatSpec { scale: 10, degree: 8, seed: 42 });
        assert_eq!("rmat:0:1:0".parse::<RmatSpec>().unwrap().vertices(), 1);
        for bad in
            ["rmat:10:8", "rmat:10:8:1:2", "rmax:1:1:1", "rmat:x:8:1", "rmat:10:-1:1", "rmat:10:8:", "rmat:31:1:1"]
        {
            let err = RmatSpec::parse(bad).unwrap_err();
            assert!(matches!(err, RmatError::BadSpec { .. }), "{bad}: {err}");
        }
        let msg = RmatSpec::parse("rmat:a:1:1").unwrap_err().to_string();
        assert!(msg.contains("SCALE \"a\""), "{msg}");
    }

    #[test]
    fn generates_deterministic_skewed_graph() {
        let spec = RmatSpec::parse("rmat:10:8:1").unwrap();
        let a = spec.generate().unwrap();
        a.validate().unwrap();
        assert_eq!((a.rows(), a.cols()), (1024, 1024));
        assert!(a.nnz() <= 8192 && a.nnz() > 4096, "nnz {}", a.nnz());
        assert!(a.values().iter().all(|&v| v == 1.0));
        assert_eq!(spec.generate().unwrap(), a);
        let other = RmatSpec { seed: 2, ..spec }.generate().unwrap();
        assert_ne!(other, a);
        // Skew: row 0 collects far more than the average degree.
        assert!(a.row_nnz(0) > 5 * a.nnz() / 1024, "row 0 has {}", a.row_nnz(0));
    }

    #[test]
    fn limits() {
        let spec = RmatSpec { scale: 30, degree: 4, seed: 0 };
        assert!(matches!(spec.generate(), Err(RmatError::TooManyEdges { .. })));
        let spec = RmatSpec { scale: 40, degree: 1, seed: 0 };
        assert!(matches!(spec.generate(), Err(RmatError::BadSpec { .. })));
        let empty = RmatSpec::parse("rmat:3:0:0").unwrap().generate().unwrap();
        assert_eq!((empty.rows(), empty.nnz()), (8, 0));
    }
}
