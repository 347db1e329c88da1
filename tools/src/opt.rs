//! The `sptir-opt` driver: parse, verify, run a pipeline, print; one input
//! or each `// -----` chunk of it. Kept out of `main` so tests can run it
//! in-process.

use crate::{
    context::create_context,
    diagnostics::{self, Diag},
};
use melior::{
    ir::operation::{OperationLike, OperationPrintingFlags},
    pass::{PassIrPrintingOptions, PassManager},
    utility::parse_pass_pipeline,
};
use std::{cell::RefCell, rc::Rc};

/// What `sptir-opt` was asked to do, independent of how it was asked.
#[derive(Debug, Default, Clone)]
pub struct OptOptions {
    /// Textual pipeline, e.g. `builtin.module(sparse-reorder{...})`.
    pub pipeline: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print_ir_after_all: bool,
    pub print_debug_info: bool,
    pub print_generic: bool,
    /// Accept ops of dialects that are not registered (for tests).
    pub allow_unregistered_dialect: bool,
}

/// The result of one run: what goes to stdout, what goes to stderr, and
/// whether the run succeeded.
#[derive(Debug, Default)]
pub struct Outcome {
    pub output: String,
    pub errors: String,
    pub success: bool,
}

const SPLIT_MARKER: &str = "// -----";

/// Runs the driver over `source`, read from `file` (used in locations).
pub fn run(source: &str, file: &str, options: &OptOptions) -> Outcome {
    let mut outcome = Outcome { success: true, ..Outcome::default() };
    let chunks = if options.split_input_file { split(source) } else { vec![(0, source.to_string())] };
    let mut outputs = Vec::new();
    for (first_line, chunk) in chunks {
        let result = run_chunk(&chunk, first_line, file, options);
        outcome.errors.push_str(&result.errors);
        outcome.success &= result.success;
        // A chunk that failed keeps its place, so that output chunk N is
        // input chunk N's, as in mlir-opt.
        outputs.push(result.output.unwrap_or_default());
    }
    outcome.output = outputs.join(&format!("{SPLIT_MARKER}\n"));
    outcome
}

/// Splits at marker lines; each chunk keeps its first line number (0-based).
fn split(source: &str) -> Vec<(usize, String)> {
    let mut chunks = Vec::new();
    let (mut start, mut current) = (0, String::new());
    for (index, line) in source.lines().enumerate() {
        if line.trim_start().starts_with(SPLIT_MARKER) {
            chunks.push((start, std::mem::take(&mut current)));
            start = index + 1;
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    chunks.push((start, current));
    chunks
}

struct ChunkResult {
    output: Option<String>,
    errors: String,
    success: bool,
}

fn run_chunk(chunk: &str, first_line: usize, file: &str, options: &OptOptions) -> ChunkResult {
    let context = create_context();
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
    let collected: Rc<RefCell<Vec<Diag>>> = Rc::default();
    let sink = collected.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        Diag::collect(&diagnostic, &mut sink.borrow_mut());
        true
    });

    // Leading newlines keep line numbers those of the whole file.
    let padded = format!("{}{chunk}", "\n".repeat(first_line));
    let mut output = None;
    let mut ok = true;
    let mut errors = String::new();
    match sptir_dialects::parse_module(&context, &padded, file) {
        None => ok = false,
        Some(mut module) => {
            if let Some(pipeline) = &options.pipeline {
                let manager = PassManager::new(&context);
                if options.print_ir_after_all {
                    manager.enable_ir_printing(&PassIrPrintingOptions {
                        before_all: false,
                        after_all: true,
                        module_scope: true,
                        on_change: false,
                        on_failure: false,
                        flags: printing_flags(options),
                        tree_printing_path: Default::default(),
                    });
                }
                if let Err(error) = parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline) {
                    errors.push_str(&format!("sptir-opt: invalid pass pipeline '{pipeline}': {error}\n"));
                    ok = false;
                } else if lowers_to_llvm(pipeline) && has_unregistered_op(&context, &module) {
                    ok = false;
                } else if manager.run(&mut module).is_err() {
                    ok = false;
                }
            }
            if ok {
                output = Some(module.as_operation().to_string_with_flags(printing_flags(options)).unwrap_or_default());
            }
        }
    }
    context.detach_diagnostic_handler(handler);
    let diagnostics = collected.borrow().clone();

    if options.verify_diagnostics {
        // As in mlir-opt, the op dump MLIR attaches to verifier errors is
        // not something a test annotates.
        let diagnostics: Vec<Diag> = diagnostics
            .into_iter()
            .filter(|diagnostic| !diagnostic.message.starts_with("see current operation"))
            .collect();
        // Failure is the expected outcome of a diagnostic test; what counts
        // is that the diagnostics are exactly the annotated ones.
        return match diagnostics::verify(&diagnostics, chunk, first_line + 1, file) {
            Ok(()) => {
                let success = errors.is_empty();
                ChunkResult { output, errors, success }
            }
            Err(report) => ChunkResult { output: None, errors: errors + &report, success: false },
        };
    }
    for diagnostic in &diagnostics {
        errors.push_str(&format!("{diagnostic}\n"));
    }
    ChunkResult { output, errors, success: ok }
}

/// Whether `pipeline` lowers to the LLVM dialect, whose conversions
/// (upstream's, some of which crash on them) cannot take ops no dialect
/// defines.
fn lowers_to_llvm(pipeline: &str) -> bool {
    // Not "sptir-to-cpu-stage3", which stops before LLVM.
    let pipeline = pipeline.replace("sptir-to-cpu-stage3", "");
    [
        "sptir-to-cpu",
        "sptir-to-gpu",
        "sptir-stage3-to-llvm",
        "sptir-stage2-to-gpu",
        "sptir-launches-to-gpu",
        "math-extend-to-supported-types",
    ]
    .iter()
    .any(|name| pipeline.contains(name))
}

/// Reports each op of an unregistered dialect (accepted by
/// --allow-unregistered-dialect) at its location; whether there was one.
fn has_unregistered_op(context: &melior::Context, module: &melior::ir::Module<'_>) -> bool {
    use melior::ir::operation::{WalkOrder, WalkResult};
    let mut found = false;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or_default().to_string();
        if !context.is_registered_operation(&name) {
            sptir_lowering::pass_registry::emit_error(
                op.location(),
                format!("'{name}' belongs to no registered dialect, and lowering to LLVM cannot convert it"),
            );
            found = true;
        }
        WalkResult::Advance
    });
    found
}

fn printing_flags(options: &OptOptions) -> OperationPrintingFlags {
    let mut flags = OperationPrintingFlags::new();
    if options.print_debug_info {
        flags = flags.enable_debug_info(true, false);
    }
    if options.print_generic {
        flags = flags.print_generic_operation_form();
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_keeping_line_numbers() {
        let chunks = split("a\n// -----\nb\nc\n// -----\n");
        assert_eq!(chunks, vec![(0, "a\n".into()), (2, "b\nc\n".into()), (5, String::new())]);
    }
}
