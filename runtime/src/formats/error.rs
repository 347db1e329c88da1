//! The error type shared by every sparse format constructor.

use thiserror::Error;

/// Why a sparse-format constructor or conversion rejected its input.
///
/// `outer` names the compressed dimension a problem was found in ("row", "column",
/// "block row", ...) and `pos` is the position in the flat index/value array, so a
/// message points at the exact entry that is wrong.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FormatError {
    #[error("{what} = {value} is too large: indices are stored as i32, so it must be at most {max}", max = i32::MAX)]
    TooLarge { what: &'static str, value: usize },

    #[error("{what} has length {found}, expected {expected}")]
    LengthMismatch { what: &'static str, expected: usize, found: usize },

    #[error("{ptr}[0] = {found}, expected 0")]
    PtrStart { ptr: &'static str, found: i32 },

    #[error("{ptr} decreases at {outer} {index}: {ptr}[{index}] = {start} > {ptr}[{index} + 1] = {end}")]
    PtrNotMonotone { ptr: &'static str, outer: &'static str, index: usize, start: i32, end: i32 },

    #[error("{ptr} ends at {found}, expected the number of stored entries {expected}")]
    PtrEnd { ptr: &'static str, expected: usize, found: i32 },

    #[error("{outer} {index} is empty, but this format stores only non-empty {outer}s")]
    EmptySegment { outer: &'static str, index: usize },

    #[error("{outer} {index}: {inner} index {value} at position {pos} is out of range 0..{bound}")]
    IndexOutOfRange { outer: &'static str, index: usize, inner: &'static str, pos: usize, value: i64, bound: usize },

    #[error("{outer} {index}: {inner} index {value} at position {pos} is not greater than the previous index {prev} (indices must be sorted and duplicate-free)")]
    Unsorted { outer: &'static str, index: usize, inner: &'static str, pos: usize, value: i64, prev: i64 },

    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter { name: &'static str, value: usize, reason: &'static str },

    #[error("row {row} has {nnz} entries, more than the ELL width {width}")]
    RowTooLong { row: usize, nnz: usize, width: usize },

    #[error("BSR block {block} (block row {block_row}, block column {block_col}) holds {value} at matrix position ({row}, {col}), outside the {rows}x{cols} matrix; padding must be 0")]
    NonzeroPadding {
        block: usize,
        block_row: usize,
        block_col: usize,
        row: usize,
        col: usize,
        value: f32,
        rows: usize,
        cols: usize,
    },

    #[error("hyb partition {part} bucket {bucket}: column {col} at position {pos} lies outside the partition's columns {start}..{end}")]
    ColumnOutsidePartition { part: usize, bucket: usize, pos: usize, col: i32, start: usize, end: usize },

    #[error("a dense array of shape {shape} has {elements} elements, more than the limit {limit}")]
    DenseTooLarge { shape: String, elements: u128, limit: usize },
}
