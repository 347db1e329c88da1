//! Rust passes in MLIR's pass registry.
//!
//! Each pass is a [`PassDef`]: a name, a pipeline argument, its options and
//! a function over the operation it is scheduled on. Registration hands
//! them to the C++ `RustPass` shim, so `sparse-reorder{...}` works inside any
//! textual pipeline, and option errors surface when the pipeline is parsed.

use melior::ir::{
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    Location,
};
use mlir_sys::{mlirEmitError, MlirLogicalResult, MlirOperation, MlirStringRef};
use std::{
    collections::BTreeMap,
    ffi::{c_void, CString},
    panic::{catch_unwind, AssertUnwindSafe},
    sync::Once,
};

/// One option a pass accepts, `name=value` inside its `{...}`.
pub struct PassOption {
    pub name: &'static str,
    pub help: &'static str,
    pub required: bool,
    pub kind: OptionKind,
}

/// What an option's value must be; checked when the pipeline is parsed,
/// so that a bad value is a pipeline error, not a pass failure.
pub enum OptionKind {
    /// Any text: a label, a rule.
    Text,
    /// `true` or `false`.
    Flag,
    /// An integer of at least 1.
    Positive,
    /// Comma-separated non-negative integers.
    Indices,
    /// Comma-separated integers.
    Integers,
    /// One of these words.
    OneOf(&'static [&'static str]),
}

impl OptionKind {
    /// `Err` with what the value should have been.
    fn check(&self, value: &str) -> Result<(), String> {
        let list = |item: fn(&str) -> bool| value.split(',').all(|v| item(v.trim()));
        let (ok, expected) = match self {
            OptionKind::Text => (true, String::new()),
            OptionKind::Flag => (matches!(value, "true" | "false"), "true or false".into()),
            OptionKind::Positive => (value.parse::<i64>().is_ok_and(|v| v >= 1), "a positive integer".into()),
            OptionKind::Indices => {
                (list(|v| v.parse::<usize>().is_ok()), "a comma-separated list of indices (0, 1, ...)".into())
            }
            OptionKind::Integers => (list(|v| v.parse::<i64>().is_ok()), "a comma-separated list of integers".into()),
            OptionKind::OneOf(words) => (words.contains(&value), format!("one of {}", words.join(", "))),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("must be {expected}, got '{value}'"))
        }
    }
}

/// A pass written in Rust.
pub struct PassDef {
    /// CamelCase name, shown in IR dumps.
    pub name: &'static str,
    /// The name used in pipelines.
    pub argument: &'static str,
    /// One line for `--help`.
    pub description: &'static str,
    pub options: &'static [PassOption],
    /// Dialects whose ops the pass creates, comma-separated (`"scf,arith"`).
    pub dependent_dialects: &'static str,
    /// Transforms the operation the pass is scheduled on. An `Err` means a
    /// diagnostic has already been emitted.
    pub run: fn(OperationRef<'_, '_>, &PassOptions) -> Result<(), PassFailed>,
}

/// The pass failed; the reason was emitted as an MLIR diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassFailed;

/// Emits an error diagnostic at `location` and returns [`PassFailed`].
pub fn emit_error(location: Location<'_>, message: impl AsRef<str>) -> PassFailed {
    let text = CString::new(message.as_ref().replace('\0', " ")).unwrap_or_default();
    unsafe { mlirEmitError(location.to_raw(), text.as_ptr()) };
    PassFailed
}

/// Where a diagnostic about a pass's options goes: the first function
/// under `root` with sparse iterations or loops, the kernel they schedule
/// (else the first function). Options have no source position, and a
/// module parsed from a file has none of its own (`file:0:0`).
pub fn options_location<'c>(root: OperationRef<'c, '_>) -> Location<'c> {
    let mut functions = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("func.func") {
            let mut sparse = false;
            op.walk(WalkOrder::PreOrder, |inner| {
                let name = inner.name();
                sparse = matches!(name.as_string_ref().as_str(), Ok("sparse_iter.iterate" | "sparse_pos.for"));
                if sparse {
                    WalkResult::Interrupt
                } else {
                    WalkResult::Advance
                }
            });
            functions.push((sparse, unsafe { Location::from_raw(op.location().to_raw()) }));
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    let kernel = functions.iter().find(|(sparse, _)| *sparse).or(functions.first());
    kernel.map(|&(_, location)| location).unwrap_or_else(|| root.location())
}

/// The parsed `key=value` options of one pass instance.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PassOptions {
    values: BTreeMap<String, String>,
}

impl PassOptions {
    /// Parses MLIR's textual pass options (`a=1 b=x,y c="q r"`) and checks
    /// them against what `pass` accepts.
    pub fn parse(pass: &PassDef, text: &str) -> Result<Self, String> {
        let mut values = BTreeMap::new();
        for item in split_options(text)? {
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key.trim(), value.trim()),
                None => (item.trim(), ""),
            };
            if !pass.options.iter().any(|option| option.name == key) {
                let known: Vec<_> = pass.options.iter().map(|option| option.name).collect();
                return Err(format!(
                    "unknown option '{key}' for pass '{}' (it takes: {})",
                    pass.argument,
                    if known.is_empty() { "no options".into() } else { known.join(", ") }
                ));
            }
            let value = value.trim_matches('"').to_string();
            if let Some(option) = pass.options.iter().find(|option| option.name == key) {
                option
                    .kind
                    .check(&value)
                    .map_err(|message| format!("option '{key}' of pass '{}' {message}", pass.argument))?;
            }
            if values.insert(key.to_string(), value).is_some() {
                return Err(format!("option '{key}' of pass '{}' is given twice", pass.argument));
            }
        }
        for option in pass.options.iter().filter(|option| option.required) {
            if !values.contains_key(option.name) {
                return Err(format!("pass '{}' needs option '{}': {}", pass.argument, option.name, option.help));
            }
        }
        Ok(Self { values })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// An [`OptionKind::Flag`]: false when not given.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) == Some("true")
    }

    /// An [`OptionKind::Positive`] or [`OptionKind::Integers`] value, one
    /// integer or a comma-separated list; empty when not given.
    pub fn integers(&self, name: &str) -> Vec<i64> {
        self.list(name)
    }

    /// An [`OptionKind::Indices`] value; empty when not given.
    pub fn indices(&self, name: &str) -> Vec<usize> {
        self.list(name)
    }

    /// `parse` checked the value against its kind: items that do not
    /// parse come only from a pass asking for the wrong kind.
    fn list<T: std::str::FromStr>(&self, name: &str) -> Vec<T> {
        self.get(name).map_or_else(Vec::new, |text| text.split(',').filter_map(|v| v.trim().parse().ok()).collect())
    }
}

/// Splits on whitespace outside quotes and braces.
fn split_options(text: &str) -> Result<Vec<String>, String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let (mut depth, mut quoted) = (0usize, false);
    for character in text.chars() {
        match character {
            '"' => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth = depth.checked_sub(1).ok_or("unbalanced '}' in pass options")?,
            c if c.is_whitespace() && !quoted && depth == 0 => {
                if !current.is_empty() {
                    items.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => {}
        }
        current.push(character);
    }
    if quoted || depth != 0 {
        return Err("unterminated quote or brace in pass options".into());
    }
    if !current.is_empty() {
        items.push(current);
    }
    Ok(items)
}

type EmitFn = unsafe extern "C" fn(MlirStringRef, *mut c_void);

extern "C" {
    fn sptirRegisterRustPass(
        name: MlirStringRef,
        argument: MlirStringRef,
        description: MlirStringRef,
        dependent_dialects: MlirStringRef,
        run: unsafe extern "C" fn(MlirOperation, MlirStringRef, *mut c_void) -> MlirLogicalResult,
        check: unsafe extern "C" fn(MlirStringRef, *mut c_void, EmitFn, *mut c_void) -> MlirLogicalResult,
        user_data: *mut c_void,
    );
}

/// A C string reference to static text.
pub(crate) fn string_ref(text: &'static str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

unsafe fn text<'a>(text: MlirStringRef) -> &'a str {
    if text.length == 0 {
        return "";
    }
    std::str::from_utf8(std::slice::from_raw_parts(text.data.cast(), text.length)).unwrap_or("")
}

fn result(ok: bool) -> MlirLogicalResult {
    // MLIR's convention: 1 is success, 0 is failure.
    MlirLogicalResult { value: i8::from(ok) }
}

unsafe extern "C" fn check_trampoline(
    options: MlirStringRef,
    user_data: *mut c_void,
    emit: EmitFn,
    emit_data: *mut c_void,
) -> MlirLogicalResult {
    let pass = &*(user_data as *const PassDef);
    match PassOptions::parse(pass, text(options)) {
        Ok(_) => result(true),
        Err(message) => {
            emit(MlirStringRef { data: message.as_ptr().cast(), length: message.len() }, emit_data);
            result(false)
        }
    }
}

unsafe extern "C" fn run_trampoline(
    operation: MlirOperation,
    options: MlirStringRef,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    let pass = &*(user_data as *const PassDef);
    let operation = OperationRef::from_raw(operation);
    // A panic must not unwind into C++; it becomes an error on the IR.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let options =
            PassOptions::parse(pass, text(options)).map_err(|message| emit_error(operation.location(), message))?;
        (pass.run)(operation, &options)
    }));
    match outcome {
        Ok(outcome) => result(outcome.is_ok()),
        Err(payload) => {
            let detail = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown cause");
            emit_error(
                operation.location(),
                format!("internal error in pass '{}': {detail} (please report it)", pass.argument),
            );
            result(false)
        }
    }
}

/// Registers `passes` with MLIR's global pass registry, once per process.
pub(crate) fn register(passes: &'static [PassDef], once: &'static Once) {
    once.call_once(|| {
        for pass in passes {
            unsafe {
                sptirRegisterRustPass(
                    string_ref(pass.name),
                    string_ref(pass.argument),
                    string_ref(pass.description),
                    string_ref(pass.dependent_dialects),
                    run_trampoline,
                    check_trampoline,
                    pass as *const PassDef as *mut c_void,
                )
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(_: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
        Ok(())
    }

    const PASS: PassDef = PassDef {
        name: "Fake",
        argument: "fake",
        description: "",
        options: &[
            PassOption { name: "a", help: "needed", required: true, kind: OptionKind::Indices },
            PassOption { name: "b", help: "", required: false, kind: OptionKind::Text },
            PassOption { name: "f", help: "", required: false, kind: OptionKind::Flag },
            PassOption { name: "p", help: "", required: false, kind: OptionKind::Positive },
            PassOption { name: "w", help: "", required: false, kind: OptionKind::OneOf(&["x", "y"]) },
            PassOption { name: "n", help: "", required: false, kind: OptionKind::Integers },
        ],
        dependent_dialects: "",
        run: fake,
    };

    #[test]
    fn parses_and_checks_options() {
        let options = PassOptions::parse(&PASS, "a=1,2 b=\"x y\"").unwrap();
        assert_eq!(options.get("a"), Some("1,2"));
        assert_eq!(options.get("b"), Some("x y"));
        assert_eq!(options.indices("a"), vec![1, 2]);
        assert!(!options.flag("f"));
        assert!(options.integers("n").is_empty());
        assert!(PassOptions::parse(&PASS, "b=1").unwrap_err().contains("needs option 'a'"));
        assert!(PassOptions::parse(&PASS, "a=1 c=2").unwrap_err().contains("unknown option 'c'"));
        assert!(PassOptions::parse(&PASS, "a=1 a=2").unwrap_err().contains("twice"));
        assert!(PassOptions::parse(&PASS, "a=\"1").is_err());
        let checked = PassOptions::parse(&PASS, "a=0 f=true p=3 w=y n=-2,5").unwrap();
        assert!(checked.flag("f"));
        assert_eq!(checked.integers("p"), vec![3]);
        assert_eq!(checked.integers("n"), vec![-2, 5]);
        for (bad, message) in [
            ("a=1,x", "option 'a' of pass 'fake' must be a comma-separated list of indices (0, 1, ...), got '1,x'"),
            ("a=-1", "list of indices"),
            ("a=1 f=yes", "option 'f' of pass 'fake' must be true or false, got 'yes'"),
            ("a=1 p=0", "must be a positive integer, got '0'"),
            ("a=1 p=99999999999999999999", "positive integer"),
            ("a=1 w=z", "must be one of x, y, got 'z'"),
            ("a=1 n=1,,2", "list of integers"),
        ] {
            let error = PassOptions::parse(&PASS, bad).unwrap_err();
            assert!(error.contains(message), "{bad}: {error}");
        }
    }
}
