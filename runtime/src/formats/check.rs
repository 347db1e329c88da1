//! Validation helpers shared by the format constructors.
//!
//! Every format with a compressed dimension (CSR, CSC, BSR, DCSR, CSF levels) checks the
//! same things, so the checks live here once and each format passes its own names in so
//! that messages speak its language ("block row", "fiber", ...).

use super::FormatError;

/// Largest dense array `to_dense` will allocate (4 GiB of f32); dense output exists for
/// tests and small examples, and a bigger request is almost certainly a mistake.
pub const MAX_TO_DENSE_ELEMENTS: usize = 1 << 30;

/// A dimension or count must be addressable by the i32 indices the kernels use.
pub(crate) fn fits_i32(what: &'static str, value: usize) -> Result<(), FormatError> {
    if value > i32::MAX as usize {
        return Err(FormatError::TooLarge { what, value });
    }
    Ok(())
}

pub(crate) fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), FormatError> {
    if expected != found {
        return Err(FormatError::LengthMismatch { what, expected, found });
    }
    Ok(())
}

/// Names used in the messages of one compressed level.
#[derive(Clone, Copy)]
pub(crate) struct Level {
    /// Name of the pointer array, e.g. "indptr".
    pub ptr: &'static str,
    /// Name of one segment, e.g. "row".
    pub outer: &'static str,
    /// Name of the stored index, e.g. "column".
    pub inner: &'static str,
}

/// Checks a pointer array: length `segments + 1`, starts at 0, never decreases (or strictly
/// increases when `non_empty`), ends at `nnz`. Afterwards every value lies in `0..=nnz`, so
/// slicing with it cannot go out of bounds.
pub(crate) fn check_ptr(
    level: Level,
    ptr: &[i32],
    segments: usize,
    nnz: usize,
    non_empty: bool,
) -> Result<(), FormatError> {
    check_len(level.ptr, segments + 1, ptr.len())?;
    fits_i32("number of stored entries", nnz)?;
    if ptr[0] != 0 {
        return Err(FormatError::PtrStart { ptr: level.ptr, found: ptr[0] });
    }
    for (index, pair) in ptr.windows(2).enumerate() {
        if pair[1] < pair[0] {
            return Err(FormatError::PtrNotMonotone {
                ptr: level.ptr,
                outer: level.outer,
                index,
                start: pair[0],
                end: pair[1],
            });
        }
        if non_empty && pair[1] == pair[0] {
            return Err(FormatError::EmptySegment { outer: level.outer, index });
        }
    }
    if ptr[segments] as usize != nnz {
        return Err(FormatError::PtrEnd { ptr: level.ptr, expected: nnz, found: ptr[segments] });
    }
    Ok(())
}

/// Checks the indices of each segment of an already validated pointer array: each in
/// `0..bound`, and strictly increasing within a segment when `sorted`.
pub(crate) fn check_segments(
    level: Level,
    ptr: &[i32],
    indices: &[i32],
    bound: usize,
    sorted: bool,
) -> Result<(), FormatError> {
    for (segment, pair) in ptr.windows(2).enumerate() {
        let (start, end) = (pair[0] as usize, pair[1] as usize);
        let Some(slice) = indices.get(start..end) else {
            // check_ptr ran first, so this only triggers if a caller forgot it.
            return Err(FormatError::LengthMismatch { what: level.ptr, expected: end, found: indices.len() });
        };
        check_run(level, segment, start, slice, bound, sorted)?;
    }
    Ok(())
}

/// Checks one run of indices that starts at flat position `first_pos`.
pub(crate) fn check_run(
    level: Level,
    segment: usize,
    first_pos: usize,
    run: &[i32],
    bound: usize,
    sorted: bool,
) -> Result<(), FormatError> {
    let mut prev: Option<i32> = None;
    for (offset, &value) in run.iter().enumerate() {
        let pos = first_pos + offset;
        if value < 0 || value as usize >= bound {
            return Err(FormatError::IndexOutOfRange {
                outer: level.outer,
                index: segment,
                inner: level.inner,
                pos,
                value: value.into(),
                bound,
            });
        }
        if let Some(p) = prev {
            if sorted && value <= p {
                return Err(FormatError::Unsorted {
                    outer: level.outer,
                    index: segment,
                    inner: level.inner,
                    pos,
                    value: value.into(),
                    prev: p.into(),
                });
            }
        }
        prev = Some(value);
    }
    Ok(())
}

/// Number of elements of a dense array with the given shape, refusing absurd sizes.
pub(crate) fn dense_len(shape: &[usize]) -> Result<usize, FormatError> {
    let elements: u128 = shape.iter().map(|&d| d as u128).product();
    if elements > MAX_TO_DENSE_ELEMENTS as u128 {
        let shape = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x");
        return Err(FormatError::DenseTooLarge { shape, elements, limit: MAX_TO_DENSE_ELEMENTS });
    }
    Ok(elements as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: Level = Level { ptr: "indptr", outer: "row", inner: "column" };

    #[test]
    fn ptr_checks() {
        assert!(check_ptr(L, &[0, 1, 3], 2, 3, false).is_ok());
        assert!(matches!(
            check_ptr(L, &[0, 1], 2, 1, false),
            Err(FormatError::LengthMismatch { expected: 3, found: 2, .. })
        ));
        assert!(matches!(check_ptr(L, &[1, 1, 3], 2, 3, false), Err(FormatError::PtrStart { found: 1, .. })));
        assert!(matches!(
            check_ptr(L, &[0, 2, 1], 2, 1, false),
            Err(FormatError::PtrNotMonotone { index: 1, start: 2, end: 1, .. })
        ));
        assert!(matches!(
            check_ptr(L, &[0, 1, 2], 2, 3, false),
            Err(FormatError::PtrEnd { expected: 3, found: 2, .. })
        ));
        assert!(matches!(check_ptr(L, &[0, 0, 2], 2, 2, true), Err(FormatError::EmptySegment { index: 0, .. })));
    }

    #[test]
    fn segment_checks() {
        assert!(check_segments(L, &[0, 2, 3], &[0, 2, 1], 3, true).is_ok());
        let err = check_segments(L, &[0, 2, 3], &[0, 3, 1], 3, true).unwrap_err();
        assert_eq!(err.to_string(), "row 0: column index 3 at position 1 is out of range 0..3");
        let err = check_segments(L, &[0, 2, 3], &[1, 1, 1], 3, true).unwrap_err();
        assert!(matches!(err, FormatError::Unsorted { index: 0, pos: 1, .. }));
        // Unsorted is fine when not required, duplicates too.
        assert!(check_segments(L, &[0, 2, 3], &[1, 1, 1], 3, false).is_ok());
        assert!(check_segments(L, &[0, 1], &[-1], 3, false).is_err());
    }

    #[test]
    fn dense_len_limits() {
        assert_eq!(dense_len(&[3, 4]).unwrap(), 12);
        assert_eq!(dense_len(&[]).unwrap(), 1);
        assert!(matches!(dense_len(&[usize::MAX, usize::MAX]), Err(FormatError::DenseTooLarge { .. })));
    }

    #[test]
    fn i32_limit() {
        assert!(fits_i32("rows", i32::MAX as usize).is_ok());
        assert!(fits_i32("rows", i32::MAX as usize + 1).is_err());
    }
}
