//! Runtime support for sptir kernels: sparse formats, Matrix Market input, synthetic
//! R-MAT graphs, float64 reference implementations and operand shape checks.
//!
//! Only the executors touch MLIR, and only to run an already compiled module; the rest
//! is plain data handling that the tools and tests build on.

pub mod cpu;
pub mod cuda;
pub mod cusparse;
pub mod formats;
pub mod graphs;
pub mod load;
pub mod memory;
pub mod mtx;
pub mod random;
pub mod reference;
pub mod rmat;
pub mod shape;

#[cfg(test)]
mod no_panic_tests;

pub use formats::{Bsr, Coo, Csc, Csf, Csr, Dcsr, Ell, FormatError, Hyb, HybBucket, ELL_PAD_COL};
pub use load::{load_matrix, LoadError};
pub use mtx::{parse_matrix_market, read_matrix_market, MtxError};
pub use random::{random_dense, randomize_values, SplitMix64};
pub use reference::{relative_error, ErrorSums};
pub use rmat::{RmatError, RmatSpec};
pub use shape::ShapeError;
