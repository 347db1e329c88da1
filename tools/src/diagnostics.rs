//! Collecting MLIR diagnostics, printing them as `file:line:col: error: ...`,
//! and checking them against `expected-error` annotations
//! (`--verify-diagnostics`).

use melior::diagnostic::{Diagnostic, DiagnosticSeverity};
pub use sptir_lowering::ir_query::Position;
use sptir_lowering::ir_query::{location_name, position};
use std::fmt::Write;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    fn from_mlir(severity: DiagnosticSeverity) -> Self {
        match severity {
            DiagnosticSeverity::Error => Self::Error,
            DiagnosticSeverity::Warning => Self::Warning,
            DiagnosticSeverity::Note => Self::Note,
            DiagnosticSeverity::Remark => Self::Remark,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Note => "note",
            Self::Remark => "remark",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "error" => Self::Error,
            "warning" => Self::Warning,
            "note" => Self::Note,
            "remark" => Self::Remark,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    pub severity: Severity,
    pub position: Option<Position>,
    pub message: String,
    /// What the location names (code a pass made), printed after the message.
    pub name: Option<String>,
}

impl Diag {
    /// Flattens an MLIR diagnostic and its notes.
    pub fn collect(diagnostic: &Diagnostic, into: &mut Vec<Diag>) {
        into.push(Diag {
            severity: Severity::from_mlir(diagnostic.severity()),
            position: position(diagnostic.location()),
            message: message(diagnostic),
            name: location_name(diagnostic.location()),
        });
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                Diag::collect(&note, into);
            }
        }
    }
}

/// The diagnostic's text. melior's `Display` fails on text that is not
/// UTF-8 (a message quoting one byte of a user's string), and `to_string`
/// would then panic inside the C handler, which aborts.
fn message(diagnostic: &Diagnostic) -> String {
    let mut text = String::new();
    if write!(text, "{diagnostic}").is_err() {
        text.push_str("(a diagnostic whose text is not UTF-8)");
    }
    text
}

impl std::fmt::Display for Diag {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.position {
            Some(position) => write!(
                formatter,
                "{}:{}:{}: {}: {}",
                position.file,
                position.line,
                position.column,
                self.severity.name(),
                self.message
            )?,
            None => write!(formatter, "<unknown>: {}: {}", self.severity.name(), self.message)?,
        }
        match &self.name {
            Some(name) => write!(formatter, " (in {name})"),
            None => Ok(()),
        }
    }
}

/// An `expected-<severity>[-re] [@<line>] {{message}}` annotation.
#[derive(Debug, Clone)]
struct Expectation {
    severity: Severity,
    /// `None` for `@unknown`.
    line: Option<usize>,
    /// The annotation's text between its outer braces.
    message: String,
    /// For `-re`: the message with its `{{...}}` parts as regular
    /// expressions and the rest literal.
    pattern: Option<regex::Regex>,
    annotation_line: usize,
    /// Where `expected-` starts on its line, from 1.
    annotation_column: usize,
}

impl Expectation {
    fn matches(&self, message: &str) -> bool {
        match &self.pattern {
            Some(pattern) => pattern.is_match(message),
            None => message.contains(&self.message),
        }
    }
}

/// Where an annotation points: `@+N`, `@-N`, `@above`, `@below` and
/// `@unknown`, or its own line.
enum Designator {
    Own,
    Offset(isize),
    Above,
    Below,
    Unknown,
}

/// Reads `source`'s annotations as MLIR's verifier does: at most one per
/// line, `expected-(error|note|remark|warning)(-re)? *(@designator)? *{{message}}`,
/// the message running to the line's last `}}`. `@above` and `@below`
/// name the nearest line without an annotation. `source`'s first line is
/// line `first_line` of the file.
fn expectations(source: &str, first_line: usize) -> Result<Vec<Expectation>, String> {
    let mut found = Vec::new();
    let mut last_plain_line = None;
    let mut for_next_plain_line = Vec::new();
    for (offset, text) in source.lines().enumerate() {
        let line = first_line + offset;
        let Some((severity, regex, designator, message, column)) = annotation(text) else {
            for index in for_next_plain_line.drain(..) {
                let expectation: &mut Expectation = &mut found[index];
                expectation.line = Some(line);
            }
            last_plain_line = Some(line);
            continue;
        };
        let target = match designator {
            Designator::Own => Some(line),
            Designator::Unknown => None,
            Designator::Offset(delta) => Some(
                line.checked_add_signed(delta)
                    .filter(|&target| target >= 1)
                    .ok_or_else(|| format!("{line}:1: error: '@{delta}' points before the file"))?,
            ),
            Designator::Above => Some(
                last_plain_line
                    .ok_or_else(|| format!("{line}:1: error: '@above' has no line without an annotation above it"))?,
            ),
            Designator::Below => {
                for_next_plain_line.push(found.len());
                Some(0)
            }
        };
        let pattern = match regex {
            true => Some(
                message_pattern(message)
                    .map_err(|e| format!("{line}:1: error: bad expected-{}-re message: {e}", severity.name()))?,
            ),
            false => None,
        };
        found.push(Expectation {
            severity,
            line: target,
            message: message.to_string(),
            pattern,
            annotation_line: line,
            annotation_column: column,
        });
    }
    if let Some(&index) = for_next_plain_line.first() {
        return Err(format!(
            "{}:1: error: '@below' has no line without an annotation below it",
            found[index].annotation_line
        ));
    }
    Ok(found)
}

/// The parts of one line's `expected-` annotation, if it has one.
fn annotation(text: &str) -> Option<(Severity, bool, Designator, &str, usize)> {
    let mut search = text;
    while let Some(start) = search.find("expected-") {
        let column = text.len() - search.len() + start + 1;
        let rest = &search[start + "expected-".len()..];
        search = rest;
        let name_end = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let Some(severity) = Severity::parse(&rest[..name_end]) else { continue };
        let mut rest = &rest[name_end..];
        let regex = match rest.strip_prefix("-re") {
            Some(after) => {
                rest = after;
                true
            }
            None => false,
        };
        rest = rest.trim_start_matches(' ');
        let mut designator = Designator::Own;
        if let Some(spec) = rest.strip_prefix('@') {
            let end = spec.find(|c: char| c == ' ' || c == '{').unwrap_or(spec.len());
            designator = match &spec[..end] {
                "unknown" => Designator::Unknown,
                "above" => Designator::Above,
                "below" => Designator::Below,
                offset => match offset.strip_prefix('+').unwrap_or(offset).parse::<isize>() {
                    Ok(delta) if offset.starts_with(['+', '-']) => Designator::Offset(delta),
                    // As in mlir-opt, what is not an annotation's form is
                    // text ("expected-error free"), not a broken annotation.
                    _ => continue,
                },
            };
            rest = spec[end..].trim_start_matches(' ');
        }
        let Some(body) = rest.strip_prefix("{{").and_then(|body| body.trim_end().strip_suffix("}}")) else {
            continue;
        };
        return Some((severity, regex, designator, body, column));
    }
    None
}

/// The pattern of an `-re` message: `{{...}}` parts are regular
/// expressions, the text between them is literal.
fn message_pattern(message: &str) -> Result<regex::Regex, String> {
    let mut pattern = String::new();
    let mut rest = message;
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        let close = rest[open + 2..].find("}}").ok_or("a '{{' has no '}}'")?;
        pattern.push_str(&format!("({})", &rest[open + 2..open + 2 + close]));
        rest = &rest[open + 2 + close + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    regex::Regex::new(&pattern).map_err(|e| e.to_string())
}

/// Checks `diagnostics` against the annotations in `source` (whose first
/// line is `first_line` of `file`). Returns the report of every mismatch,
/// or `Ok` when each diagnostic was expected and each expectation met.
pub fn verify(diagnostics: &[Diag], source: &str, first_line: usize, file: &str) -> Result<(), String> {
    let expected = expectations(source, first_line).map_err(|message| format!("{file}:{message}\n"))?;
    let mut met = vec![false; expected.len()];
    let mut report = String::new();
    for diagnostic in diagnostics {
        // An annotation expects a diagnostic in its own file, not at its
        // line number in another (a `loc("other.mlir":5:3)`).
        let elsewhere = diagnostic.position.as_ref().is_some_and(|position| position.file != file);
        let line = diagnostic.position.as_ref().map(|position| position.line);
        let matched = expected.iter().enumerate().position(|(index, expectation)| {
            !elsewhere
                && !met[index]
                && expectation.severity == diagnostic.severity
                && expectation.line == line
                && expectation.matches(&diagnostic.message)
        });
        match matched {
            Some(index) => met[index] = true,
            None => {
                let severity = diagnostic.severity.name();
                match &diagnostic.position {
                    Some(position) => {
                        let _ = writeln!(
                            report,
                            "{}:{}:{}: error: unexpected {severity}: {}",
                            position.file, position.line, position.column, diagnostic.message
                        );
                        if position.file == file {
                            quote(&mut report, source, first_line, position.line, position.column, 1);
                        }
                    }
                    None => {
                        let _ = writeln!(report, "<unknown>: error: unexpected {severity}: {}", diagnostic.message);
                    }
                }
            }
        }
    }
    for (expectation, met) in expected.iter().zip(met) {
        if !met {
            let (line, column) = (expectation.annotation_line, expectation.annotation_column);
            let _ = writeln!(
                report,
                "{file}:{line}:{column}: error: expected {} \"{}\" was not produced",
                expectation.severity.name(),
                expectation.message
            );
            quote(&mut report, source, first_line, line, column, "expected-".len() + expectation.severity.name().len());
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

/// Appends line `line` of `source` (whose first line is `first_line`) and
/// a mark under `width` characters from `column`, as MLIR prints a
/// location; nothing when the line is not in `source`.
fn quote(report: &mut String, source: &str, first_line: usize, line: usize, column: usize, width: usize) {
    let Some(text) = line.checked_sub(first_line).and_then(|index| source.lines().nth(index)) else { return };
    let before = text.get(..column.saturating_sub(1)).unwrap_or(text);
    let indent: String = before.chars().map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let _ = writeln!(report, "{text}\n{indent}^{}", "~".repeat(width.saturating_sub(1)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(line: usize, message: &str) -> Diag {
        Diag {
            severity: Severity::Error,
            position: Some(Position { file: "f".into(), line, column: 1 }),
            message: message.into(),
            name: None,
        }
    }

    #[test]
    fn reads_designators() {
        let source = "a // expected-error {{x}}\n// expected-error@+1 {{y}}\nb\n// expected-note@-3 {{z}}";
        let found = expectations(source, 10).unwrap();
        assert_eq!(found.iter().map(|e| e.line).collect::<Vec<_>>(), [Some(10), Some(12), Some(10)]);
        assert_eq!(found[2].severity, Severity::Note);
        // Not an annotation's form: text, as mlir-opt reads it.
        assert!(expectations("// expected-error@x {{a}}", 1).unwrap().is_empty());
        assert!(expectations("// expected-error {{a", 1).unwrap().is_empty());
        assert!(expectations("// This file is expected-error free", 1).unwrap().is_empty());
    }

    #[test]
    fn reads_the_forms_mlir_reads() {
        let lines = |source: &str| expectations(source, 1).unwrap().iter().map(|e| e.line).collect::<Vec<_>>();
        assert_eq!(lines("// expected-error @+1 {{a}}\n// expected-error@+1{{b}}\nx"), [Some(2), Some(3)]);
        // @above and @below skip lines that hold annotations.
        let source = "x\n// expected-note@above {{a}}\n// expected-note@below {{b}}\n// expected-note@below {{c}}\ny";
        assert_eq!(lines(source), [Some(1), Some(5), Some(5)]);
        assert!(expectations("// expected-error@below {{a}}", 1).is_err());
        // The message runs to the line's last }}.
        let found = expectations("// expected-error {{a {{b}} c}}", 1).unwrap();
        assert_eq!(found[0].message, "a {{b}} c");
        let found = expectations("// expected-error-re@+1 {{use of {{[a-z]+}} value (here)}}\nx", 1).unwrap();
        assert!(found[0].matches("use of undeclared value (here)"));
        assert!(!found[0].matches("use of 3 value (here)"));
        assert!(!found[0].matches("use of undeclared value here"));
        assert!(expectations("// expected-error-re {{a {{[}}}}", 1).is_err());
    }

    #[test]
    fn matches_and_reports() {
        let source = "op // expected-error {{bad op}}";
        assert!(verify(&[diag(1, "'x' op bad op here")], source, 1, "f").is_ok());
        let missing = verify(&[], source, 1, "f").unwrap_err();
        assert_eq!(
            missing,
            "f:1:7: error: expected error \"bad op\" was not produced\n".to_string()
                + source
                + "\n      ^~~~~~~~~~~~~~\n"
        );
        let unexpected = verify(&[diag(1, "bad op"), diag(1, "other")], source, 1, "f").unwrap_err();
        assert_eq!(unexpected, "f:1:1: error: unexpected error: other\n".to_string() + source + "\n^\n");
        assert!(verify(&[diag(2, "bad op")], source, 1, "f").is_err());
    }
}
