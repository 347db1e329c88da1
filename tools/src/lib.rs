//! sptir's command-line tools: `sptir-opt` (an mlir-opt over sptir's and
//! upstream MLIR's dialects and passes) and the pieces they share.

pub mod compile;
pub mod context;
pub mod diagnostics;
pub mod kernels;
pub mod opt;
pub mod programs;
