//! Matrix Market reader (`coordinate` matrices, plain or gzip-compressed).
//!
//! Supported: fields `real`, `integer`, `pattern`; symmetries `general`, `symmetric` and
//! `skew-symmetric` (one triangle, lower or upper, is mirrored, the diagonal is not duplicated; a
//! skew-symmetric file may not store the diagonal, which is zero).
//! The result is always a canonical [`Csr`]: rows sorted, duplicates summed. For
//! `pattern` files every stored value is 1.0, and a repeated coordinate stays 1.0 (a
//! pattern has no multiplicities).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;
use thiserror::Error;

use crate::formats::{Coo, Csr, FormatError};

/// Why a Matrix Market file could not be read. Line numbers are 1-based and count every
/// line of the (decompressed) text, comments included.
#[derive(Debug, Error)]
pub enum MtxError {
    #[error("cannot open {path}: {source}")]
    Open { path: PathBuf, source: io::Error },

    #[error("line {line}: read error: {source}")]
    Read { line: usize, source: io::Error },

    #[error("the gzip data is corrupt or cut short: {source}")]
    Gzip { source: io::Error },

    #[error("line {line}: {what} {token:?} is out of range {range}")]
    OutOfRange { line: usize, what: &'static str, token: String, range: String },

    #[error("line {line}: bad banner {found:?}: expected \"%%MatrixMarket matrix coordinate <field> <symmetry>\"")]
    BadBanner { line: usize, found: String },

    #[error("line {line}: unsupported {what} {found:?} (supported: {supported})")]
    Unsupported { line: usize, what: &'static str, found: String, supported: &'static str },

    #[error("the file ends at line {line} before the size line \"rows cols entries\"")]
    MissingSizeLine { line: usize },

    #[error("line {line}: bad size line {found:?}: expected three non-negative integers \"rows cols entries\"")]
    BadSizeLine { line: usize, found: String },

    #[error("line {line}: {what} = {value} is too large (at most {max})", max = i32::MAX)]
    TooLarge { line: usize, what: &'static str, value: u64 },

    #[error("line {line}: a {symmetry} matrix must be square, but the size line says {rows}x{cols}")]
    NotSquare { line: usize, symmetry: &'static str, rows: usize, cols: usize },

    #[error("line {line}: expected {expected} fields ({layout}), found {found}")]
    FieldCount { line: usize, expected: usize, found: usize, layout: &'static str },

    #[error("line {line}: {what} {token:?} is not a valid number")]
    NotNumeric { line: usize, what: &'static str, token: String },

    #[error("line {line}: value {token:?} is not a finite 32-bit float")]
    NotFinite { line: usize, token: String },

    #[error("line {line}: a pattern matrix cannot be skew-symmetric (its entries have no sign to flip)")]
    PatternSkew { line: usize },

    #[error("line {line}: {what} index {index} is out of range 1..={bound}")]
    IndexOutOfRange { line: usize, what: &'static str, index: i64, bound: usize },

    #[error("the file ends at line {line} after {found} of the {expected} entries announced by the size line")]
    TooFewEntries { line: usize, expected: usize, found: usize },

    #[error("line {line}: longer than {max} bytes, which no data line needs")]
    LineTooLong { line: usize, max: usize },

    #[error("line {line}: a skew-symmetric matrix has a zero diagonal, but the entry is on it")]
    SkewDiagonal { line: usize },

    #[error(
        "line {line}: a {symmetry} file stores one triangle, mirrored on reading, but this entry is {side} \
         the diagonal and line {first} is on the other side: each pair would be counted twice"
    )]
    BothTriangles { line: usize, symmetry: &'static str, side: &'static str, first: usize },

    #[error("line {line}: more entries than the {expected} announced by the size line")]
    TooManyEntries { line: usize, expected: usize },

    #[error(
        "a {rows}x{cols} matrix with up to {entries} entries needs at least {needed} MiB to convert, \
         and this process may allocate {available} MiB (free memory, ulimit -v, cgroup limit)"
    )]
    OutOfMemory { rows: usize, cols: usize, entries: usize, needed: u64, available: u64 },

    #[error(
        "the entries at ({row}, {col}) (1-based, with their mirror images) sum to {sum}, not a finite 32-bit float"
    )]
    SumNotFinite { row: usize, col: usize, sum: f32 },

    #[error(transparent)]
    Format(#[from] FormatError),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Real,
    Integer,
    Pattern,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Symmetry {
    General,
    Symmetric,
    SkewSymmetric,
}

/// Reads a `.mtx` or gzip-compressed `.mtx.gz` file; gzip is recognised by its magic bytes,
/// not by the file name.
pub fn read_matrix_market(path: impl AsRef<Path>) -> Result<Csr, MtxError> {
    let path = path.as_ref();
    let open = |source| MtxError::Open { path: path.to_path_buf(), source };
    let file = File::open(path).map_err(open)?;
    // Linux opens a directory for reading; its first read fails.
    if file.metadata().map_err(open)?.is_dir() {
        return Err(open(io::Error::new(io::ErrorKind::InvalidInput, "it is a directory, not a file")));
    }
    parse_matrix_market(file)
}

/// Parses Matrix Market text, or gzip-compressed text, from any reader.
pub fn parse_matrix_market<R: Read>(reader: R) -> Result<Csr, MtxError> {
    let mut buffered = BufReader::new(reader);
    let head = buffered.fill_buf().map_err(|source| MtxError::Read { line: 1, source })?;
    if !head.starts_with(&[0x1f, 0x8b]) {
        return parse_text(buffered);
    }
    let mut text = BufReader::new(GzMembers { member: Some(GzDecoder::new(buffered)) });
    let gzip = |error| match error {
        MtxError::Read { source, .. } => MtxError::Gzip { source },
        other => other,
    };
    match parse_text(&mut text).map_err(gzip) {
        // Corrupt data decodes to garbage before the member's checksum
        // says so at its end: the checksum's verdict explains the garbage.
        Err(error @ (MtxError::Gzip { .. } | MtxError::OutOfMemory { .. } | MtxError::Format(_))) => Err(error),
        Err(error) => match io::copy(&mut text, &mut io::sink()) {
            Err(source) => Err(MtxError::Gzip { source }),
            Ok(_) => Err(error),
        },
        result => result,
    }
}

/// The text of a gzip file's members, one after another, as `gzip -d`
/// reads them: zero bytes after the last member (tape and block padding)
/// end the text; other bytes there are an error, not a header to parse.
struct GzMembers<R: BufRead> {
    member: Option<GzDecoder<R>>,
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = self.member.as_mut() else { return Ok(0) };
            let read = member.read(buf)?;
            if read > 0 || buf.is_empty() {
                return Ok(read);
            }
            let mut rest = self.member.take().map(GzDecoder::into_inner).expect("a member was being read");
            if rest.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
                self.member = Some(GzDecoder::new(rest));
                continue;
            }
            loop {
                let bytes = rest.fill_buf()?;
                if bytes.is_empty() {
                    return Ok(0);
                }
                if bytes.iter().any(|&b| b != 0) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "bytes after the gzip data that are neither another gzip member nor zero padding",
                    ));
                }
                let used = bytes.len();
                rest.consume(used);
            }
        }
    }
}

/// Longest data line accepted: three numbers need far less, and a line
/// read whole must not exhaust memory.
const MAX_LINE_BYTES: usize = 1 << 20;

/// Line reader that keeps count for error messages. Lines are bytes
/// until proven text: a comment in Latin-1 is still a comment, and a
/// data line that is not UTF-8 fails to parse as numbers.
struct Lines<R> {
    reader: R,
    line: usize,
    bytes: Vec<u8>,
    buf: String,
}

impl<R: BufRead> Lines<R> {
    /// The next line without its line terminator, or `None` at end of input.
    /// A comment longer than [`MAX_LINE_BYTES`] is kept only up to there.
    fn next(&mut self) -> Result<Option<&str>, MtxError> {
        self.bytes.clear();
        let line = self.line + 1;
        let read = (&mut self.reader)
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut self.bytes)
            .map_err(|source| MtxError::Read { line, source })?;
        if read == 0 {
            return Ok(None);
        }
        self.line = line;
        if read == MAX_LINE_BYTES && !self.bytes.ends_with(b"\n") {
            if !self.bytes.trim_ascii_start().starts_with(b"%") {
                return Err(MtxError::LineTooLong { line, max: MAX_LINE_BYTES });
            }
            self.skip_rest_of_line()?;
        }
        self.buf = String::from_utf8_lossy(&self.bytes).into_owned();
        Ok(Some(self.buf.trim_end_matches(['\n', '\r'])))
    }

    /// Consumes input up to and including the next line break, keeping none of it.
    fn skip_rest_of_line(&mut self) -> Result<(), MtxError> {
        loop {
            let chunk = self.reader.fill_buf().map_err(|source| MtxError::Read { line: self.line, source })?;
            if chunk.is_empty() {
                return Ok(());
            }
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (chunk.len(), false),
            };
            self.reader.consume(used);
            if done {
                return Ok(());
            }
        }
    }

    /// The next line that is neither blank nor a `%` comment, with its line number.
    fn next_data(&mut self) -> Result<Option<(usize, &str)>, MtxError> {
        loop {
            // Re-borrowing self.buf after the loop keeps the borrow checker happy.
            match self.next()? {
                None => return Ok(None),
                Some(l) if l.trim().is_empty() || l.trim_start().starts_with('%') => continue,
                Some(_) => break,
            }
        }
        Ok(Some((self.line, self.buf.trim_end_matches(['\n', '\r']))))
    }
}

/// Text from the file quoted in a message: its start only, so that a
/// file with no line breaks (or CR-only ones) is not echoed whole.
fn excerpt(text: &str) -> String {
    const LIMIT: usize = 80;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

fn parse_banner(line: usize, text: &str) -> Result<(Field, Symmetry), MtxError> {
    let bad = || MtxError::BadBanner { line, found: excerpt(text) };
    // Editors on Windows may start the file with a byte-order mark.
    let tokens: Vec<&str> = text.strip_prefix('\u{feff}').unwrap_or(text).split_whitespace().collect();
    if tokens.len() != 5 || tokens[0] != "%%MatrixMarket" {
        return Err(bad());
    }
    if !tokens[1].eq_ignore_ascii_case("matrix") {
        return Err(MtxError::Unsupported { line, what: "object", found: excerpt(tokens[1]), supported: "matrix" });
    }
    if !tokens[2].eq_ignore_ascii_case("coordinate") {
        return Err(MtxError::Unsupported { line, what: "format", found: excerpt(tokens[2]), supported: "coordinate" });
    }
    let field = match tokens[3].to_ascii_lowercase().as_str() {
        "real" => Field::Real,
        "integer" => Field::Integer,
        "pattern" => Field::Pattern,
        _ => {
            return Err(MtxError::Unsupported {
                line,
                what: "field",
                found: excerpt(tokens[3]),
                supported: "real, integer, pattern",
            })
        }
    };
    let symmetry = match tokens[4].to_ascii_lowercase().as_str() {
        "general" => Symmetry::General,
        "symmetric" => Symmetry::Symmetric,
        "skew-symmetric" => Symmetry::SkewSymmetric,
        _ => {
            return Err(MtxError::Unsupported {
                line,
                what: "symmetry",
                found: excerpt(tokens[4]),
                supported: "general, symmetric, skew-symmetric",
            })
        }
    };
    if field == Field::Pattern && symmetry == Symmetry::SkewSymmetric {
        return Err(MtxError::PatternSkew { line });
    }
    Ok((field, symmetry))
}

fn parse_size(line: usize, text: &str) -> Result<(usize, usize, usize), MtxError> {
    let bad = || MtxError::BadSizeLine { line, found: excerpt(text) };
    let range = || format!("0..={}", i32::MAX);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != 3 {
        return Err(bad());
    }
    let mut parsed = [0usize; 3];
    for ((slot, token), what) in parsed.iter_mut().zip(&tokens).zip(["rows", "cols", "entries"]) {
        let value: u64 = match token.parse() {
            Ok(value) => value,
            Err(_) if is_digits(token) => {
                return Err(MtxError::OutOfRange { line, what, token: excerpt(token), range: range() })
            }
            Err(_) => return Err(bad()),
        };
        if value > i32::MAX as u64 {
            return Err(MtxError::TooLarge { line, what, value });
        }
        *slot = value as usize;
    }
    Ok((parsed[0], parsed[1], parsed[2]))
}

fn parse_index(line: usize, what: &'static str, token: &str, bound: usize) -> Result<i32, MtxError> {
    let index: i64 = token.parse().map_err(|_| match is_digits(token.strip_prefix(['-', '+']).unwrap_or(token)) {
        true => MtxError::OutOfRange { line, what, token: excerpt(token), range: format!("1..={bound}") },
        false => MtxError::NotNumeric { line, what, token: excerpt(token) },
    })?;
    if index < 1 || index as u64 > bound as u64 {
        return Err(MtxError::IndexOutOfRange { line, what, index, bound });
    }
    // bound <= i32::MAX was checked on the size line.
    Ok((index - 1) as i32)
}

/// A decimal integer whose only fault can be its size.
fn is_digits(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

fn parse_value(line: usize, field: Field, token: &str) -> Result<f32, MtxError> {
    let not_numeric = || MtxError::NotNumeric { line, what: "value", token: excerpt(token) };
    match field {
        Field::Pattern => Ok(1.0),
        Field::Integer => match token.parse::<i64>() {
            Ok(value) => Ok(value as f32),
            // An integer past i64 is still one; as an f32 it is finite up
            // to about 3.4e38.
            Err(_) if is_digits(token.strip_prefix(['-', '+']).unwrap_or(token)) => {
                let value = token.parse::<f64>().map_err(|_| not_numeric())? as f32;
                value.is_finite().then_some(value).ok_or_else(|| MtxError::NotFinite { line, token: excerpt(token) })
            }
            Err(_) => Err(not_numeric()),
        },
        Field::Real => {
            // Fortran writes exponents with D (1.5D+03), as some
            // collections' files still do.
            let value = token
                .parse::<f64>()
                .or_else(|_| token.replace(['D', 'd'], "E").parse::<f64>())
                .map(|v| v as f32)
                .map_err(|_| not_numeric())?;
            // "nan", "inf" and 1e400 parse, but are no matrix entries.
            value.is_finite().then_some(value).ok_or_else(|| MtxError::NotFinite { line, token: excerpt(token) })
        }
    }
}

/// Bytes reading and converting `entries` entries takes: the entry
/// arrays (i32, i32, f32), then what `Coo::to_csr` allocates (two row
/// counters (usize) and the row pointers (i32) per row, a bucketed copy
/// and the output per entry).
fn load_bytes(rows: usize, entries: usize) -> u64 {
    (rows as u64 + 1) * 20 + entries as u64 * 28
}

/// Whether `entries` of a matrix announced with up to `most` fit.
fn check_memory(rows: usize, cols: usize, entries: usize, most: usize, available: Option<u64>) -> Result<(), MtxError> {
    let needed = load_bytes(rows, entries);
    match available {
        Some(available) if needed > available => {
            Err(MtxError::OutOfMemory { rows, cols, entries: most, needed: needed >> 20, available: available >> 20 })
        }
        _ => Ok(()),
    }
}

/// The entry arrays of a file being read, grown only after checking that
/// the file's matrix still fits: a small gzip file may expand to more
/// entries than memory holds.
struct Entries {
    rows: usize,
    cols: usize,
    /// Entries the size line allows, mirrored ones included.
    most: usize,
    row_idx: Vec<i32>,
    col_idx: Vec<i32>,
    values: Vec<f32>,
    /// [`crate::memory::available_memory`], but for tests.
    available: fn() -> Option<u64>,
}

impl Entries {
    fn new(rows: usize, cols: usize, most: usize) -> Self {
        let available = crate::memory::available_memory;
        Entries { rows, cols, most, row_idx: Vec::new(), col_idx: Vec::new(), values: Vec::new(), available }
    }

    fn push(&mut self, r: i32, c: i32, v: f32) -> Result<(), MtxError> {
        if self.values.len() == self.values.capacity() {
            let target = (self.values.len() * 2).max(1024).min(self.most.max(self.values.len() + 1));
            check_memory(self.rows, self.cols, target, self.most, (self.available)())?;
            let additional = target - self.values.len();
            let (rows, cols) = (self.rows, self.cols);
            let out_of_memory = |_| MtxError::OutOfMemory {
                rows,
                cols,
                entries: self.most,
                needed: load_bytes(rows, target) >> 20,
                available: (self.available)().unwrap_or(0) >> 20,
            };
            self.row_idx.try_reserve_exact(additional).map_err(out_of_memory)?;
            self.col_idx.try_reserve_exact(additional).map_err(out_of_memory)?;
            self.values.try_reserve_exact(additional).map_err(out_of_memory)?;
        }
        self.row_idx.push(r);
        self.col_idx.push(c);
        self.values.push(v);
        Ok(())
    }
}

fn parse_text<R: BufRead>(reader: R) -> Result<Csr, MtxError> {
    let mut lines = Lines { reader, line: 0, bytes: Vec::new(), buf: String::new() };
    let banner = lines.next()?.unwrap_or("").to_string();
    let (field, symmetry) = parse_banner(1, &banner)?;

    let Some((size_line, size_text)) = lines.next_data()? else {
        return Err(MtxError::MissingSizeLine { line: lines.line });
    };
    let (rows, cols, entries) = parse_size(size_line, size_text)?;
    let symmetry_name = match symmetry {
        Symmetry::General => "general",
        Symmetry::Symmetric => "symmetric",
        Symmetry::SkewSymmetric => "skew-symmetric",
    };
    if symmetry != Symmetry::General && rows != cols {
        return Err(MtxError::NotSquare { line: size_line, symmetry: symmetry_name, rows, cols });
    }
    let (expected_fields, layout) = match field {
        Field::Pattern => (2, "row col"),
        _ => (3, "row col value"),
    };

    let most = entries * if symmetry == Symmetry::General { 1 } else { 2 };
    let mut stored = Entries::new(rows, cols, most);
    let mut found = 0usize;
    // The line of the first entry off the diagonal, and whether it is below.
    let mut triangle: Option<(usize, bool)> = None;
    while let Some((line, text)) = lines.next_data()? {
        if found == entries {
            return Err(MtxError::TooManyEntries { line, expected: entries });
        }
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != expected_fields {
            return Err(MtxError::FieldCount { line, expected: expected_fields, found: tokens.len(), layout });
        }
        let r = parse_index(line, "row", tokens[0], rows)?;
        let c = parse_index(line, "column", tokens[1], cols)?;
        let v = match tokens.get(2) {
            Some(t) => parse_value(line, field, t)?,
            None => 1.0,
        };
        if r == c && symmetry == Symmetry::SkewSymmetric {
            return Err(MtxError::SkewDiagonal { line });
        }
        if r != c && symmetry != Symmetry::General {
            match triangle {
                None => triangle = Some((line, r > c)),
                Some((first, below)) if below != (r > c) => {
                    let symmetry = if symmetry == Symmetry::Symmetric { "symmetric" } else { "skew-symmetric" };
                    let side = if r > c { "below" } else { "above" };
                    return Err(MtxError::BothTriangles { line, symmetry, side, first });
                }
                Some(_) => {}
            }
        }
        stored.push(r, c, v)?;
        if r != c {
            match symmetry {
                Symmetry::General => {}
                Symmetry::Symmetric => stored.push(c, r, v)?,
                Symmetry::SkewSymmetric => stored.push(c, r, -v)?,
            }
        }
        found += 1;
    }
    if found < entries {
        return Err(MtxError::TooFewEntries { line: lines.line, expected: entries, found });
    }

    // The size line may declare dimensions far beyond the entries; the
    // conversion's per-row arrays would then exhaust memory and abort.
    check_memory(rows, cols, stored.values.len(), stored.values.len(), crate::memory::available_memory())?;
    let mut csr = Coo::new(rows, cols, stored.row_idx, stored.col_idx, stored.values)?.to_csr();
    if field == Field::Pattern {
        // Summing duplicates gave 2.0 etc.; a pattern only says "present".
        csr.values_mut().fill(1.0);
    }
    // Each value was finite; duplicates summed may not be.
    if let Some(p) = csr.values().iter().position(|v| !v.is_finite()) {
        let row = csr.indptr().partition_point(|&start| start as usize <= p) - 1;
        return Err(MtxError::SumNotFinite { row: row + 1, col: csr.indices()[p] as usize + 1, sum: csr.values()[p] });
    }
    Ok(csr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn parse(text: &str) -> Result<Csr, MtxError> {
        parse_matrix_market(text.as_bytes())
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        enc.finish().unwrap()
    }

    const GENERAL: &str = "%%MatrixMarket matrix coordinate real general\n\
        % a comment\n\
        %another\n\
        \n\
        3 4 5\n\
        3 1 1.5\n\
        1 4 -2e1\n\
        1 2 3\n\
        % comment between entries\n\
        3 1 0.5\n\
        2 2 7\n";

    #[test]
    fn general_real_sorted_and_summed() {
        let a = parse(GENERAL).unwrap();
        a.validate().unwrap();
        assert_eq!((a.rows(), a.cols()), (3, 4));
        assert_eq!(a.indptr(), &[0, 2, 3, 4]);
        assert_eq!(a.indices(), &[1, 3, 1, 0]);
        assert_eq!(a.values(), &[3.0, -20.0, 7.0, 2.0]);
    }

    #[test]
    fn gzip_and_crlf() {
        let plain = parse(GENERAL).unwrap();
        assert_eq!(parse_matrix_market(&gzip(GENERAL)[..]).unwrap(), plain);
        assert_eq!(parse(&GENERAL.replace('\n', "\r\n")).unwrap(), plain);
    }

    #[test]
    fn symmetric_pattern_keeps_single_diagonal() {
        let a = parse("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n1 1\n2 1\n3 2\n3 3\n").unwrap();
        assert_eq!(a.nnz(), 6);
        assert_eq!(a.to_dense().unwrap(), vec![1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        assert_eq!(a.transpose(), a);
    }

    #[test]
    fn integers_past_i64_are_read_or_called_too_large() {
        let a = parse("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 -99999999999999999999\n").unwrap();
        assert_eq!(a.values(), &[-1e20]);
        let huge = format!("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1{}\n", "0".repeat(40));
        assert!(matches!(parse(&huge), Err(MtxError::NotFinite { line: 3, .. })));
    }

    #[test]
    fn integer_and_skew_symmetric() {
        let a = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n").unwrap();
        assert_eq!(a.to_dense().unwrap(), vec![0.0, -5.0, 5.0, 0.0]);
        let err = parse("%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 5.5\n").unwrap_err();
        assert!(matches!(err, MtxError::NotNumeric { line: 3, what: "value", .. }), "{err}");
    }

    #[test]
    fn symmetric_files_store_one_triangle() {
        // The upper triangle alone is read as well as the lower.
        let upper = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 2 3\n2 2 1\n").unwrap();
        let lower = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 3\n2 2 1\n").unwrap();
        assert_eq!(upper, lower);
        assert_eq!(lower.values(), &[3.0, 3.0, 1.0]);
        for symmetry in ["symmetric", "skew-symmetric"] {
            let both = format!("%%MatrixMarket matrix coordinate real {symmetry}\n3 3 3\n2 1 3\n3 1 1\n1 2 3\n");
            let err = parse(&both).unwrap_err().to_string();
            assert!(err.starts_with(&format!("line 5: a {symmetry} file stores one triangle")), "{err}");
            assert!(err.contains("this entry is above the diagonal and line 3 is on the other side"), "{err}");
        }
    }

    #[test]
    fn skew_symmetric_diagonal_is_rejected() {
        let err = parse("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 5\n2 2 1\n").unwrap_err();
        assert!(matches!(err, MtxError::SkewDiagonal { line: 4 }), "{err}");
    }

    #[test]
    fn pattern_skew_symmetric_is_rejected() {
        let err = parse("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n").unwrap_err();
        assert!(matches!(err, MtxError::PatternSkew { line: 1 }), "{err}");
    }

    #[test]
    fn values_must_be_finite() {
        for token in ["nan", "inf", "-inf", "1e400", "NaN"] {
            let text = format!("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 {token}\n");
            let err = parse(&text).unwrap_err();
            assert!(matches!(err, MtxError::NotFinite { line: 4, .. }), "{token}: {err}");
        }
        assert_eq!(
            parse("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 3e38\n").unwrap().values(),
            &[3e38]
        );
    }

    #[test]
    fn comments_need_not_be_utf8() {
        let mut bytes = b"%%MatrixMarket matrix coordinate real general\n% caf\xe9\n1 1 1\n1 1 2\n".to_vec();
        assert_eq!(parse_matrix_market(&bytes[..]).unwrap().values(), &[2.0]);
        let last = bytes.len() - 2;
        bytes[last] = 0xe9;
        let err = parse_matrix_market(&bytes[..]).unwrap_err();
        assert!(matches!(err, MtxError::NotNumeric { line: 4, what: "value", .. }), "{err}");
    }

    #[test]
    fn messages_quote_the_start_of_a_long_line() {
        // CR-only line ends make the whole file one line.
        let text = format!("%%MatrixMarket matrix coordinate real general\r3 3 300\r{}", "1 1 1.0\r".repeat(300));
        let message = parse(&text).unwrap_err().to_string();
        assert!(message.contains("bad banner") && message.contains("...") && message.len() < 300, "{message}");
    }

    #[test]
    fn dimensions_beyond_memory_are_refused() {
        let max = i32::MAX as usize;
        let err = check_memory(max, max, 1, 1, Some(4 << 30)).unwrap_err();
        assert!(err.to_string().contains("needs at least 40960 MiB to convert"), "{err}");
        assert!(check_memory(max, max, 1, 1, None).is_ok());
        assert!(check_memory(1 << 20, 1 << 20, 1 << 20, 1 << 20, Some(4 << 30)).is_ok());
    }

    #[test]
    fn entries_grow_only_while_they_fit() {
        let mut entries = Entries::new(2, 2, 1 << 30);
        entries.available = || Some(1 << 20);
        let refused = (0..1 << 20).map(|_| entries.push(0, 0, 1.0)).find_map(Result::err);
        assert!(matches!(refused, Some(MtxError::OutOfMemory { .. })), "{refused:?}");
        assert!(load_bytes(2, entries.values.capacity()) <= 1 << 20);
        // Below the size line's count, growth stops at it.
        let mut entries = Entries::new(2, 2, 3000);
        (0..3000).try_for_each(|_| entries.push(1, 1, 1.0)).unwrap();
        assert_eq!(entries.values.capacity(), 3000);
    }

    #[test]
    fn long_comments_are_skipped_and_long_data_lines_refused() {
        let long = "x".repeat(3 * MAX_LINE_BYTES);
        let csr = parse(&format!("%%MatrixMarket matrix coordinate real general\n%{long}\n2 2 1\n1 2 5\n")).unwrap();
        assert_eq!((csr.nnz(), csr.values()), (1, &[5.0][..]));
        let err = parse(&format!("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5{long}\n")).unwrap_err();
        assert!(matches!(err, MtxError::LineTooLong { line: 3, .. }), "{err}");
        assert!(err.to_string().starts_with("line 3: longer than 1048576 bytes"), "{err}");
    }

    #[test]
    fn duplicates_that_overflow_are_refused() {
        let text = "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 3 3e38\n2 3 3e38\n";
        let err = parse(text).unwrap_err().to_string();
        assert_eq!(
            err,
            "the entries at (2, 3) (1-based, with their mirror images) sum to inf, not a finite 32-bit float"
        );
    }

    #[test]
    fn pattern_duplicates_stay_one() {
        let a = parse("%%MatrixMarket matrix coordinate pattern general\n2 2 3\n1 2\n1 2\n2 1\n").unwrap();
        assert_eq!(a.values(), &[1.0, 1.0]);
    }

    /// A byte-order mark before the banner, and Fortran's D exponents.
    #[test]
    fn reads_what_windows_editors_and_fortran_write() {
        let a =
            parse("\u{feff}%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.5D+01\n2 2 -2.5d-1\n").unwrap();
        assert_eq!(a.values(), &[15.0, -0.25]);
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1.5Q2\n"),
            Err(MtxError::NotNumeric { .. })
        ));
    }

    #[test]
    fn banner_is_case_insensitive_after_the_tag() {
        assert!(parse("%%MatrixMarket Matrix Coordinate Real General\n1 1 1\n1 1 2\n").is_ok());
    }

    #[test]
    fn errors_carry_line_numbers() {
        let msg = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            msg("%MatrixMarket matrix coordinate real general\n1 1 0\n"),
            "line 1: bad banner \"%MatrixMarket matrix coordinate real general\": expected \"%%MatrixMarket matrix coordinate <field> <symmetry>\""
        );
        assert!(matches!(parse(""), Err(MtxError::BadBanner { line: 1, .. })));
        assert!(matches!(
            parse("%%MatrixMarket matrix array real general\n1 1\n1\n"),
            Err(MtxError::Unsupported { what: "format", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"),
            Err(MtxError::Unsupported { what: "field", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n"),
            Err(MtxError::Unsupported { what: "symmetry", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n% only comments\n"),
            Err(MtxError::MissingSizeLine { line: 2 })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n%c\n2 x 1\n"),
            Err(MtxError::BadSizeLine { line: 3, .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2\n"),
            Err(MtxError::BadSizeLine { line: 2, .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n3000000000 2 0\n"),
            Err(MtxError::TooLarge { what: "rows", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n"),
            Err(MtxError::NotSquare { line: 2, .. })
        ));
        assert_eq!(
            msg("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n"),
            "line 4: row index 3 is out of range 1..=2"
        );
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n"),
            Err(MtxError::IndexOutOfRange { line: 3, what: "column", index: 0, .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 a 1\n"),
            Err(MtxError::NotNumeric { line: 3, what: "column", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 one\n"),
            Err(MtxError::NotNumeric { line: 3, what: "value", .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n"),
            Err(MtxError::FieldCount { line: 3, expected: 3, found: 2, .. })
        ));
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n"),
            Err(MtxError::FieldCount { line: 3, expected: 2, found: 3, .. })
        ));
        assert_eq!(
            msg("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n"),
            "the file ends at line 4 after 2 of the 3 entries announced by the size line"
        );
        assert!(matches!(
            parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n%x\n2 2 1\n"),
            Err(MtxError::TooManyEntries { line: 5, expected: 1 })
        ));
    }

    #[test]
    fn corrupt_gzip_and_missing_file() {
        let mut bytes = gzip(GENERAL);
        let n = bytes.len();
        bytes.truncate(n / 2);
        assert!(matches!(parse_matrix_market(&bytes[..]), Err(MtxError::Gzip { .. })));
        assert!(matches!(read_matrix_market("/nonexistent/dir/x.mtx"), Err(MtxError::Open { .. })));
        // Invalid UTF-8 in a value is not a number, not a panic.
        let bad = b"%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 \xff\n";
        assert!(matches!(parse_matrix_market(&bad[..]), Err(MtxError::NotNumeric { line: 3, .. })));
    }

    /// As `gzip -d` reads them: members one after another, zero padding
    /// after the last; other trailing bytes, a flipped bit anywhere (its
    /// garbage text blamed on the checksum, not on the line it breaks) and
    /// a directory are refused with what is wrong.
    #[test]
    fn gzip_members_padding_and_damage() {
        let text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.5\n2 2 2.5\n";
        let (head, tail) = text.split_at(text.find("1 1").unwrap());
        let mut members = [gzip(head), gzip(tail)].concat();
        members.extend([0u8; 40]);
        let a = parse_matrix_market(&members[..]).unwrap();
        assert_eq!((a.indptr(), a.values()), (&[0, 1, 2][..], &[1.5, 2.5][..]));
        let mut trailing = gzip(text);
        trailing.extend(b"junk");
        let error = parse_matrix_market(&trailing[..]).unwrap_err();
        assert!(error.to_string().contains("neither another gzip member nor zero padding"), "{error}");
        let long: String = (0..400).map(|i| format!("{} {} 1.0\n", i % 20 + 1, i / 20 + 1)).collect();
        let long = format!("%%MatrixMarket matrix coordinate real general\n20 20 400\n{long}");
        for byte in [60, 90, 120] {
            let mut flipped = gzip(&long);
            flipped[byte] ^= 0x10;
            let error = parse_matrix_market(&flipped[..]).unwrap_err();
            assert!(matches!(error, MtxError::Gzip { .. }), "byte {byte}: {error}");
        }
        let dir = std::env::temp_dir().join(format!("sptir-runtime-dir-{}.mtx", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let error = read_matrix_market(&dir).unwrap_err();
        assert!(error.to_string().contains("is a directory"), "{error}");
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn numbers_too_large_say_so() {
        let huge = "%%MatrixMarket matrix coordinate real general\n99999999999999999999 3 1\n1 1 1\n";
        let error = parse(huge).unwrap_err();
        assert!(error.to_string().contains("rows \"99999999999999999999\" is out of range 0..=2147483647"), "{error}");
        let index = "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 -99999999999999999999 1\n";
        let error = parse(index).unwrap_err();
        assert!(matches!(error, MtxError::OutOfRange { line: 3, what: "column", .. }), "{error}");
        let word = "%%MatrixMarket matrix coordinate real general\n3 x 1\n";
        assert!(matches!(parse(word), Err(MtxError::BadSizeLine { line: 2, .. })));
    }

    #[test]
    fn reads_files_from_disk() {
        let dir = std::env::temp_dir().join(format!("sptir-runtime-mtx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("a.mtx");
        let gz = dir.join("a.mtx.gz");
        // The gzip file gets a misleading name to show detection is by content.
        let gz_misnamed = dir.join("b.mtx");
        std::fs::write(&plain, GENERAL).unwrap();
        std::fs::write(&gz, gzip(GENERAL)).unwrap();
        std::fs::write(&gz_misnamed, gzip(GENERAL)).unwrap();
        let a = read_matrix_market(&plain).unwrap();
        assert_eq!(read_matrix_market(&gz).unwrap(), a);
        assert_eq!(read_matrix_market(&gz_misnamed).unwrap(), a);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Checks shape, nnz, symmetry, self-loops and longest row against the README table.
    fn check_graph(name: &str, n: usize, nnz: usize, diag: usize, max_row: usize) {
        let Some(path) = crate::graphs::locate_or_skip(name) else { return };
        let a = read_matrix_market(path).unwrap();
        a.validate().unwrap();
        assert_eq!((a.rows(), a.cols(), a.nnz()), (n, n, nnz), "{name}");
        assert!(a.values().iter().all(|&v| v == 1.0));
        assert_eq!(a.transpose(), a, "{name} should be symmetric");
        let self_loops =
            (0..n).filter(|&r| a.row(r).is_some_and(|(cs, _)| cs.binary_search(&(r as i32)).is_ok())).count();
        assert_eq!(self_loops, diag, "{name}");
        assert_eq!(a.max_row_nnz(), max_row, "{name}");
    }

    #[test]
    fn real_cora() {
        check_graph("cora", 2708, 10556, 0, 168);
    }

    #[test]
    fn real_citeseer() {
        check_graph("citeseer", 3327, 9228, 124, 99);
    }

    #[test]
    fn real_pubmed() {
        check_graph("pubmed", 19717, 88651, 3, 171);
    }
}
