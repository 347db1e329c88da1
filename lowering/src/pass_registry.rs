//! Rust passes in MLIR's pass registry.
//!
//! Each pass is a [`PassDef`]: a name, a pipeline argument, its options and
//! a function over the operation it is scheduled on. Registration hands
//! them to the C++ `RustPass` shim, so `sparse-reorder{...}` works inside any
//! textual pipeline, and option errors surface when the pipeline is parsed.

use melior::ir::{
    operation::{OperationLike, OperationRef},
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

    /// A comma-separated list of non-negative integers.
    pub fn index_list(&self, name: &str) -> Result<Option<Vec<usize>>, String> {
        let Some(text) = self.get(name) else { return Ok(None) };
        text.split(',')
            .map(|item| {
                item.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("option '{name}' must be a comma-separated list of indices, got '{text}'"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
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
            PassOption { name: "a", help: "needed", required: true },
            PassOption { name: "b", help: "", required: false },
        ],
        dependent_dialects: "",
        run: fake,
    };

    #[test]
    fn parses_and_checks_options() {
        let options = PassOptions::parse(&PASS, "a=1,2 b=\"x y\"").unwrap();
        assert_eq!(options.get("a"), Some("1,2"));
        assert_eq!(options.get("b"), Some("x y"));
        assert_eq!(options.index_list("a").unwrap(), Some(vec![1, 2]));
        assert!(PassOptions::parse(&PASS, "b=1").unwrap_err().contains("needs option 'a'"));
        assert!(PassOptions::parse(&PASS, "a=1 c=2").unwrap_err().contains("unknown option 'c'"));
        assert!(PassOptions::parse(&PASS, "a=1 a=2").unwrap_err().contains("twice"));
        assert!(PassOptions::parse(&PASS, "a=\"1").is_err());
        let bad = PassOptions::parse(&PASS, "a=1,x").unwrap();
        assert!(bad.index_list("a").unwrap_err().contains("list of indices"));
    }
}
