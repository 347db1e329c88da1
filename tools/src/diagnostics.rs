//! Collecting MLIR diagnostics, printing them as `file:line:col: error: ...`,
//! and checking them against `expected-error` annotations
//! (`--verify-diagnostics`).

use melior::diagnostic::{Diagnostic, DiagnosticSeverity};
use sptir_lowering::ir_query::position;
pub use sptir_lowering::ir_query::Position;
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
}

impl Diag {
    /// Flattens an MLIR diagnostic and its notes.
    pub fn collect(diagnostic: &Diagnostic, into: &mut Vec<Diag>) {
        into.push(Diag {
            severity: Severity::from_mlir(diagnostic.severity()),
            position: position(diagnostic.location()),
            message: message(diagnostic),
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
            ),
            None => write!(formatter, "<unknown>: {}: {}", self.severity.name(), self.message),
        }
    }
}

/// An `expected-<severity>[@<line>] {{message}}` annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Expectation {
    severity: Severity,
    /// `None` for `@unknown`.
    line: Option<usize>,
    message: String,
    annotation_line: usize,
}

/// Reads the annotations of `source`, whose first line is line
/// `first_line` of the file.
fn expectations(source: &str, first_line: usize) -> Result<Vec<Expectation>, String> {
    let mut found = Vec::new();
    let lines: Vec<&str> = source.lines().collect();
    for (offset, text) in lines.iter().enumerate() {
        let line = first_line + offset;
        let mut rest = *text;
        while let Some(start) = rest.find("expected-") {
            rest = &rest[start + "expected-".len()..];
            let name_end = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
            let Some(severity) = Severity::parse(&rest[..name_end]) else { continue };
            rest = &rest[name_end..];
            let mut target = Some(line);
            if let Some(designator) = rest.strip_prefix('@') {
                let end = designator.find(char::is_whitespace).unwrap_or(designator.len());
                target = match &designator[..end] {
                    "unknown" => None,
                    "above" => Some(line.saturating_sub(1)),
                    "below" => Some(line + 1),
                    spec => {
                        let (sign, digits) = spec.split_at(1.min(spec.len()));
                        let delta: usize =
                            digits.parse().map_err(|_| format!("line {line}: bad line designator '@{spec}'"))?;
                        match sign {
                            "+" => Some(line + delta),
                            "-" => Some(
                                line.checked_sub(delta)
                                    .ok_or_else(|| format!("line {line}: '@{spec}' points before the file"))?,
                            ),
                            _ => return Err(format!("line {line}: bad line designator '@{spec}'")),
                        }
                    }
                };
                rest = &designator[end..];
            }
            let Some(open) = rest.find("{{") else {
                return Err(format!("line {line}: expected-{} has no {{{{message}}}}", severity.name()));
            };
            let Some(close) = rest[open..].find("}}") else {
                return Err(format!("line {line}: unterminated {{{{ in expected-{}", severity.name()));
            };
            found.push(Expectation {
                severity,
                line: target,
                message: rest[open + 2..open + close].to_string(),
                annotation_line: line,
            });
            rest = &rest[open + close + 2..];
        }
    }
    Ok(found)
}

/// Checks `diagnostics` against the annotations in `source` (whose first
/// line is `first_line` of `file`). Returns the report of every mismatch,
/// or `Ok` when each diagnostic was expected and each expectation met.
pub fn verify(diagnostics: &[Diag], source: &str, first_line: usize, file: &str) -> Result<(), String> {
    let expected = expectations(source, first_line).map_err(|message| format!("{file}:{message}"))?;
    let mut met = vec![false; expected.len()];
    let mut report = String::new();
    for diagnostic in diagnostics {
        let line = diagnostic.position.as_ref().map(|position| position.line);
        let matched = expected.iter().enumerate().position(|(index, expectation)| {
            !met[index]
                && expectation.severity == diagnostic.severity
                && expectation.line == line
                && diagnostic.message.contains(&expectation.message)
        });
        match matched {
            Some(index) => met[index] = true,
            None => {
                let _ = writeln!(report, "{diagnostic}");
                let _ = writeln!(report, "  ^ unexpected {}", diagnostic.severity.name());
            }
        }
    }
    for (expectation, met) in expected.iter().zip(met) {
        if !met {
            let _ = writeln!(
                report,
                "{file}:{}: expected {} \"{}\" was not produced",
                expectation.annotation_line,
                expectation.severity.name(),
                expectation.message
            );
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(line: usize, message: &str) -> Diag {
        Diag {
            severity: Severity::Error,
            position: Some(Position { file: "f".into(), line, column: 1 }),
            message: message.into(),
        }
    }

    #[test]
    fn reads_designators() {
        let source = "a // expected-error {{x}}\n// expected-error@+1 {{y}}\nb\n// expected-note@-3 {{z}}";
        let found = expectations(source, 10).unwrap();
        assert_eq!(found.iter().map(|e| e.line).collect::<Vec<_>>(), [Some(10), Some(12), Some(10)]);
        assert_eq!(found[2].severity, Severity::Note);
        assert!(expectations("// expected-error@x {{a}}", 1).is_err());
        assert!(expectations("// expected-error {{a", 1).is_err());
    }

    #[test]
    fn matches_and_reports() {
        let source = "op // expected-error {{bad op}}";
        assert!(verify(&[diag(1, "'x' op bad op here")], source, 1, "f").is_ok());
        let missing = verify(&[], source, 1, "f").unwrap_err();
        assert!(missing.contains("was not produced"));
        let unexpected = verify(&[diag(1, "bad op"), diag(1, "other")], source, 1, "f").unwrap_err();
        assert!(unexpected.contains("unexpected error"));
        assert!(verify(&[diag(2, "bad op")], source, 1, "f").is_err());
    }
}
