//! `sptir-opt`: mlir-opt for sptir. Reads a `.mlir` file (or stdin), runs a
//! pass pipeline over it and prints the result.

use clap::Parser;
use sptir_tools::opt::{run, OptOptions};
use std::{
    io::{Read, Write},
    process::ExitCode,
};

fn pass_list() -> String {
    let mut text = String::from("sptir passes (use inside --pass-pipeline):\n");
    for pass in sptir_lowering::PASSES {
        text.push_str(&format!("  {:<24} {}\n", pass.argument, pass.description));
        for option in pass.options {
            text.push_str(&format!(
                "      {:<20} {}{}\n",
                option.name,
                option.help,
                if option.required { " (required)" } else { "" }
            ));
        }
    }
    text.push_str("\nsptir pipelines (use inside --pass-pipeline; the sptir-to-* ones are also flags):\n");
    for pipeline in sptir_lowering::pipelines::PIPELINES {
        text.push_str(&format!("  {:<24} {}\n", pipeline.argument, pipeline.description));
    }
    text.push_str("\nEvery upstream MLIR dialect and pass is registered too.");
    text
}

#[derive(Parser, Debug)]
#[command(
    name = "sptir-opt",
    version,
    about = "Parse, verify, transform and print sptir and MLIR programs",
    after_help = pass_list()
)]
struct Args {
    /// Input file; `-` reads standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file; `-` writes standard output.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Textual pass pipeline, e.g. 'builtin.module(sparse-reorder{iteration=csrmm order=0,2,1})'.
    #[arg(long = "pass-pipeline", short = 'p')]
    pass_pipeline: Option<String>,
    /// Stage I -> stage III (scf/memref/arith); same as --pass-pipeline='builtin.module(sptir-to-stage3)'.
    #[arg(long = "sptir-to-stage3", conflicts_with_all = ["pass_pipeline", "sptir_to_cpu"])]
    sptir_to_stage3: bool,
    /// Stage I -> LLVM dialect for the CPU; same as --pass-pipeline='builtin.module(sptir-to-cpu)'.
    #[arg(long = "sptir-to-cpu", conflicts_with_all = ["pass_pipeline", "sptir_to_gpu"])]
    sptir_to_cpu: bool,
    /// Stage I -> PTX kernels and host code for sm_90; same as --pass-pipeline='builtin.module(sptir-to-gpu)'.
    #[arg(long = "sptir-to-gpu", conflicts_with_all = ["pass_pipeline", "sptir_to_stage3"])]
    sptir_to_gpu: bool,
    /// Process each `// -----` separated chunk of the input on its own.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against `expected-error {{...}}` annotations in the input.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print the IR after each pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// Print source locations.
    #[arg(long = "mlir-print-debuginfo")]
    print_debug_info: bool,
    /// Print operations in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Accept operations of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,
}

/// The compiler thread's stack (address space; pages are used as needed).
const STACK_BYTES: usize = 1 << 30;

fn main() -> ExitCode {
    sptir_tools::quiet_panics();
    sptir_tools::restore_sigpipe();
    let args = Args::parse();
    let mut bytes = Vec::new();
    let read = if args.input == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(&args.input).map(|data| bytes = data)
    };
    if let Err(error) = read {
        eprintln!("sptir-opt: cannot read '{}': {error}", args.input);
        return ExitCode::FAILURE;
    }
    if bytes.starts_with(b"ML\xefR") {
        eprintln!(
            "sptir-opt: '{}' is MLIR bytecode; sptir-opt reads MLIR text (mlir-opt prints bytecode as text)",
            args.input
        );
        return ExitCode::FAILURE;
    }
    // Bytes that are not UTF-8 (a Latin-1 comment, as mlir-opt reads it)
    // become U+FFFD; only a string attribute holding one would change.
    let source = String::from_utf8_lossy(&bytes).into_owned();
    let file = if args.input == "-" { "<stdin>" } else { args.input.as_str() };
    let options = OptOptions {
        pipeline: if args.sptir_to_stage3 {
            Some("builtin.module(sptir-to-stage3)".into())
        } else if args.sptir_to_cpu {
            Some("builtin.module(sptir-to-cpu)".into())
        } else if args.sptir_to_gpu {
            Some("builtin.module(sptir-to-gpu)".into())
        } else {
            args.pass_pipeline
        },
        split_input_file: args.split_input_file,
        verify_diagnostics: args.verify_diagnostics,
        print_ir_after_all: args.print_ir_after_all,
        print_debug_info: args.print_debug_info,
        print_generic: args.print_generic,
        allow_unregistered_dialect: args.allow_unregistered_dialect,
    };
    // The parser and verifier recurse once per nesting level: a deep input
    // needs a deeper stack than the main thread's 8 MiB.
    // The thread hands its outcome over and never exits: on some malformed
    // inputs (a forward reference that resolves to an argument of a nested
    // block which then fails to parse) MLIR's parser writes to memory it
    // has freed, and glibc notices only when an exiting thread returns its
    // allocation cache, aborting with the diagnostics unprinted. The
    // process ends with main instead.
    // An output file that cannot be written is found before the work, as
    // mlir-opt finds it.
    let mut output_file = None;
    if args.output != "-" {
        match std::fs::File::create(&args.output) {
            Ok(opened) => output_file = Some(opened),
            Err(error) => {
                eprintln!("sptir-opt: cannot write '{}': {error}", args.output);
                return ExitCode::FAILURE;
            }
        }
    }
    let file = file.to_string();
    let (sender, receiver) = std::sync::mpsc::channel();
    let outcome = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let _ = sender.send(run(&source, &file, &options));
            loop {
                std::thread::park();
            }
        })
        .map_err(|e| e.to_string())
        .and_then(|_| receiver.recv().map_err(|_| "the compiler thread panicked".to_string()));
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            eprintln!("sptir-opt: {error}");
            return ExitCode::FAILURE;
        }
    };
    eprint!("{}", outcome.errors);
    let written = match output_file {
        None => std::io::stdout().write_all(outcome.output.as_bytes()),
        Some(mut opened) if outcome.success => opened.write_all(outcome.output.as_bytes()),
        // As mlir-opt, a failed run leaves no output file (but a device
        // such as /dev/null stays).
        Some(_) => match std::fs::metadata(&args.output) {
            Ok(metadata) if metadata.is_file() => std::fs::remove_file(&args.output),
            _ => Ok(()),
        },
    };
    if let Err(error) = written {
        eprintln!("sptir-opt: cannot write '{}': {error}", args.output);
        return ExitCode::FAILURE;
    }
    if outcome.success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
