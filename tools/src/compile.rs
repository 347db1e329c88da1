//! Compiling a stage I module in-process: run a pipeline with diagnostics
//! captured as text, and check a kernel's signature against an argument
//! convention before anything is bound to it.

use crate::{diagnostics::Diag, programs::Param};
use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::FunctionType,
        Module, RegionLike, Type,
    },
    pass::PassManager,
    utility::parse_pass_pipeline,
    Context,
};
use std::{cell::RefCell, rc::Rc};

/// Runs `body` with MLIR's diagnostics collected instead of printed.
fn collecting<R>(context: &Context, body: impl FnOnce() -> R) -> (R, Vec<Diag>) {
    let collected: Rc<RefCell<Vec<Diag>>> = Rc::default();
    let sink = collected.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        Diag::collect(&diagnostic, &mut sink.borrow_mut());
        true
    });
    let result = body();
    context.detach_diagnostic_handler(handler);
    let diagnostics = collected.borrow().clone();
    (result, diagnostics)
}

/// `message` followed by the diagnostics, one per line; `fallback` when
/// there is neither.
fn report(message: String, diagnostics: &[Diag], fallback: impl FnOnce() -> String) -> String {
    let mut text = message;
    for diagnostic in diagnostics {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&diagnostic.to_string());
    }
    if text.is_empty() {
        text = fallback();
    }
    text
}

/// Parses and verifies the module in `source` (named `file` in locations);
/// on failure returns the diagnostics, one per line.
pub fn parse_module<'c>(context: &'c Context, source: &str, file: &str) -> Result<Module<'c>, String> {
    let (module, diagnostics) = collecting(context, || sptir_dialects::parse_module(context, source, file));
    module.ok_or_else(|| report(String::new(), &diagnostics, || format!("'{file}' does not parse or verify")))
}

/// Runs `pipeline` (e.g. `builtin.module(sptir-to-cpu)`) on `module`; on
/// failure returns the diagnostics, one per line.
pub fn run_pipeline(context: &Context, module: &mut Module<'_>, pipeline: &str) -> Result<(), String> {
    let (result, diagnostics) = collecting(context, || {
        let manager = PassManager::new(context);
        parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
            .map_err(|error| format!("invalid pipeline '{pipeline}': {error}"))
            .and_then(|()| manager.run(module).map_err(|_| String::new()))
    });
    result.map_err(|message| report(message, &diagnostics, || format!("pipeline '{pipeline}' failed")))
}

fn describe(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|param| param.text()).collect();
    format!("({})", names.join(", "))
}

/// The name of the function in `module` that follows `params`: `function`
/// if given, else the module's only `func.func`.
pub fn find_kernel(module: &Module<'_>, function: Option<&str>, params: &[Param]) -> Result<String, String> {
    let mut found = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("func.func") {
            continue;
        }
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string())
            .unwrap_or_default();
        let inputs: Vec<String> = op
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
            .map(|t| (0..t.input_count()).filter_map(|i| t.input(i).ok()).map(|t: Type| t.to_string()).collect())
            .unwrap_or_default();
        let has_body = op.region(0).ok().and_then(|r| r.first_block()).is_some();
        let private = sptir_lowering::ir_query::is_private(&op);
        if has_body {
            found.push((name, inputs, private));
        }
    }
    // Without a name, the kernel is the one function that no other calls
    // (the rest are its helpers).
    let called = callees(module);
    let (name, inputs) = match function {
        Some(wanted) => found
            .into_iter()
            .map(|(name, inputs, _)| (name, inputs))
            .find(|(name, _)| name == wanted)
            .ok_or_else(|| format!("the module has no function @{wanted}"))?,
        None => {
            let roots: Vec<_> = found.into_iter().filter(|(name, ..)| !called.contains(name)).collect();
            // Private ones no other calls are unused helpers, unless there
            // is nothing else.
            let public = roots.iter().filter(|(_, _, private)| !private).count();
            let mut roots: Vec<_> = roots
                .into_iter()
                .filter(|(_, _, private)| public == 0 || !private)
                .map(|(name, inputs, _)| (name, inputs))
                .collect();
            match roots.len() {
                1 => roots.remove(0),
                0 => return Err("the module has no function with a body that no other function calls".into()),
                _ => {
                    let names: Vec<String> = roots.iter().map(|(name, _)| format!("@{name}")).collect();
                    return Err(format!(
                        "the module has several functions that no other calls ({}); name the kernel with --function",
                        names.join(", ")
                    ));
                }
            }
        }
    };
    let expected = describe(params);
    let actual = format!("({})", inputs.join(", "));
    if expected != actual {
        return Err(format!("kernel @{name} takes {actual} but this problem binds {expected}"));
    }
    Ok(name)
}

/// The functions that a `func.call` in `module` names.
fn callees(module: &Module<'_>) -> Vec<String> {
    use melior::ir::{
        attribute::FlatSymbolRefAttribute,
        operation::{WalkOrder, WalkResult},
    };
    let mut names = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("func.call") {
            if let Some(callee) = op.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok()) {
                names.push(callee.value().to_string());
            }
        }
        WalkResult::Advance
    });
    names
}

/// The PTX of every kernel in `module` after the GPU pipeline: the
/// `gpu.binary` objects, in order.
pub fn ptx_of(module: &Module<'_>) -> Vec<String> {
    use melior::ir::{
        attribute::{ArrayAttribute, AttributeLike},
        operation::{WalkOrder, WalkResult},
    };
    let mut texts = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("gpu.binary") {
            if let Some(objects) = op.attribute("objects").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) {
                for index in 0..objects.len() {
                    if let Ok(object) = objects.element(index) {
                        let text = unsafe { mlir_sys::mlirGPUObjectAttrGetObject(object.to_raw()) };
                        let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
                        texts.push(String::from_utf8_lossy(bytes).into_owned());
                    }
                }
            }
        }
        WalkResult::Advance
    });
    texts
}
