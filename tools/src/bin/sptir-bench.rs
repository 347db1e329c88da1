//! `sptir-bench`: builds the stage I program for an op and a format,
//! compiles it, runs it on a real or synthetic matrix with random dense
//! operands, checks it against a float64 reference and times it. One JSON
//! object per line with `--json`.

use clap::{parser::ValueSource, CommandFactory, FromArgMatches, Parser, ValueEnum};
use melior::ir::Module;
use sptir_runtime::{
    cpu::{CpuKernel, KernelArg},
    cuda, cusparse, load_matrix, randomize_values, Csr, ErrorSums,
};
use sptir_tools::{
    compile::{find_kernel, parse_module, ptx_of, run_pipeline},
    context::create_context,
    kernels,
    kernels::{prepare, Format, KernelError, Layout, Op, Prepared},
    schedules::{self, LaneSddmm, RowSpmm, SddmmWalk},
};
use std::{process::ExitCode, time::Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OpArg {
    Spmm,
    Sddmm,
}

impl From<OpArg> for Op {
    fn from(op: OpArg) -> Op {
        match op {
            OpArg::Spmm => Op::Spmm,
            OpArg::Sddmm => Op::Sddmm,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Csr,
    Ell,
    Bsr,
    Hyb,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Device {
    /// The CPU kernel, compiled through LLVM.
    Cpu,
    /// The GPU kernel on device 0, through the CUDA driver.
    Cuda,
    /// The GPU kernel's launches run on the CPU, their blocks and threads
    /// one after the other (`serialize-launches`): checks a GPU schedule's
    /// results on a machine without a GPU. Its times say nothing of a GPU's.
    Emulate,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Baseline {
    Cusparse,
}

/// How a GPU run's CUDA events are placed (the kernels' and cuSPARSE's alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Timing {
    /// The GPU starts a run once the host has queued all of it: the events
    /// time the GPU's work alone, as nvbench does.
    Queued,
    /// The GPU starts each launch as soon as it arrives: the events also
    /// take in the host's submission of the run (how runs were timed
    /// before session 26).
    Launch,
}

impl Timing {
    fn name(self) -> &'static str {
        match self {
            Timing::Queued => "queued",
            Timing::Launch => "launch",
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Emit {
    Stage1,
    Stage2,
    Stage3,
    Llvm,
    Ptx,
}

#[derive(Parser, Debug, Clone)]
#[command(name = "sptir-bench", version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SPTIR_BUILD"), ")"), about = "Compile, run, verify and time a sparse kernel")]
struct Args {
    #[arg(long, value_enum)]
    op: OpArg,
    #[arg(long, value_enum, default_value = "csr")]
    format: FormatArg,
    /// Matrix Market file (.mtx or .mtx.gz) or `rmat:SCALE:DEGREE:SEED`.
    #[arg(long)]
    matrix: String,
    /// Feature sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "32", value_parser = parse_feat)]
    feat: Vec<usize>,
    #[arg(long, value_enum, default_value = "cpu")]
    device: Device,
    /// Timed runs after one warm-up run (1 to 100000); the median is reported.
    #[arg(long, default_value_t = 10, value_parser = parse_reps)]
    reps: usize,
    /// Print one JSON object per line.
    #[arg(long)]
    json: bool,
    /// Print the program at this stage instead of running it.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Run a kernel from this .mlir file (stage I) instead of the built-in
    /// program; it must take the parameters the built-in one takes.
    #[arg(long)]
    kernel: Option<String>,
    /// With --kernel: the function to run when the file has several that
    /// no other calls (without it, the one function that no other calls).
    #[arg(long)]
    function: Option<String>,
    /// Before the verified and timed runs, run a copy of the kernel whose
    /// every memory access checks its indices (`guard-memory-accesses`),
    /// and stop with the accesses that failed, if any. Always done for
    /// --kernel: a kernel whose buffers do not match its axes would
    /// otherwise read or write outside them.
    #[arg(long)]
    check_bounds: bool,
    /// BSR block size.
    #[arg(long, default_value_t = 4)]
    block: usize,
    /// ELL matrices with more slots run as row panels of at most this many
    /// slots each (memory: 8 bytes a slot, 12 for SDDMM).
    #[arg(long, default_value_t = 1 << 27)]
    ell_panel_slots: usize,
    /// hyb column partitions.
    #[arg(long, default_value_t = 1)]
    col_parts: usize,
    /// hyb bucket widths are 1, 2, ..., 2^k. Default: 4, except SDDMM on
    /// the GPU from 128 features without --schedule or --kernel (which
    /// name the buckets' loops and arguments), 0 (every bucket row one
    /// non-zero: COO), the faster there on the H100 (docs/perf.md,
    /// session 30). --stage1 too keeps 4.
    #[arg(long)]
    bucket_exp: Option<u32>,
    /// hyb SpMM: a bucket that owns its rows (lists each once, and no other
    /// bucket lists them) stores its rows' sums, with no atomics, and only
    /// the other rows (empty ones, those split over the widest bucket or
    /// over column partitions) are zeroed and added to atomically; without
    /// it, every bucket adds into a zeroed C atomically, all in one launch.
    /// The owning buckets' stores make a launch each.
    #[arg(long)]
    hyb_exclusive: bool,
    /// Also run this baseline in the same process (GPU only): cuSPARSE.
    #[arg(long, value_enum)]
    baseline: Option<Baseline>,
    /// How GPU runs are timed, kernels and baseline alike. A gate that the
    /// host does not open in time (50 ms) turns queued timing off for the
    /// rest of the process; the JSON line's "timing" says what was used.
    #[arg(long, value_enum, default_value = "queued")]
    timing: Timing,
    /// Stage I schedule, a pass list run before lower-sparse-iter on every
    /// device, e.g. 'sparse-fuse{iteration=sddmm loops=0,1}'.
    #[arg(long)]
    stage1: Option<String>,
    /// Stage II schedule for the GPU, a pass list run after lower-sparse-iter,
    /// e.g. 'sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},...';
    /// loops it leaves unbound get the default schedule.
    #[arg(long)]
    schedule: Option<String>,
    /// Row-wise SpMM schedule (csr, ell, hyb) for the GPU: rows per block on
    /// threadIdx.y, threads per row on threadIdx.x, features per thread
    /// per step (1, 2 or 4: vector loads), as
    /// ROWS,THREADS,VECTOR[,CACHE[,SLICE[,UNROLL]]]: CACHE > 0 (csr, ell; a
    /// multiple of THREADS; with ROWS > 1, THREADS dividing 32, or a
    /// multiple of 32 with ROWS at most 15) stages each row's non-zeros
    /// through shared memory CACHE at a time, a tile for each row; SLICE > 0
    /// (a multiple of VECTOR, at most 64 chunks of THREADS * VECTOR; one
    /// holding all the features is none) cuts the features into slices of
    /// SLICE on blockIdx.y, so that the blocks running together gather one
    /// slice of B's rows (it may fit in L2 where B does not); UNROLL
    /// (without CACHE) is the non-zeros a row walks a step, their gathers
    /// of B in flight together: 0 (the default) picks 1 where rows share a
    /// warp (THREADS below 32, ROWS above 1), else 8 divided by the feature
    /// chunks a step holds; 1 walks one at a time, at most 64. Without it (and
    /// without --schedule) the GPU uses one chosen from --feat and the
    /// size of B.
    #[arg(long, value_delimiter = ',')]
    row_spmm: Option<Vec<usize>>,
    /// SDDMM schedule (csr, hyb) for the GPU with each dot product on lanes
    /// of threadIdx.x: non-zeros per block on threadIdx.y, lanes per
    /// non-zero (1 to 32, a power of two; their partial sums meet in a warp
    /// shuffle), features per lane per step (1, 2 or 4: vector loads), as
    /// ROWS,THREADS,VECTOR[,ROWWISE]: ROWWISE 1 (csr) puts rows on
    /// threadIdx.y instead, each walking its non-zeros (no binary search
    /// for the row); ROWWISE 2 (csr) puts rows on threadIdx.y and a row's
    /// non-zeros on its THREADS lanes, each lane a whole dot product
    /// VECTOR features a step (no search, no shuffle). In hyb, ROWS counts bucket rows, each walking its
    /// slots with its features of X in registers. Without it (and without
    /// --schedule) the GPU uses a non-zero-parallel one chosen from --feat
    /// (in hyb, 8 lanes a bucket row, 16 bucket rows a block).
    #[arg(long, value_delimiter = ',')]
    sddmm: Option<Vec<usize>>,
    /// GPU architecture for --device cuda and --emit ptx (default sm_90).
    #[arg(long)]
    chip: Option<String>,
    /// Compile the GPU kernel for every feature size and width: it reads
    /// them from its arguments. By default it is built for this run's
    /// (`specialize-arguments`), so their loops have constant trip counts.
    /// (CPU kernels are always generic.)
    #[arg(long)]
    generic: bool,
    /// Search formats (csr, ell, bsr, hyb(c, k)) and, on the GPU, row-block
    /// SpMM and non-zero-parallel SDDMM schedules for this matrix and
    /// feature size; print each and the best (the flags that set a format
    /// or a schedule are refused with it).
    #[arg(long)]
    tune: bool,
    /// With --tune: write the best configuration to this file (one
    /// `[feat N]` section per feature size when --feat gives several).
    #[arg(long)]
    save_config: Option<String>,
    /// Read the format, its parameters and the schedule from a file written
    /// by --save-config (`key=value` lines, `#` comments; it replaces
    /// --format, --block, --col-parts, --bucket-exp, --hyb-exclusive,
    /// --stage1, --schedule, --row-spmm and --sddmm, which are refused with
    /// it; a file with `[feat N]` sections needs one for each --feat).
    #[arg(long)]
    config: Option<String>,
    /// Seed for the random values of A and the dense operands.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Largest accepted relative error against the float64 reference:
    /// ||out - ref|| / ||m||, m being each element's sum of the magnitudes
    /// of its terms (so that cancelling terms do not fail a correct kernel).
    /// Each element must also be within 1e-3 of its own m (`elem_err` in
    /// the JSON line): hub rows make most of the norm and would hide a
    /// short row that is wrong in full.
    #[arg(long, default_value_t = 1e-5)]
    tolerance: f64,
}

fn matrix_name(spec: &str) -> String {
    let base = spec.rsplit('/').next().unwrap_or(spec);
    base.trim_end_matches(".gz").trim_end_matches(".mtx").to_string()
}

fn median(mut samples: Vec<f64>) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

fn parse_reps(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=100_000).contains(&n) => Ok(n),
        _ => Err(format!("expected a number of runs from 1 to 100000, got '{text}'")),
    }
}

/// One feature size, checked before any runs.
fn parse_feat(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("feature size '{text}' is too large (at most {})", usize::MAX))
        }
        _ => Err(format!("expected a feature size of at least 1, got '{text}'")),
    }
}

/// `text` as a JSON string (quoted, escaped).
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text`, the formatted `value`, in JSON, which has no infinity or NaN:
/// those are `null`.
fn json_number(value: f64, text: String) -> String {
    if value.is_finite() {
        text
    } else {
        "null".into()
    }
}

/// What one run covers: the whole problem, or for an ELL matrix of more
/// than `panel_slots` slots (a graph with a hub row) its row panels. Each
/// panel is an ELL matrix of the full width, built when it runs (so one is
/// in memory at a time) and checked against its own reference; the
/// error reported is the whole result's (`ErrorSums` over the panels).
enum Work {
    Whole(Box<Prepared>),
    Panels { ranges: Vec<std::ops::Range<usize>>, width: usize, dense: Vec<Vec<f32>> },
}

impl Work {
    fn plan(
        op: Op,
        format: Format,
        a: &Csr,
        feat: usize,
        layout: Layout,
        seed: u64,
        panel_slots: usize,
    ) -> Result<Self, KernelError> {
        // Without non-zeros there is nothing to pad (and a padded slot would
        // read column 0, which a matrix without columns lacks).
        let width = a.max_row_nnz();
        if format != Format::Ell || width == 0 || a.rows().saturating_mul(width) <= panel_slots {
            return Ok(Work::Whole(Box::new(prepare(op, format, a, feat, layout, seed)?)));
        }
        // `prepare` checks this on the whole path; here `operands` follows.
        kernels::check_feat(op, a, feat)?;
        let rows_per_panel = (panel_slots / width).max(1);
        let ranges =
            (0..a.rows()).step_by(rows_per_panel).map(|start| start..(start + rows_per_panel).min(a.rows())).collect();
        Ok(Work::Panels { ranges, width, dense: kernels::operands(op, a, feat, seed) })
    }

    fn count(&self) -> usize {
        match self {
            Work::Whole(_) => 1,
            Work::Panels { ranges, .. } => ranges.len(),
        }
    }

    /// Runs `each` on part `index` of the work.
    fn with_part<T>(
        &mut self,
        index: usize,
        (op, format, a, feat, layout): (Op, Format, &Csr, usize, Layout),
        each: &mut dyn FnMut(&mut Prepared) -> Result<T, String>,
    ) -> Result<T, String> {
        match self {
            Work::Whole(problem) => each(problem),
            Work::Panels { ranges, width, dense } => {
                let range = ranges[index].clone();
                let rows = a.row_slice(range.clone()).ok_or_else(|| KernelError::Panel(range.clone()).to_string())?;
                let operands = match op {
                    Op::Spmm => vec![dense[0].clone()],
                    Op::Sddmm => vec![dense[0][range.start * feat..range.end * feat].to_vec(), dense[1].clone()],
                };
                let layout = Layout { ell_width: Some(*width), ..layout };
                let mut panel =
                    kernels::prepare_with(op, format, &rows, feat, layout, operands).map_err(|e| e.to_string())?;
                each(&mut panel)
            }
        }
    }
}

/// `module`, lowered for `device`, compiled; each call runs `function` on
/// the arguments and returns its time in ms: the device's kernel time on
/// the GPU, the wall time of the call on the CPU.
fn compile_kernel<'f>(
    module: &Module<'_>,
    function: &'f str,
    device: Device,
    opt_level: usize,
) -> Result<Box<dyn FnMut(&mut [KernelArg<'_>]) -> Result<f64, String> + 'f>, String> {
    Ok(match device {
        Device::Cpu | Device::Emulate => {
            let kernel = CpuKernel::compile(module, opt_level).map_err(|e| e.to_string())?;
            Box::new(move |args| {
                let start = Instant::now();
                kernel.run(function, args).map_err(|e| e.to_string())?;
                Ok(start.elapsed().as_secs_f64() * 1e3)
            })
        }
        Device::Cuda => {
            let kernel = cuda::GpuKernel::compile(module, 3).map_err(|e| e.to_string())?;
            Box::new(move |args| kernel.run(function, args).map(f64::from).map_err(|e| e.to_string()))
        }
    })
}

/// The passes that make a bounds-checked kernel: a helper function has
/// nowhere to count its failed checks, so calls are inlined first.
const GUARD: &str = "inline,guard-memory-accesses,";

/// The LLVM optimization level of the bounds-checked copy.
const CHECKED_OPT_LEVEL: usize = 1;

/// The LLVM optimization level of an emulated GPU kernel: its times say
/// nothing of a GPU's, and optimizing the serialized launches of many
/// buckets took LLVM most of a run (hyb(4, 4) SDDMM on rmat:10:8:0, 20
/// buckets' launches in one function: 24 s at O3, 5 s at O1, 1.2 s at O0;
/// hyb(7, 4): 120 s at O3, 3 s at O0).
const EMULATED_OPT_LEVEL: usize = 0;

/// Runs `module`, lowered with `guard-memory-accesses`, on every part of
/// `work` (outputs poisoned first); an error naming the failed checks if
/// any access was out of bounds, ending with `blame`: what to look at.
fn check_bounds(
    module: &Module<'_>,
    function: &str,
    device: Device,
    work: &mut Work,
    part: (Op, Format, &Csr, usize, Layout),
    blame: &str,
) -> Result<(), String> {
    use sptir_lowering::guard_memory_accesses::{checks, failures};
    let checks = checks(module.as_operation()).unwrap_or_default();
    // Run once a part and not timed: LLVM's optimizations of the checks
    // (hyb's unrolled buckets hold thousands) cost more than they save.
    let mut run = compile_kernel(module, function, device, CHECKED_OPT_LEVEL)?;
    for index in 0..work.count() {
        let mut faults = [0i32; 2];
        let mut written = None;
        work.with_part(index, part, &mut |problem| {
            problem.poison();
            // The runs after this one read the inputs it leaves on the CPU
            // (the GPU gets its own copy of them each run).
            let before = (device != Device::Cuda).then(|| problem.args.clone());
            let mut args = problem.kernel_args();
            args.push(KernelArg::Counts(&mut faults));
            run(&mut args)?;
            written = before.and_then(|before| problem.input_written_since(&before)).map(|k| (k, problem.params()[k]));
            Ok(())
        })?;
        if let Some((parameter, param)) = written {
            return Err(format!(
                "kernel @{function} writes its parameter #{parameter} ({}), one of the op's inputs: the bench runs a kernel several times on one copy of its inputs and checks each result against the op's float64 reference, so a kernel may write only its output (and buffers of its own)",
                param.text()
            ));
        }
        if let Some(failures) = failures(faults, &checks) {
            let part = if work.count() > 1 { format!(" (row panel {index})") } else { String::new() };
            return Err(if failures.starts_with("an allocation failed") {
                format!("kernel @{function} runs out of memory{part}: {failures}")
            } else {
                format!("kernel @{function} accesses memory out of bounds{part}: {failures}. {blame}")
            });
        }
    }
    Ok(())
}

/// Runs one feature size; returns whether it verified and its median time.
fn run_one(args: &Args, a: &Csr, feat: usize) -> Result<(bool, f64), String> {
    let op = Op::from(args.op);
    let format = match args.format {
        FormatArg::Csr => Format::Csr,
        FormatArg::Ell => Format::Ell,
        FormatArg::Bsr => Format::Bsr,
        FormatArg::Hyb => Format::Hyb,
    };
    let hand_written = args.schedule.is_some() || args.kernel.is_some() || args.stage1.is_some();
    let bucket_exponent = args.bucket_exp.unwrap_or(match op {
        Op::Sddmm if feat >= 128 && goes_to_gpu(args) && !hand_written => 0,
        _ => 4,
    });
    let layout = Layout {
        block: args.block,
        col_parts: args.col_parts,
        bucket_exponent,
        ell_width: None,
        hyb_exclusive: args.hyb_exclusive,
    };
    let mut work =
        Work::plan(op, format, a, feat, layout, args.seed, args.ell_panel_slots).map_err(|e| e.to_string())?;
    let part = (op, format, a, feat, layout);

    let context = create_context();
    let compile_start = Instant::now();
    // The program, its parameters and extents do not depend on the part.
    let (params, builtin_function, builtin, widths, exclusive, extents) = work.with_part(0, part, &mut |problem| {
        Ok((
            problem.params(),
            problem.function,
            problem.program(&context),
            problem.bucket_widths().to_vec(),
            problem.exclusive_buckets().map(<[bool]>::to_vec),
            problem.extents(),
        ))
    })?;
    let (mut module, function) = match &args.kernel {
        Some(path) => {
            let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            let module = parse_module(&context, &source, path)?;
            // A hyb kernel takes one set of parameters a bucket.
            let hint = |error: String| {
                match format {
                Format::Hyb => format!("{error}; a hyb kernel's parameters follow its buckets: pass the --bucket-exp and --col-parts of the run that printed it (--bucket-exp is 4 with --kernel unless given)"),
                _ => error,
            }
            };
            let function = find_kernel(&module, args.function.as_deref(), &params).map_err(hint)?;
            (module, function)
        }
        // Built from Rust, the program has no source positions; printed and
        // parsed again, its ops point into what `--emit stage1` prints.
        None => {
            let file = format!("{builtin_function} (built-in, see --emit stage1)");
            (parse_module(&context, &builtin.as_operation().to_string(), &file)?, builtin_function.to_string())
        }
    };
    // SDDMM in CSR has no spatial loop with uniform bounds below its rows,
    // so without a schedule the GPU gets one thread per row: walk the
    // non-zeros instead, 256 to a block, one per thread.
    // The GPU schedules apply where the kernel goes to the GPU pipeline.
    let gpu = goes_to_gpu(args);
    // check_options has refused schedules that do not apply.
    let row_spmm = match (&args.row_spmm, op, format) {
        (Some(values), _, _) => Some(row_spmm_schedule(values).map_err(|e| format!("--row-spmm: {e}"))?),
        (None, Op::Spmm, Format::Csr | Format::Ell | Format::Hyb)
            if gpu && args.schedule.is_none() && args.kernel.is_none() && args.stage1.is_none() =>
        {
            Some(RowSpmm::for_matrix(feat, a.cols()))
        }
        (None, _, _) => None,
    };
    let lane_sddmm = match (&args.sddmm, op, format) {
        (Some(values), _, _) => Some(lane_sddmm_schedule(values).map_err(|e| format!("--sddmm: {e}"))?),
        (None, Op::Sddmm, Format::Csr | Format::Hyb)
            if gpu && args.schedule.is_none() && args.kernel.is_none() && args.stage1.is_none() =>
        {
            Some(match format {
                Format::Hyb => LaneSddmm::for_hyb(feat),
                _ => LaneSddmm::for_features(feat),
            })
        }
        (None, _, _) => None,
    };
    let known_feat = (!args.generic).then_some(feat);
    let known_widths: Vec<Option<usize>> = widths.iter().map(|&w| (!args.generic).then_some(w)).collect();
    let row_passes = |r: RowSpmm| match format {
        Format::Ell => r.passes("ellmm", known_feat),
        Format::Hyb => r.hyb_passes(&known_widths, exclusive.as_deref(), known_feat),
        _ => r.passes("csrmm", known_feat),
    };
    let (stage1, schedule) = match (gpu, op, format, &args.stage1, &args.schedule) {
        (true, Op::Sddmm, Format::Csr, _, None) if lane_sddmm.is_some() => {
            (lane_sddmm.and_then(|s| s.stage1()).map(str::to_string), lane_sddmm.map(|s| s.passes(known_feat)))
        }
        (true, Op::Sddmm, Format::Hyb, _, None) if lane_sddmm.is_some() => {
            (None, lane_sddmm.map(|s| s.hyb_passes(&known_widths, known_feat)))
        }
        (true, Op::Spmm, _, _, None) if row_spmm.is_some() => (args.stage1.clone(), row_spmm.map(row_passes)),
        (true, Op::Spmm, Format::Bsr, None, None) if args.kernel.is_none() && !args.generic => {
            (None, schedules::bsr_spmm(args.block))
        }
        _ => (args.stage1.clone(), args.schedule.clone()),
    };
    // A schedule with nothing to schedule (hyb without buckets: a matrix
    // without non-zeros) is none.
    let (stage1, schedule) = (stage1.as_deref().and_then(pass_list), schedule.as_deref().and_then(pass_list));
    // What ran, defaults included, as JSON values for the JSON line: a
    // measurement that does not say its configuration cannot be reproduced.
    let mut described = match format {
        Format::Bsr => vec![("block", args.block.to_string())],
        Format::Hyb => vec![("col_parts", args.col_parts.to_string()), ("bucket_exp", bucket_exponent.to_string())],
        Format::Csr | Format::Ell => vec![],
    };
    if args.hyb_exclusive {
        described.push(("hyb_exclusive", "true".to_string()));
    }
    described.extend(stage1.iter().map(|s| ("stage1", json_string(s))));
    if args.device != Device::Cpu {
        described.extend(schedule.iter().map(|s| ("schedule", json_string(s))));
    }
    // (The CPU kernel is always generic.)
    if args.generic && args.device != Device::Cpu {
        described.push(("generic", "true".to_string()));
    }
    if let Some(path) = &args.kernel {
        described.push(("kernel", json_string(path)));
    }
    if args.device == Device::Cuda {
        described.push(("chip", json_string(args.chip.as_deref().unwrap_or("sm_90"))));
    }
    let stage1 = stage1.map(|s| format!("{s},")).unwrap_or_default();
    // A kernel's helpers may take its axes and buffers, which exist only
    // where they are defined: they are inlined first (without the
    // inliner's canonicalization, which is no stage I pass).
    let stage1 = match args.kernel {
        Some(_) => format!("inline{{default-pipeline=}},{stage1}"),
        None => stage1,
    };
    // The CPU kernel stays generic: with a constant feature loop LLVM
    // unrolls it whole, and can then no longer prove that C's stores miss
    // B's loads, so it loses the vectorization that a variable loop gets
    // behind a run-time alias check (half the speed on pubmed, feat 32).
    let specialize = match args.generic {
        true => String::new(),
        false => format!("{},", kernels::specialization(&function, &extents)),
    };
    let schedule = schedule.map(|s| format!("{s},")).unwrap_or_default();
    // Stage II with the GPU schedule, where the GPU and emulated paths start.
    let scheduled = format!("{specialize}{stage1}lower-sparse-iter,{schedule}sparse-pos-auto-bind");
    // The pipeline of this run's device, `guard` (a pass and a comma, or
    // nothing) running on the finished stage III: on the emulated GPU once
    // launches are loops, whose barriers it would otherwise have to prove
    // that every thread reaches alike through the checks' conditions.
    let chip = args.chip.as_deref().unwrap_or("sm_90");
    let pipeline_for = |device: Device, guard: &str| match device {
        Device::Cuda => {
            format!("builtin.module({scheduled},sptir-stage2-to-launches,{guard}sptir-launches-to-gpu{{chip={chip}}})")
        }
        Device::Emulate => format!("builtin.module({scheduled},sptir-stage2-to-emulation,{guard}sptir-stage3-to-llvm)"),
        Device::Cpu => format!("builtin.module({stage1}sptir-to-cpu-stage3,{guard}sptir-stage3-to-llvm)"),
    };
    if let Some(emit) = args.emit {
        // On a GPU device, the stages of the GPU path: stage II scheduled,
        // stage III with the launches, LLVM as the device would run it.
        // With --check-bounds, the code of the checked run.
        let on_gpu = args.device != Device::Cpu;
        let guard = if args.check_bounds { GUARD } else { "" };
        let pipeline = match emit {
            Emit::Stage1 => None,
            Emit::Stage2 if on_gpu => Some(format!("builtin.module({scheduled})")),
            Emit::Stage3 if on_gpu => {
                Some(format!("builtin.module({scheduled},sptir-stage2-to-launches,{guard})").replace(",)", ")"))
            }
            Emit::Stage2 => Some(format!("builtin.module({stage1}lower-sparse-iter)")),
            Emit::Stage3 if args.check_bounds => {
                Some(format!("builtin.module({stage1}sptir-to-cpu-stage3,{GUARD})").replace(",)", ")"))
            }
            Emit::Stage3 => Some(format!("builtin.module({stage1}sptir-to-stage3)")),
            Emit::Llvm => Some(pipeline_for(args.device, guard)),
            Emit::Ptx => Some(pipeline_for(Device::Cuda, guard)),
        };
        if let Some(pipeline) = pipeline {
            run_pipeline(&context, &mut module, &pipeline)?;
        }
        if let Emit::Ptx = emit {
            let texts = ptx_of(&module);
            if texts.is_empty() {
                // (A hyb program of empty buckets only.)
                eprintln!("sptir-bench: no GPU kernel to print: the program launches none for this matrix");
            }
            for text in texts {
                println!("{text}");
            }
        } else {
            println!("{}", module.as_operation());
        }
        return Ok((true, 0.0));
    }
    if args.device == Device::Cuda && !cuda::available() {
        return Err("--device cuda: no CUDA driver or GPU on this machine".into());
    }
    // The checked copy's compile and run are not lowering.
    let checking = Instant::now();
    if args.check_bounds || args.kernel.is_some() {
        // A copy: `module` goes on to the unguarded pipeline.
        let copy =
            unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(module.as_operation().to_raw())) };
        let mut checked = Module::from_operation(copy).ok_or("internal: the module does not copy as a module")?;
        run_pipeline(&context, &mut checked, &pipeline_for(args.device, GUARD))?;
        // A built-in kernel's axes match its parameters by construction.
        let blame = match (&args.kernel, &args.schedule, &args.stage1, &args.row_spmm, &args.sddmm) {
            (Some(_), ..) => "Do its axes and buffers match what its parameters hold?",
            (None, None, None, None, None) => "The built-in kernel under its default schedule: a fault of sptir's, please report it",
            _ => "The built-in kernel's axes match its parameters: the schedule (--schedule, --stage1, --row-spmm or --sddmm) or sptir's lowering of it is at fault; please report it if the schedule was accepted",
        };
        check_bounds(&checked, &function, args.device, &mut work, part, blame)?;
    }
    let checked = checking.elapsed();
    run_pipeline(&context, &mut module, &pipeline_for(args.device, ""))?;
    // Apart from compile_ms: on the GPU, loading the PTX has the driver
    // compile it to machine code, most of compile_ms for unrolled kernels.
    let lower_ms = (compile_start.elapsed() - checked).as_secs_f64() * 1e3;
    let opt_level = if args.device == Device::Emulate { EMULATED_OPT_LEVEL } else { 3 };
    let mut kernel = compile_kernel(&module, &function, args.device, opt_level)?;
    let mut run = |problem: &mut kernels::Prepared| kernel(&mut problem.kernel_args());
    let compile_ms = compile_start.elapsed().as_secs_f64() * 1e3;

    let mut sums = ErrorSums::default();
    for index in 0..work.count() {
        sums = sums.add(work.with_part(index, part, &mut |problem| {
            if gpu && !args.generic && problem.extents() != extents {
                return Err(format!(
                    "part {index} has extents {:?}, the kernel was built for {extents:?}",
                    problem.extents()
                ));
            }
            problem.poison();
            run(problem)?;
            Ok(ErrorSums::scaled(&problem.result(), &problem.reference, &problem.magnitudes))
        })?);
    }
    let error = sums.relative_error();
    let verified = sums.within(args.tolerance);

    let mut samples = Vec::with_capacity(args.reps);
    for _ in 0..args.reps {
        let mut total = 0.0;
        for index in 0..work.count() {
            // Poisoned again: a kernel that reads its output then makes the
            // accesses its checked run made.
            total += work.with_part(index, part, &mut |problem| {
                problem.poison();
                run(problem)
            })?;
        }
        samples.push(total);
    }
    let ms = median(samples);
    let device = match args.device {
        Device::Cpu => "cpu",
        Device::Cuda => "cuda",
        Device::Emulate => "emulate",
    };
    let gflops = 2.0 * a.nnz() as f64 * feat as f64 / (ms * 1e6);
    let name = matrix_name(&args.matrix);
    let baseline = match args.baseline {
        // The kernel's result is printed even where the baseline fails.
        Some(Baseline::Cusparse) if args.device == Device::Cuda => Some(cusparse_baseline(op, a, feat, args)),
        Some(Baseline::Cusparse) => return Err("--baseline cusparse needs --device cuda".into()),
        None => None,
    };
    if args.json {
        let mut line = format!(
            "{{\"op\":\"{}\",\"format\":\"{}\",\"matrix\":{},\"rows\":{},\"cols\":{},\"nnz\":{},\"feat\":{},\"device\":\"{}\",\"max_rel_err\":{},\"elem_err\":{},\"verified\":{},\"ms\":{},\"gflops\":{},\"compile_ms\":{:.1},\"lower_ms\":{:.1},\"reps\":{}",
            op.name(), format.name(), json_string(&name), a.rows(), a.cols(), a.nnz(), feat, device, json_number(error, format!("{error:e}")), json_number(sums.worst, format!("{:e}", sums.worst)), verified, json_number(ms, format!("{ms:.4}")), json_number(gflops, format!("{gflops:.3}")), compile_ms, lower_ms, args.reps
        );
        for (key, value) in &described {
            line.push_str(&format!(",\"{key}\":{value}"));
        }
        if args.device == Device::Cuda {
            // What was used to the end, kernels and baseline.
            let timing = if cuda::queued_timing() { Timing::Queued } else { Timing::Launch };
            line.push_str(&format!(",\"timing\":\"{}\"", timing.name()));
        }
        line.push_str(&format!(",\"build\":\"{}\"", env!("SPTIR_BUILD")));
        match &baseline {
            Some(Ok(baseline)) => line.push_str(&format!(
                ",\"baseline\":{},\"baseline_ms\":{},\"baseline_rel_err\":{},\"speedup\":{}",
                json_string(&format!("cusparse {}", baseline.algorithm)),
                json_number(baseline.ms, format!("{:.4}", baseline.ms)),
                json_number(baseline.error, format!("{:e}", baseline.error)),
                json_number(baseline.ms / ms, format!("{:.3}", baseline.ms / ms))
            )),
            Some(Err(error)) => line.push_str(&format!(",\"baseline_error\":{}", json_string(error))),
            None => {}
        }
        println!("{line}}}");
    } else {
        println!(
            "{} {} on {} ({}x{}, nnz {}), feat {}, {}: rel. error {:.2e}, worst element {:.2e} ({}), {:.3} ms median of {}, {:.2} GFLOP/s, compile {:.0} ms",
            op.name(), format.name(), name, a.rows(), a.cols(), a.nnz(), feat, device, error, sums.worst,
            if verified { "verified" } else { "WRONG" }, ms, args.reps, gflops, compile_ms
        );
        if let Some(Ok(baseline)) = &baseline {
            println!(
                "  cuSPARSE ({}): {:.3} ms, rel. error {:.2e}; speedup {:.2}x",
                baseline.algorithm,
                baseline.ms,
                baseline.error,
                baseline.ms / ms
            );
        }
    }
    if let Some(Err(error)) = baseline {
        return Err(format!("--baseline cusparse: {error}"));
    }
    Ok((verified, ms))
}

/// The row-wise SpMM schedule that `--row-spmm` (or `row_spmm=`) values name.
fn row_spmm_schedule(values: &[usize]) -> Result<RowSpmm, String> {
    let schedule = match values[..] {
        [rows, threads, vector] => RowSpmm { rows, threads, vector, ..RowSpmm::default() },
        [rows, threads, vector, cache] => RowSpmm { rows, threads, vector, cache, ..RowSpmm::default() },
        [rows, threads, vector, cache, slice] => RowSpmm { rows, threads, vector, cache, slice, unroll: 0 },
        [rows, threads, vector, cache, slice, unroll] => RowSpmm { rows, threads, vector, cache, slice, unroll },
        _ => return Err(format!("expected ROWS,THREADS,VECTOR[,CACHE[,SLICE[,UNROLL]]], got {values:?}")),
    };
    schedule.check().map(|()| schedule)
}

/// The SDDMM schedule that `--sddmm` (or `sddmm=`) values name.
fn lane_sddmm_schedule(values: &[usize]) -> Result<LaneSddmm, String> {
    let schedule = match values[..] {
        [rows, threads, vector] => LaneSddmm { rows, threads, vector, walk: SddmmWalk::NonZeros },
        [rows, threads, vector, walk @ (0 | 1 | 2)] => LaneSddmm { rows, threads, vector, walk: SddmmWalk::ALL[walk] },
        _ => return Err(format!("expected ROWS,THREADS,VECTOR[,ROWWISE 0, 1 or 2], got {values:?}")),
    };
    schedule.check().map(|()| schedule)
}

/// The settings a configuration holds, as `(key, flag)`: with --config
/// or --tune they come from the file or the search, so the flag that
/// would set one too is refused rather than overridden without a word.
const CONFIG_KEYS: [(&str, &str); 9] = [
    ("format", "--format"),
    ("block", "--block"),
    ("col_parts", "--col-parts"),
    ("bucket_exp", "--bucket-exp"),
    ("hyb_exclusive", "--hyb-exclusive"),
    ("stage1", "--stage1"),
    ("schedule", "--schedule"),
    ("row_spmm", "--row-spmm"),
    ("sddmm", "--sddmm"),
];

/// The configuration knobs --tune varies and --save-config records: the
/// format, the parameters that format takes, and the schedule.
fn config_lines(args: &Args) -> String {
    let format = format!("{:?}", args.format).to_lowercase();
    let mut text = format!("format={format}\n");
    match args.format {
        FormatArg::Bsr => text.push_str(&format!("block={}\n", args.block)),
        FormatArg::Hyb => {
            text.push_str(&format!("col_parts={}\n", args.col_parts));
            if let Some(bucket_exp) = args.bucket_exp {
                text.push_str(&format!("bucket_exp={bucket_exp}\n"));
            }
            if args.op == OpArg::Spmm {
                text.push_str(&format!("hyb_exclusive={}\n", args.hyb_exclusive));
            }
        }
        FormatArg::Csr | FormatArg::Ell => {}
    }
    if let Some(stage1) = &args.stage1 {
        text.push_str(&format!("stage1={stage1}\n"));
    }
    if let Some(schedule) = &args.schedule {
        text.push_str(&format!("schedule={schedule}\n"));
    }
    for (key, values) in [("row_spmm", &args.row_spmm), ("sddmm", &args.sddmm)] {
        if let Some(values) = values {
            let values: Vec<String> = values.iter().map(usize::to_string).collect();
            text.push_str(&format!("{key}={}\n", values.join(",")));
        }
    }
    text
}

/// A configuration file (--config, as --save-config writes it): `key=value`
/// lines, `#` comments, and `[feat N]` headers after which lines apply to
/// feature size N only.
struct Config {
    path: String,
    /// Each setting: its line number, its section, its key and its value.
    settings: Vec<(usize, Option<usize>, String, String)>,
    sections: Vec<usize>,
}

impl Config {
    /// A configuration is a few lines: a larger file (or a device that
    /// never ends) is not one.
    const LIMIT: u64 = 1 << 20;

    fn read(path: &str) -> Result<Config, String> {
        use std::io::Read;
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|file| file.take(Self::LIMIT + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("--config: cannot read '{path}': {e}"))?;
        if bytes.len() as u64 > Self::LIMIT {
            return Err(format!("--config: '{path}' is over 1 MiB, which no configuration is"));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("--config: '{path}' is not UTF-8 text"))?;
        Config::parse(path, &text)
    }

    /// The file's syntax: headers, `key=value` with a known key, each key
    /// once a section. Values are checked as they are applied.
    fn parse(path: &str, text: &str) -> Result<Config, String> {
        let mut config = Config { path: path.to_string(), settings: Vec::new(), sections: Vec::new() };
        let mut section = None;
        // Editors on Windows may start the file with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (number, line) in text.lines().enumerate().map(|(at, line)| (at + 1, line)) {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let error = |message: String| format!("--config: {path}:{number}: {message}");
            if let Some(header) = line.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
                let size = header.trim().strip_prefix("feat").and_then(|n| digits(n.trim()));
                let size =
                    size.ok_or_else(|| error(format!("bad section '{}': expected '[feat N]'", line.escape_debug())))?;
                if config.sections.contains(&size) {
                    return Err(error(format!("section '[feat {size}]' is given twice")));
                }
                section = Some(size);
                config.sections.push(size);
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| error(format!("expected 'key=value' or '[feat N]', got '{}'", line.escape_debug())))?;
            let key = key.trim();
            if !CONFIG_KEYS.iter().any(|(known, _)| *known == key) {
                let known: Vec<&str> = CONFIG_KEYS.iter().map(|(known, _)| *known).collect();
                return Err(error(format!("unknown key '{}' (keys: {})", key.escape_debug(), known.join(", "))));
            }
            // A second value would silently win over the first. A
            // section's settings are the last ones read.
            let current = config.settings.iter().rev().take_while(|(_, s, ..)| *s == section);
            if let Some((first, ..)) = current.filter(|(_, _, k, _)| k == key).last() {
                return Err(error(format!("key '{key}' is given twice (line {first} gave it)")));
            }
            config.settings.push((number, section, key.to_string(), value.trim().to_string()));
        }
        if config.settings.is_empty() {
            return Err(format!("--config: '{path}' sets nothing: a configuration has at least a format= line"));
        }
        Ok(config)
    }

    /// Applies the settings for feature size `feat`: those before any
    /// header and those of its section, which must set the format.
    fn apply(&self, args: &mut Args, feat: usize) -> Result<(), String> {
        let path = &self.path;
        if !self.sections.is_empty() && !self.sections.contains(&feat) {
            let sizes: Vec<String> = self.sections.iter().map(usize::to_string).collect();
            return Err(format!("--config: '{path}' has no [feat {feat}] section (it has feat {})", sizes.join(", ")));
        }
        let mut format = false;
        for (number, section, key, value) in &self.settings {
            if section.is_none_or(|size| size == feat) {
                apply_config_setting(args, key, value).map_err(|e| format!("--config: {path}:{number}: {e}"))?;
                format |= key == "format";
            }
        }
        if !format {
            return Err(format!("--config: '{path}' sets no format for feat {feat} (a format= line)"));
        }
        Ok(())
    }
}

/// A count written in decimal digits alone (no sign).
fn digits(text: &str) -> Option<usize> {
    text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok()).flatten()
}

fn apply_config_setting(args: &mut Args, key: &str, value: &str) -> Result<(), String> {
    let shown = value.escape_debug();
    let number = || digits(value).ok_or_else(|| format!("bad number '{shown}' for {key}"));
    match key {
        "format" => {
            args.format = FormatArg::from_str(value, false)
                .map_err(|_| format!("bad format '{shown}': expected csr, ell, bsr or hyb"))?
        }
        "block" => args.block = number()?,
        "col_parts" => args.col_parts = number()?,
        "bucket_exp" => {
            args.bucket_exp = Some(u32::try_from(number()?).map_err(|_| format!("bad number '{shown}' for {key}"))?)
        }
        "hyb_exclusive" => {
            args.hyb_exclusive = match value {
                "true" => true,
                "false" => false,
                _ => return Err(format!("bad flag '{shown}' for hyb_exclusive: expected true or false")),
            }
        }
        "stage1" => args.stage1 = pass_list(value),
        "schedule" => args.schedule = pass_list(value),
        "row_spmm" | "sddmm" => {
            let values: Option<Vec<usize>> = value.split(',').map(|v| digits(v.trim())).collect();
            let values = values.ok_or_else(|| format!("bad numbers '{shown}' for {key}"))?;
            let checked = match key {
                "sddmm" => lane_sddmm_schedule(&values).map(|_| ()),
                _ => row_spmm_schedule(&values).map(|_| ()),
            };
            checked.map_err(|e| format!("bad schedule '{shown}' for {key}: {e}"))?;
            if key == "sddmm" {
                args.sddmm = Some(values);
            } else {
                args.row_spmm = Some(values);
            }
        }
        other => return Err(format!("unknown key '{other}'")),
    }
    Ok(())
}

/// A pass list as given: commas around it separate nothing (they would
/// name a pass ''), and an empty list schedules nothing.
fn pass_list(text: &str) -> Option<String> {
    let trimmed = text.trim_matches(|c: char| c == ',' || c.is_whitespace());
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// The passes that rewrite stage I, which --stage1 may name.
const STAGE1_PASSES: [&str; 3] = ["sparse-reorder", "sparse-fuse", "decompose-format"];

/// Clean-ups that keep any stage what it is.
const CLEANUPS: [&str; 2] = ["canonicalize", "cse"];

/// The top-level pass names of a pass list (options in braces aside).
fn pass_names(list: &str) -> Vec<String> {
    let (mut names, mut current, mut depth) = (Vec::new(), String::new(), 0usize);
    for c in list.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => names.push(std::mem::take(&mut current)),
            _ if depth == 0 => current.push(c),
            _ => {}
        }
    }
    names.push(current);
    names.into_iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()
}

/// Refuses a pass of `list` that is not a schedule of its stage: a
/// lowering there would hand the next stage IR it does not expect.
fn check_pass_names(option: &str, list: Option<&str>, allowed: impl Fn(&str) -> bool) -> Result<(), String> {
    match list.map(pass_names).unwrap_or_default().into_iter().find(|name| !allowed(name) && !CLEANUPS.contains(&name.as_str())) {
        Some(name) => Err(format!(
            "{option}: '{name}' is not one of its stage's schedule passes ({}); the rest of the lowering is the bench's",
            if option == "--stage1" { STAGE1_PASSES.join(", ") } else { "sparse-pos-*, pad-grid-loops".into() } + ", canonicalize, cse"
        )),
        None => Ok(()),
    }
}

/// The hyb(c, k) layouts --tune tries: column partitions c, bucket widths
/// up to 2^k.
const HYB_COL_PARTS: [usize; 3] = [1, 2, 4];
const HYB_BUCKET_EXPS: [u32; 5] = [0, 2, 3, 4, 5];

/// hyb SpMM with and without `--hyb-exclusive`, where buckets may own
/// their rows (one column partition: several list a row in several).
fn hyb_exclusive_choices(op: OpArg, col_parts: usize) -> Vec<bool> {
    match op {
        OpArg::Spmm if col_parts == 1 => vec![false, true],
        _ => vec![false],
    }
}

/// `args` without the schedule knobs --tune sets itself.
fn candidate_base(args: &Args) -> Args {
    Args {
        tune: false,
        schedule: None,
        stage1: None,
        row_spmm: None,
        sddmm: None,
        hyb_exclusive: false,
        ..args.clone()
    }
}

/// The candidates --tune tries.
fn candidates(args: &Args, feat: usize) -> Vec<Args> {
    let mut list = Vec::new();
    let base = candidate_base(args);
    list.push(Args { format: FormatArg::Csr, ..base.clone() });
    if args.device == Device::Cuda {
        match args.op {
            OpArg::Spmm => {
                for RowSpmm { rows, threads, vector, cache, slice, unroll } in RowSpmm::candidates(feat) {
                    list.push(Args {
                        format: FormatArg::Csr,
                        row_spmm: Some(vec![rows, threads, vector, cache, slice, unroll]),
                        ..base.clone()
                    });
                }
            }
            OpArg::Sddmm => {
                for LaneSddmm { rows, threads, vector, walk } in LaneSddmm::candidates(feat) {
                    list.push(Args {
                        format: FormatArg::Csr,
                        sddmm: Some(vec![rows, threads, vector, walk.number()]),
                        ..base.clone()
                    });
                }
                for rows in [2, 4, 8, 16] {
                    let schedule = format!(
                        "sparse-pos-split{{loop=sddmm.0 factor={rows}}},sparse-pos-bind{{loop=sddmm.0.o to=blockIdx.x}},sparse-pos-bind{{loop=sddmm.0.i to=threadIdx.y}}"
                    );
                    list.push(Args { format: FormatArg::Csr, schedule: Some(schedule), ..base.clone() });
                }
            }
        }
        if let OpArg::Sddmm = args.op {
            for threads in [64, 128, 256, 512] {
                let schedule = SDDMM_FUSED.1.replace("factor=256", &format!("factor={threads}"));
                let stage1 = Some(SDDMM_FUSED.0.to_string());
                // The dot product in 16-byte vectors, where they fit.
                let vectorized = format!("{schedule},{SDDMM_VECTOR}");
                list.push(Args {
                    format: FormatArg::Csr,
                    stage1: stage1.clone(),
                    schedule: Some(schedule),
                    ..base.clone()
                });
                if feat % 4 == 0 {
                    list.push(Args { format: FormatArg::Csr, stage1, schedule: Some(vectorized), ..base.clone() });
                }
            }
        }
    }
    for col_parts in HYB_COL_PARTS {
        for bucket_exp in HYB_BUCKET_EXPS {
            for hyb_exclusive in hyb_exclusive_choices(args.op, col_parts) {
                list.push(Args {
                    format: FormatArg::Hyb,
                    col_parts,
                    bucket_exp: Some(bucket_exp),
                    hyb_exclusive,
                    ..base.clone()
                });
            }
        }
    }
    for block in [2, 4] {
        list.push(Args { format: FormatArg::Bsr, block, ..base.clone() });
    }
    list.push(Args { format: FormatArg::Ell, ..base.clone() });
    list
}

/// Tries every candidate; prints the fastest verified one and returns its
/// configuration (for --save-config). On the GPU,
/// SpMM in hyb is then tried under the best row schedule found.
fn tune(args: &Args, a: &Csr, feat: usize) -> Result<String, String> {
    let mut best: Option<(f64, Args)> = None;
    let try_candidate = |candidate: Args, best: &mut Option<(f64, Args)>| match run_one(&candidate, a, feat) {
        Ok((true, ms)) if best.as_ref().is_none_or(|(fastest, _)| ms < *fastest) => *best = Some((ms, candidate)),
        Ok(_) => {}
        // A format that cannot hold the matrix is not a failure here.
        Err(error) => {
            eprintln!("sptir-bench: --tune: skipping {}: {error}", config_lines(&candidate).trim().replace('\n', ", "))
        }
    };
    // After a kernel fault the GPU runs nothing more: every later
    // candidate would fail, and the winner would be a partial search's.
    let lost = || match cuda::context_lost() {
        true => Err("--tune: stopped, a candidate's kernel faulted and the GPU context is lost".to_string()),
        false => Ok(()),
    };
    for candidate in candidates(args, feat) {
        try_candidate(candidate, &mut best);
        lost()?;
    }
    // hyb takes the best row schedule without its shared-memory cache, and
    // the best SDDMM lanes when they are not row-wise (a csr form).
    let winner = best.as_ref().map(|(_, winner)| winner.clone());
    let row_spmm = winner.as_ref().and_then(|w| w.row_spmm.clone()).map(|mut r| {
        if let Some(cache) = r.get_mut(3) {
            *cache = 0;
        }
        r
    });
    let sddmm = winner
        .and_then(|w| w.sddmm)
        .filter(|s| lane_sddmm_schedule(s).is_ok_and(|lanes| lanes.walk == SddmmWalk::NonZeros));
    if args.device == Device::Cuda && (row_spmm.is_some() || sddmm.is_some()) {
        for col_parts in HYB_COL_PARTS {
            for bucket_exp in HYB_BUCKET_EXPS {
                for hyb_exclusive in hyb_exclusive_choices(args.op, col_parts) {
                    let candidate = Args {
                        format: FormatArg::Hyb,
                        col_parts,
                        bucket_exp: Some(bucket_exp),
                        hyb_exclusive,
                        row_spmm: row_spmm.clone(),
                        sddmm: sddmm.clone(),
                        ..candidate_base(args)
                    };
                    try_candidate(candidate, &mut best);
                    lost()?;
                }
            }
        }
    }
    let (ms, winner) = best.ok_or("--tune: no candidate verified")?;
    let config = config_lines(&winner);
    let best = format!("best for feat {feat}: {ms:.4} ms with {}", config.trim().replace('\n', ", "));
    // Standard output stays JSON lines under --json.
    if args.json {
        eprintln!("{best}");
    } else {
        println!("{best}");
    }
    Ok(config)
}

/// Non-zero-parallel SDDMM: rows and columns fused into one loop over the
/// non-zeros, split into blocks of 256 threads (stage I, stage II).
const SDDMM_FUSED: (&str, &str) = (
    "sparse-fuse{iteration=sddmm loops=0,1}",
    "sparse-pos-split{loop=sddmm.0 factor=256},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},sparse-pos-bind{loop=sddmm.0.i to=threadIdx.x}",
);

/// With SDDMM_FUSED: each thread's dot product in vectors of four.
const SDDMM_VECTOR: &str = "sparse-pos-split{loop=sddmm.1 factor=4},sparse-pos-vectorize{loop=sddmm.1.i}";

struct BaselineRun {
    algorithm: String,
    ms: f64,
    error: f64,
}

/// cuSPARSE on the same operands, itself checked against the reference.
fn cusparse_baseline(op: Op, a: &Csr, feat: usize, args: &Args) -> Result<BaselineRun, String> {
    let dense = kernels::operands(op, a, feat, args.seed);
    let reps = args.reps.max(1);
    match op {
        Op::Spmm => {
            let (c, ms, algorithm) = cusparse::spmm(a, &dense[0], feat, reps).map_err(|e| e.to_string())?;
            let terms = sptir_runtime::reference::spmm_terms(a, &dense[0], feat).map_err(|e| e.to_string())?;
            let error = ErrorSums::scaled(&c, &terms.values, &terms.magnitudes).relative_error();
            Ok(BaselineRun { algorithm, ms: f64::from(ms), error })
        }
        Op::Sddmm => {
            // cuSPARSE samples X Y^T without A's values: check it against
            // the reference with all values one.
            let (out, ms) = cusparse::sddmm(a, &dense[0], &dense[1], feat, reps).map_err(|e| e.to_string())?;
            let ones = a.clone().with_values(vec![1.0; a.nnz()]).map_err(|e| e.to_string())?;
            let terms =
                sptir_runtime::reference::sddmm_terms(&ones, &dense[0], &dense[1], feat).map_err(|e| e.to_string())?;
            let error = ErrorSums::scaled(&out, &terms.values, &terms.magnitudes).relative_error();
            Ok(BaselineRun { algorithm: "sddmm_default".into(), ms: f64::from(ms), error })
        }
    }
}

/// Whether the kernel goes down the GPU pipeline, where GPU schedules apply.
fn goes_to_gpu(args: &Args) -> bool {
    args.device != Device::Cpu || matches!(args.emit, Some(Emit::Ptx))
}

/// Options that would otherwise be ignored without a word, and schedules
/// that do not apply, checked before any work.
fn check_options(args: &Args) -> Result<(), String> {
    if args.function.is_some() && args.kernel.is_none() {
        return Err("--function names a function of --kernel's file: add --kernel".into());
    }
    if args.save_config.is_some() && !args.tune {
        return Err("--save-config keeps what --tune finds: add --tune".into());
    }
    if !args.tolerance.is_finite() || args.tolerance < 0.0 {
        return Err(format!("--tolerance must be a finite number at least 0, got {}", args.tolerance));
    }
    if args.ell_panel_slots == 0 {
        return Err("--ell-panel-slots must be at least 1".into());
    }
    // Also a configuration's values, checked with the command line before
    // any run (a file's section for another feature size may hold them).
    // Values no format takes are refused whatever the format.
    if args.block == 0 {
        return Err("--block (block: the bsr block size) must be at least 1".into());
    }
    if args.col_parts == 0 {
        return Err("--col-parts (col_parts: the hyb column partitions) must be at least 1".into());
    }
    if args.hyb_exclusive && (args.op != OpArg::Spmm || args.format != FormatArg::Hyb) {
        return Err("--hyb-exclusive (hyb_exclusive) applies to spmm in hyb".into());
    }
    if let Some(bucket_exp) = args.bucket_exp.filter(|&k| k > 30) {
        return Err(format!(
            "--bucket-exp (bucket_exp: the hyb bucket widths up to 2^k) must be at most 30 (2^k fits in i32), got {bucket_exp}"
        ));
    }
    if let Some(feat) = args.feat.iter().enumerate().find_map(|(i, f)| args.feat[..i].contains(f).then_some(f)) {
        return Err(format!("--feat lists {feat} twice"));
    }
    if args.tune && args.emit.is_some() {
        return Err("--tune times the runs, and --emit makes none: drop one".into());
    }
    for (list, name) in [(&args.stage1, "--stage1"), (&args.schedule, "--schedule")] {
        if list.as_deref().is_some_and(|passes| passes.contains("specialize-arguments")) {
            // Its constants would stand for sizes this run may not have: a
            // kernel specialized for more rows than the matrix has reads
            // past its arrays.
            return Err(format!(
                "{name}: sptir-bench specializes the kernel for this run's sizes itself (and --generic keeps it generic); drop specialize-arguments"
            ));
        }
    }
    check_pass_names("--stage1", args.stage1.as_deref(), |name| STAGE1_PASSES.contains(&name))?;
    if args.stage1.as_deref().is_some_and(|list| list.contains("decompose-format") && list.contains("rule=")) {
        return Err("--stage1: a built-in rule of decompose-format appends its format's arrays to the kernel's parameters, which the bench does not fill: run that format with --format (the bench converts the matrix itself), or write format_rewrite rules in a --kernel".into());
    }
    check_pass_names("--schedule", args.schedule.as_deref(), |name| {
        name.starts_with("sparse-pos-") || name == "pad-grid-loops"
    })?;
    if args.tune && args.device == Device::Emulate {
        return Err("--tune compares times, and an emulated GPU's say nothing of a GPU's: use --device cuda".into());
    }
    let schedules: Vec<&str> = [
        (args.schedule.is_some(), "--schedule"),
        (args.row_spmm.is_some(), "--row-spmm"),
        (args.sddmm.is_some(), "--sddmm"),
    ]
    .iter()
    .filter_map(|&(given, name)| given.then_some(name))
    .collect();
    if schedules.len() > 1 {
        return Err(format!("{} are alternative GPU schedules: give one", schedules.join(" and ")));
    }
    let gpu = goes_to_gpu(args);
    for &name in &schedules {
        if !gpu {
            return Err(format!("{name} is a GPU schedule: add --device cuda or emulate (or --emit ptx)"));
        }
    }
    if let Some(values) = &args.row_spmm {
        if args.op != OpArg::Spmm || args.format == FormatArg::Bsr {
            return Err("--row-spmm applies to spmm in csr, ell or hyb".into());
        }
        let schedule = row_spmm_schedule(values).map_err(|e| format!("--row-spmm: {e}"))?;
        if schedule.cache > 0 && args.format == FormatArg::Hyb {
            return Err("--row-spmm: caching in shared memory applies to csr and ell, not hyb".into());
        }
    }
    if let Some(values) = &args.sddmm {
        if args.op != OpArg::Sddmm || ![FormatArg::Csr, FormatArg::Hyb].contains(&args.format) {
            return Err("--sddmm applies to sddmm in csr or hyb".into());
        }
        let schedule = lane_sddmm_schedule(values).map_err(|e| format!("--sddmm: {e}"))?;
        if schedule.walk != SddmmWalk::NonZeros && args.format == FormatArg::Hyb {
            return Err(
                "--sddmm: ROWWISE applies to csr; hyb's buckets are always walked a bucket row at a time".into()
            );
        }
    }
    if args.sddmm.is_some() && args.stage1.is_some() {
        return Err("--sddmm sets the stage I schedule itself (sparse-fuse where it needs one): drop --stage1".into());
    }
    if args.baseline.is_some() && args.device != Device::Cuda {
        return Err("--baseline cusparse needs --device cuda".into());
    }
    Ok(())
}

/// What the command line alone settles (a configuration sets none of
/// it), checked once for all feature sizes: the output file, the GPU and
/// the chip.
fn check_environment(args: &Args) -> Result<(), String> {
    if let Some(path) = args.save_config.as_deref() {
        // Refused now, not after the whole search (an existing file keeps
        // its text until then; a new one is not left empty should the
        // search fail).
        // A link is tried through, and left as it is: one that leads
        // nowhere yet is written through at the end, as the shell would.
        let cannot = |e: std::io::Error| format!("--save-config: cannot write '{path}': {e}");
        let file = std::path::Path::new(path);
        match std::fs::symlink_metadata(file) {
            Ok(_) if file.exists() => {
                std::fs::OpenOptions::new().append(true).open(path).map_err(cannot)?;
            }
            Ok(_) => {}
            Err(_) => {
                std::fs::OpenOptions::new().append(true).create_new(true).open(path).map_err(cannot)?;
                std::fs::remove_file(path).map_err(cannot)?;
            }
        }
    }
    if args.device == Device::Cuda && args.emit.is_none() {
        sptir_runtime::cuda::check().map_err(|e| format!("--device cuda: {e}"))?;
    }
    if args.chip.is_some() && args.device != Device::Cuda && !matches!(args.emit, Some(Emit::Ptx)) {
        return Err("--chip picks the GPU that PTX is built for: add --device cuda or --emit ptx".into());
    }
    if let Some(chip) = &args.chip {
        check_chip(chip)?;
    }
    Ok(())
}

/// `--chip` before any compiling: a name (it goes into the pipeline's
/// text), and one the GPU pipeline accepts, which its own option check
/// says on an empty module.
fn check_chip(chip: &str) -> Result<(), String> {
    let name = chip.strip_prefix("sm_").is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_alphanumeric()));
    if !name {
        return Err(format!("--chip: '{chip}' is not a chip name such as sm_90"));
    }
    let context = create_context();
    let mut module = parse_module(&context, "module {}", "chip")?;
    run_pipeline(&context, &mut module, &format!("builtin.module(sptir-launches-to-gpu{{chip={chip}}})")).map_err(|e| {
        let reason = e.lines().find_map(|line| line.strip_prefix("pipeline 'sptir-launches-to-gpu': "));
        format!("--chip: {}", reason.unwrap_or(&e))
    })
}

/// Each feature size's run, its configuration applied and checked before
/// the matrix is loaded; a configuration's sections for other sizes are
/// checked too.
fn feature_runs(args: &Args, config: Option<&Config>, given: &[&str]) -> Result<Vec<(usize, Args)>, String> {
    if let Some(config) = config {
        if args.tune {
            return Err("--tune finds what --config would set: drop one".into());
        }
        if !given.is_empty() {
            return Err(format!(
                "--config: '{}' sets the format, its parameters and the schedule: drop {}",
                config.path,
                given.join(" and ")
            ));
        }
    }
    if args.tune && !given.is_empty() {
        return Err(format!(
            "--tune searches the schedules, the formats and their parameters itself: drop {}",
            given.join(" and ")
        ));
    }
    let mut runs = Vec::new();
    let others = config.map_or(Vec::new(), |c| c.sections.iter().filter(|s| !args.feat.contains(s)).copied().collect());
    for (feat, asked) in args.feat.iter().map(|&f| (f, true)).chain(others.into_iter().map(|f| (f, false))) {
        let mut run = args.clone();
        if let Some(config) = config {
            config.apply(&mut run, feat)?;
        }
        // What only the configuration brings in is blamed on it, though
        // named by the flag its key stands for.
        check_options(&run).map_err(|error| match (config, check_options(args)) {
            (Some(config), Ok(())) => format!("--config: '{}', for feat {feat}: {error}", config.path),
            _ => error,
        })?;
        if asked {
            runs.push((feat, run));
        }
    }
    Ok(runs)
}

fn main() -> ExitCode {
    sptir_tools::quiet_panics();
    sptir_tools::restore_sigpipe();
    let matches = Args::command().get_matches();
    let mut args = match Args::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(error) => error.exit(),
    };
    cuda::set_queued_timing(args.timing == Timing::Queued);
    args.schedule = args.schedule.as_deref().and_then(pass_list);
    args.stage1 = args.stage1.as_deref().and_then(pass_list);
    // The flags that set what a configuration holds, as given.
    let given: Vec<&str> = CONFIG_KEYS
        .iter()
        .filter(|(key, _)| matches.value_source(key) == Some(ValueSource::CommandLine))
        .map(|&(_, flag)| flag)
        .collect();
    let config = match args.config.as_deref().map(Config::read).transpose() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("sptir-bench: {error}");
            return ExitCode::FAILURE;
        }
    };
    let runs = match feature_runs(&args, config.as_ref(), &given) {
        Ok(runs) => runs,
        Err(error) => {
            eprintln!("sptir-bench: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = check_environment(&args) {
        eprintln!("sptir-bench: {error}");
        return ExitCode::FAILURE;
    }
    // An R-MAT's operands are refused before its generation takes the
    // memory and the time: the dense ones are as large whatever its edges,
    // SDDMM's output at most one value a sampled edge.
    if let Ok(spec) = sptir_runtime::RmatSpec::parse(&args.matrix) {
        let checked = spec.check_fits().map_err(|e| e.to_string()).and_then(|edges| {
            let (rows, edges) = (1usize << spec.scale, usize::try_from(edges).unwrap_or(usize::MAX));
            runs.iter().try_for_each(|(feat, _)| {
                kernels::check_feat_for(args.op.into(), rows, rows, edges, *feat).map_err(|e| e.to_string())
            })
        });
        if let Err(error) = checked {
            eprintln!("sptir-bench: {error}");
            return ExitCode::FAILURE;
        }
    }
    let mut a = match load_matrix(&args.matrix) {
        Ok(a) => a,
        Err(error) => {
            eprintln!("sptir-bench: {error}");
            return ExitCode::FAILURE;
        }
    };
    randomize_values(&mut a, args.seed);
    // ELL pads every row to the longest: with a hub, most of the work is
    // padding, which runs (slowly) but looks like a hang.
    let padded = (a.rows() as u64).saturating_mul(a.max_row_nnz() as u64);
    if runs.iter().any(|(_, run)| run.format == FormatArg::Ell && run.emit.is_none())
        && padded > 16 * a.nnz().max(1 << 16) as u64
    {
        eprintln!(
            "sptir-bench: note: ell pads each of the {} rows to the longest ({} non-zeros): {padded} slots for {} non-zeros, {}x the work; csr or hyb suit this matrix",
            a.rows(),
            a.max_row_nnz(),
            a.nnz(),
            padded / a.nnz().max(1) as u64
        );
    }
    let mut ok = true;
    let mut saved = Vec::new();
    for (feat, run) in &runs {
        let outcome = if run.tune {
            tune(run, &a, *feat).map(|config| {
                saved.push((*feat, config));
                true
            })
        } else {
            run_one(run, &a, *feat).map(|(verified, _)| verified)
        };
        match outcome {
            Ok(verified) => ok &= verified,
            Err(error) => {
                eprintln!("sptir-bench: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Some(path) = &args.save_config {
        // One feature size's best applies to every run; several get a
        // section each, which --config picks by --feat.
        let text = match saved.as_slice() {
            [(_, config)] => config.clone(),
            _ => saved.iter().map(|(feat, config)| format!("[feat {feat}]\n{config}")).collect(),
        };
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("sptir-bench: --save-config: cannot write '{path}': {e}");
            return ExitCode::FAILURE;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("sptir-bench: the result does not match the float64 reference");
        ExitCode::FAILURE
    }
}
