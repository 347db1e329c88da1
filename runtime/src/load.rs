//! One entry point for "give me a matrix": a Matrix Market path or an R-MAT spec.

use std::path::PathBuf;

use thiserror::Error;

use crate::formats::Csr;
use crate::mtx::{read_matrix_market, MtxError};
use crate::rmat::{RmatError, RmatSpec};

#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: {source}")]
    Mtx { path: PathBuf, source: MtxError },

    #[error(transparent)]
    Rmat(#[from] RmatError),
}

/// Loads `rmat:SCALE:DEGREE:SEED` by generating it, anything else as a Matrix Market file
/// (plain or gzip).
pub fn load_matrix(spec: &str) -> Result<Csr, LoadError> {
    if spec.starts_with("rmat:") {
        return Ok(RmatSpec::parse(spec)?.generate()?);
    }
    read_matrix_market(spec).map_err(|source| LoadError::Mtx { path: PathBuf::from(spec), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_rmat_and_reports_errors() {
        let a = load_matrix("rmat:6:4:3").unwrap();
        assert_eq!(a.rows(), 64);
        assert!(matches!(load_matrix("rmat:6:4"), Err(LoadError::Rmat(_))));
        let err = load_matrix("/nonexistent/m.mtx").unwrap_err();
        assert!(err.to_string().starts_with("/nonexistent/m.mtx: cannot open"), "{err}");
    }

    #[test]
    fn loads_real_file() {
        let Some(path) = crate::graphs::locate_or_skip("cora") else { return };
        let a = load_matrix(&path.to_string_lossy()).unwrap();
        assert_eq!(a.nnz(), 10556);
    }
}
