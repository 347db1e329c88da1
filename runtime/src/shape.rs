//! Operand shape checks for the kernels. Dense operands are flat row-major `f32` buffers,
//! so a shape mistake shows up as a wrong length; these checks turn it into an error that
//! names the operation, the operand and the expected shape, before any kernel runs.
//!
//! Each `check_*` validates the inputs and returns the expected output length; pass the
//! output buffer's length to [`check_output`] where the caller provides one.

use thiserror::Error;

use crate::formats::{Bsr, Csf, Csr};

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ShapeError {
    #[error("{op}: {operand} has {found} elements, expected {expected} ({shape})")]
    Length { op: &'static str, operand: &'static str, expected: usize, found: usize, shape: String },

    #[error("{op}: the size of {operand} ({shape}) overflows usize")]
    Overflow { op: &'static str, operand: &'static str, shape: String },

    #[error("{op}: relation {relation} is {rows}x{cols}, but relation 0 is {rows0}x{cols0}")]
    RelationShape { op: &'static str, relation: usize, rows: usize, cols: usize, rows0: usize, cols0: usize },

    #[error("{op}: at least one relation is required")]
    NoRelations { op: &'static str },
}

/// Expected element count of a row-major array with the named dimensions.
fn expected_len(
    op: &'static str,
    operand: &'static str,
    dims: &[(&str, usize)],
) -> Result<(usize, String), ShapeError> {
    let names: Vec<&str> = dims.iter().map(|d| d.0).collect();
    let sizes: Vec<String> = dims.iter().map(|d| d.1.to_string()).collect();
    let shape = format!("{} = {}", names.join(" x "), sizes.join(" x "));
    let len = dims.iter().try_fold(1usize, |acc, d| acc.checked_mul(d.1)).ok_or_else(|| ShapeError::Overflow {
        op,
        operand,
        shape: shape.clone(),
    })?;
    Ok((len, shape))
}

fn check_operand(
    op: &'static str,
    operand: &'static str,
    dims: &[(&str, usize)],
    found: usize,
) -> Result<usize, ShapeError> {
    let (expected, shape) = expected_len(op, operand, dims)?;
    if expected != found {
        return Err(ShapeError::Length { op, operand, expected, found, shape });
    }
    Ok(expected)
}

/// Checks an output buffer against the length a `check_*` function returned.
pub fn check_output(op: &'static str, expected: usize, found: usize) -> Result<(), ShapeError> {
    if expected != found {
        return Err(ShapeError::Length {
            op,
            operand: "output",
            expected,
            found,
            shape: "as computed from the inputs".to_string(),
        });
    }
    Ok(())
}

/// SpMM `Y = A X` for any `rows x cols` sparse A: X is `cols x feat`, Y is `rows x feat`.
pub fn check_spmm(rows: usize, cols: usize, feat: usize, x_len: usize) -> Result<usize, ShapeError> {
    check_operand("spmm", "X", &[("cols", cols), ("feat", feat)], x_len)?;
    expected_len("spmm", "Y", &[("rows", rows), ("feat", feat)]).map(|e| e.0)
}

/// SDDMM over a `rows x cols` sparse A with `nnz` entries: X is `rows x feat`, Y is
/// `cols x feat` (so both are indexed by the entry's row/column and read row-wise),
/// output has one value per stored entry.
pub fn check_sddmm(
    rows: usize,
    cols: usize,
    nnz: usize,
    feat: usize,
    x_len: usize,
    y_len: usize,
) -> Result<usize, ShapeError> {
    check_operand("sddmm", "X", &[("rows", rows), ("feat", feat)], x_len)?;
    check_operand("sddmm", "Y", &[("cols", cols), ("feat", feat)], y_len)?;
    Ok(nnz)
}

/// BSR SpMM with the matrix's logical shape: X is `cols x feat`, Y is `rows x feat`.
pub fn check_bsr_spmm(a: &Bsr, feat: usize, x_len: usize) -> Result<usize, ShapeError> {
    check_operand("bsr_spmm", "X", &[("cols", a.cols()), ("feat", feat)], x_len)?;
    expected_len("bsr_spmm", "Y", &[("rows", a.rows()), ("feat", feat)]).map(|e| e.0)
}

/// RGMS: all relations share one `rows x cols` shape; W is `relations x feat_out x feat_in`,
/// X is `cols x feat_in`, Y is `rows x feat_out`.
pub fn check_rgms(
    relations: &[Csr],
    feat_in: usize,
    feat_out: usize,
    w_len: usize,
    x_len: usize,
) -> Result<usize, ShapeError> {
    const OP: &str = "rgms";
    let Some(first) = relations.first() else {
        return Err(ShapeError::NoRelations { op: OP });
    };
    let (rows0, cols0) = (first.rows(), first.cols());
    for (relation, a) in relations.iter().enumerate() {
        if (a.rows(), a.cols()) != (rows0, cols0) {
            return Err(ShapeError::RelationShape { op: OP, relation, rows: a.rows(), cols: a.cols(), rows0, cols0 });
        }
    }
    check_operand(OP, "W", &[("relations", relations.len()), ("feat_out", feat_out), ("feat_in", feat_in)], w_len)?;
    check_operand(OP, "X", &[("cols", cols0), ("feat_in", feat_in)], x_len)?;
    expected_len(OP, "Y", &[("rows", rows0), ("feat_out", feat_out)]).map(|e| e.0)
}

/// CSF TTM along mode k: B is `dims[2] x l`, output is `num_fibers x l` (one row per
/// (i, j) fiber, in storage order).
pub fn check_csf_ttm(a: &Csf, l: usize, b_len: usize) -> Result<usize, ShapeError> {
    check_operand("csf_ttm", "B", &[("dims[2]", a.dims()[2]), ("l", l)], b_len)?;
    expected_len("csf_ttm", "Y", &[("fibers", a.num_fibers()), ("l", l)]).map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sample;

    #[test]
    fn spmm_and_sddmm() {
        assert_eq!(check_spmm(4, 5, 3, 15), Ok(12));
        let err = check_spmm(4, 5, 3, 12).unwrap_err();
        assert_eq!(err.to_string(), "spmm: X has 12 elements, expected 15 (cols x feat = 5 x 3)");
        assert!(matches!(check_spmm(usize::MAX, 2, 2, 4), Err(ShapeError::Overflow { operand: "Y", .. })));
        assert_eq!(check_sddmm(4, 5, 10, 2, 8, 10), Ok(10));
        assert!(matches!(check_sddmm(4, 5, 10, 2, 10, 10), Err(ShapeError::Length { operand: "X", .. })));
        assert!(matches!(check_sddmm(4, 5, 10, 2, 8, 8), Err(ShapeError::Length { operand: "Y", .. })));
        assert!(check_output("spmm", 12, 12).is_ok());
        assert!(check_output("spmm", 12, 11).is_err());
    }

    #[test]
    fn bsr_rgms_ttm() {
        let bsr = Bsr::from_csr(&sample(), 2).unwrap();
        assert_eq!(check_bsr_spmm(&bsr, 2, 10), Ok(8));
        assert!(check_bsr_spmm(&bsr, 2, 12).is_err());

        let a = sample();
        assert!(matches!(check_rgms(&[], 1, 1, 0, 0), Err(ShapeError::NoRelations { .. })));
        assert_eq!(check_rgms(&[a.clone(), a.clone()], 3, 2, 12, 15), Ok(8));
        assert!(matches!(
            check_rgms(std::slice::from_ref(&a), 3, 2, 12, 15),
            Err(ShapeError::Length { operand: "W", .. })
        ));
        assert!(matches!(
            check_rgms(std::slice::from_ref(&a), 3, 2, 6, 14),
            Err(ShapeError::Length { operand: "X", .. })
        ));
        assert!(matches!(
            check_rgms(&[a.clone(), a.transpose()], 3, 2, 12, 15),
            Err(ShapeError::RelationShape { relation: 1, .. })
        ));

        let t = Csf::from_coo([2, 3, 4], &[(0, 0, 1, 1.0), (1, 2, 3, 1.0), (1, 2, 0, 1.0)]).unwrap();
        assert_eq!(check_csf_ttm(&t, 5, 20), Ok(10));
        assert!(check_csf_ttm(&t, 5, 15).is_err());
    }
}
