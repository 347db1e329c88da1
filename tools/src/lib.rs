//! sptir's command-line tools: `sptir-opt` (an mlir-opt over sptir's and
//! upstream MLIR's dialects and passes) and the pieces they share.

pub mod compile;
pub mod context;
pub mod diagnostics;
pub mod kernels;
pub mod opt;
pub mod programs;
pub mod schedules;

/// Replaces Rust's panic report (a backtrace hint on stderr) with one
/// line: a panic inside a pass is caught and reported as a diagnostic at
/// the IR, and anything else is a bug to report, not a crash to decode.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("unknown cause");
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("internal error: {message}{place}");
    }));
}

/// Lets a closed standard output (`sptir-bench --emit ptx | head`) end the
/// process quietly, as it does other Unix tools: Rust ignores SIGPIPE, and
/// its print macros then panic.
pub fn restore_sigpipe() {
    extern "C" {
        fn signal(signal: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    unsafe { signal(SIGPIPE, SIG_DFL) };
}
