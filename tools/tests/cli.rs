//! The command-line tools on bad input: a clear message and a non-zero
//! exit, never a panic.

use std::process::{Command, Output};

fn run(binary: &str, args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut command = Command::new(binary);
    command
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().expect("tool starts");
    if let Some(text) = stdin {
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("tool finishes")
}

fn fails_with(output: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "expected failure, got success; stderr: {stderr}");
    assert!(stderr.contains(message), "stderr lacks {message:?}:\n{stderr}");
    assert!(!stderr.contains("panicked"), "the tool panicked:\n{stderr}");
}

fn bench(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_sptir-bench"), args, None)
}

/// Runs `kernel` (a stage I SpMM) under `schedule` on the emulated GPU and
/// asserts that its result verified.
fn assert_emulated_kernel_verifies(kernel: &str, matrix: &str, feat: &str, schedule: &str) {
    let output = bench(&[
        "--op",
        "spmm",
        "--matrix",
        matrix,
        "--feat",
        feat,
        "--reps",
        "1",
        "--device",
        "emulate",
        "--kernel",
        kernel,
        "--schedule",
        schedule,
    ]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("(verified)"), "{output:?}");
}

fn opt(args: &[&str], stdin: &str) -> Output {
    run(env!("CARGO_BIN_EXE_sptir-opt"), args, Some(stdin))
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("sptir-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("write temp file");
    path.display().to_string()
}

#[test]
fn bench_rejects_malformed_matrices() {
    let out_of_range = temp_file("range.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1.0\n");
    fails_with(&bench(&["--op", "spmm", "--matrix", &out_of_range]), "out of range");
    let bad_banner = temp_file("banner.mtx", "hello\n1 1 1\n1 1 1\n");
    fails_with(&bench(&["--op", "spmm", "--matrix", &bad_banner]), "sptir-bench:");
    let truncated = temp_file("short.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n");
    fails_with(&bench(&["--op", "sddmm", "--matrix", &truncated]), "sptir-bench:");
    fails_with(&bench(&["--op", "spmm", "--matrix", "/nonexistent/graph.mtx"]), "sptir-bench:");
    fails_with(&bench(&["--op", "spmm", "--matrix", "rmat:x:2:1"]), "sptir-bench:");
    let not_finite = temp_file("nan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", &not_finite]),
        "line 3: value \"nan\" is not a finite 32-bit float",
    );
    let skew = temp_file("skew.mtx", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n");
    fails_with(&bench(&["--op", "spmm", "--matrix", &skew]), "a pattern matrix cannot be skew-symmetric");
}

/// A dot product whose terms cancel: the float32 kernel is as accurate as
/// float32 allows, and the check measures it against the terms' size.
#[test]
fn bench_verifies_sums_that_cancel() {
    let matrix = temp_file("one_entry.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 2 1\n1 1\n");
    for device in ["cpu", "emulate"] {
        for format in ["csr", "ell"] {
            let args = ["--op", "sddmm", "--matrix", &matrix, "--device", device, "--format", format];
            let output = bench(&[&args[..], &["--reps", "1", "--feat", "7", "--seed", "25"]].concat());
            assert!(output.status.success(), "{device} {format}: {}", String::from_utf8_lossy(&output.stderr));
        }
    }
}

/// A hub row whose columns run 0..k, at one feature: its sum has as many
/// terms as the row, and with signs drawn apart from the matrix's values
/// they cancel as the error bound assumes (drawn from the matrix's own
/// stream, every term was a square and a correct kernel was called WRONG).
#[test]
fn bench_verifies_a_long_row_at_one_feature() {
    let n = 300_000;
    let entries: String = (1..=n).map(|c| format!("1 {c}\n")).collect();
    let text = format!("%%MatrixMarket matrix coordinate pattern general\n1 {n} {n}\n{entries}");
    let matrix = temp_file("long_row.mtx", &text);
    let output = bench(&["--op", "spmm", "--matrix", &matrix, "--feat", "1", "--reps", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn bench_rejects_bad_problems_and_kernels() {
    let matrix = "rmat:5:2:1";
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--feat", "0"]), "feature size");
    // Every size is checked before the first runs.
    let output = bench(&["--op", "spmm", "--matrix", matrix, "--feat", "32,0"]);
    fails_with(&output, "expected a feature size of at least 1, got '0'");
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    // A lowering in a schedule would hand the bench's pipeline IR it does
    // not expect.
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--device", "emulate", "--schedule", "sptir-to-gpu"]),
        "--schedule: 'sptir-to-gpu' is not one of its stage's schedule passes",
    );
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--stage1", "cse,lower-sparse-iter"]),
        "--stage1: 'lower-sparse-iter' is not one of its stage's schedule passes",
    );
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--feat", "18446744073709551615"]), "8 GiB");
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--reps", "0"]), "from 1 to 100000");
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--feat", "4,8,4"]), "--feat lists 4 twice");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--tune", "--emit", "stage1"]),
        "--tune times the runs, and --emit makes none",
    );
    // A configuration's values are checked for every feature size before
    // the first runs.
    let config = temp_file("block0.cfg", "[feat 8]\nformat=csr\n[feat 4]\nformat=bsr\nblock=0\n");
    let output = bench(&["--op", "spmm", "--matrix", matrix, "--feat", "8,4", "--config", &config, "--reps", "1"]);
    fails_with(&output, "block0.cfg', for feat 4: --block (block: the bsr block size) must be at least 1");
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    // A search that fails leaves no empty configuration behind.
    let saved = std::env::temp_dir().join(format!("sptir-cli-{}-failed.cfg", std::process::id()));
    let saved_path = saved.display().to_string();
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--tune", "--tolerance", "0", "--save-config", &saved_path]),
        "no candidate verified",
    );
    assert!(!saved.exists(), "a failed --tune left {saved_path}");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--emit", "ptx", "--row-spmm", "1,2048,1"]),
        "at most 1024",
    );
    fails_with(
        &bench(&["--op", "sddmm", "--matrix", matrix, "--emit", "ptx", "--sddmm", "576460752303423488,32,1"]),
        "at most 1024",
    );
    // JSON lines stay JSON: a quoted file name, an output never written.
    let quoted = temp_file("q\"uote.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1.0\n");
    let output = bench(&["--op", "spmm", "--matrix", &quoted, "--json", "--reps", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("q\\\"uote"), "{stdout}");
    // Each line names the build that measured it, as --version does, so
    // that gpu-perf.sh resumes only its own build's runs.
    let version = String::from_utf8_lossy(&bench(&["--version"]).stdout).trim().to_string();
    let build = version.strip_suffix(')').and_then(|v| v.rsplit_once('(')).map(|(_, b)| b).expect(&version);
    assert!(!build.is_empty() && stdout.contains(&format!("\"build\":\"{build}\"}}")), "{version}: {stdout}");
    let noop = temp_file(
        "noop.mlir",
        "func.func @csr_spmm(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xf32>, %d: memref<?xf32>, %e: memref<?xf32>, %m: index, %n: index, %z: index, %f: index) {\n  return\n}\n",
    );
    let output = bench(&["--op", "spmm", "--matrix", matrix, "--kernel", &noop, "--json", "--reps", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("\"max_rel_err\":null,\"elem_err\":null,\"verified\":false"), "{stdout}");
    fails_with(&bench(&["--op", "spmm", "--format", "bsr", "--block", "0", "--matrix", matrix]), "bsr");
    // A kernel whose parameters do not follow the op's convention.
    let kernel = temp_file("kernel.mlir", "func.func @k(%a: memref<?xf32>) { return }\n");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--kernel", &kernel]),
        "takes (memref<?xf32>) but this problem binds",
    );
    // A stage I schedule that appends parameters (a built-in format rule)
    // leaves a kernel the problem cannot call: refused before compiling,
    // with the option that runs the format.
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--stage1", "decompose-format{rule=ell:4 iteration=csrmm}"]),
        "which the bench does not fill: run that format with --format",
    );
    // Right parameters, but a result the call has no room for.
    let returns = temp_file(
        "returns.mlir",
        "func.func @csr_spmm(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xf32>, %d: memref<?xf32>, %e: memref<?xf32>, %m: index, %n: index, %z: index, %f: index) -> index {\n  return %m : index\n}\n",
    );
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--kernel", &returns]), "returns a value");
    // A matrix without columns: nothing to pad, no panels.
    let empty = temp_file("no_columns.mtx", "%%MatrixMarket matrix coordinate real general\n5 0 0\n");
    let output =
        bench(&["--op", "spmm", "--format", "ell", "--matrix", &empty, "--ell-panel-slots", "1", "--reps", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let broken = temp_file("broken.mlir", "func.func @k(\n");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--kernel", &broken]),
        "broken.mlir:1:14: error: expected non-function type",
    );
}

/// A kernel that writes the op's inputs is refused after its checked run,
/// before the runs that would read what it left (a segfault, or a result
/// checked against the wrong inputs).
#[test]
fn bench_refuses_kernels_that_write_their_inputs() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/clobbers_indices.mlir");
    for device in ["cpu", "emulate"] {
        let output =
            bench(&["--op", "spmm", "--matrix", "rmat:7:4:2", "--reps", "1", "--device", device, "--kernel", kernel]);
        fails_with(&output, "kernel @k writes its parameter #1 (memref<?xi32>), one of the op's inputs");
    }
}

/// A sum of two terms into the output is one accumulation: a row's
/// non-zeros on 8 lanes meet in a warp shuffle (refused before the terms
/// were regrouped).
#[test]
fn bench_shuffles_a_sum_of_two_terms() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/two_term_spmm.mlir");
    let schedule = "sparse-pos-reorder{loops=csrmm.1,csrmm.2},sparse-pos-split{loop=csrmm.1 factor=8},\
                    sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x}";
    assert_emulated_kernel_verifies(kernel, "rmat:7:6:2", "5", schedule);
}

/// A row's non-zeros on 8 lanes that gather B's rows through a column
/// read from a buffer (range-checked: a value an scf.if chooses) still
/// meet in their warp shuffle; the check used to keep the split's lane
/// guard around the shuffle, which was refused.
#[test]
fn bench_shuffles_gathers_through_a_column_buffer() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/gathered_columns_spmm.mlir");
    let schedule =
        "sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true}";
    for feat in ["1", "33"] {
        assert_emulated_kernel_verifies(kernel, "rmat:7:6:2", feat, schedule);
    }
}

/// Host code that touches memory runs on the CPU, and is refused on the
/// emulated GPU as on the GPU (place-device-memory), not run there as if
/// the host could read the GPU's memory.
#[test]
fn bench_emulation_refuses_host_code_touching_memory() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/../test/lowering/Inputs/pad_grid_loops/reread_scale.mlir");
    let run = |device| {
        bench(&[
            "--op",
            "spmm",
            "--matrix",
            "rmat:6:3:1",
            "--feat",
            "3",
            "--reps",
            "1",
            "--device",
            device,
            "--kernel",
            kernel,
        ])
    };
    let output = run("cpu");
    assert!(String::from_utf8_lossy(&output.stdout).contains("(verified)"), "{output:?}");
    fails_with(&run("emulate"), "place-device-memory: 'memref.store' would read or write GPU memory on the host");
}

/// A value read behind a flag (an scf.if that yields it) inside a split
/// non-zero loop: the loop's tail guard keeps the read in range on the
/// last row, so no pass may take the read out of it (the checked run
/// finds any access out of bounds).
#[test]
fn bench_keeps_flagged_reads_in_their_guards() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/flagged_spmm.mlir");
    let matrix =
        temp_file("last_row.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n1 2 2\n2 3 3\n3 1 4\n");
    let run = |extra: &[&str]| {
        let args = [&["--op", "spmm", "--matrix", &matrix, "--feat", "8", "--reps", "1", "--kernel", kernel], extra];
        let output = bench(&args.concat());
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success() && text.contains("verified"),
            "{extra:?}: {}{text}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run(&["--device", "cpu"]);
    for schedule in ["sparse-pos-split{loop=csrmm.1 factor=4}", "sparse-pos-split{loop=csrmm.2 factor=4}"] {
        run(&["--device", "emulate", "--schedule", schedule]);
    }
}

/// A buffer whose size the run decides (here each row's features, scope
/// "local") lives on the heap on the CPU: on the stack, a new one every
/// row, 16,384 rows of 256 features overflowed it. One too large for any
/// memory is an error from the guarded run, not a segfault.
#[test]
fn bench_runs_kernels_with_run_sized_buffers() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/row_local_spmm.mlir");
    for device in ["cpu", "emulate"] {
        let output = bench(&[
            "--op",
            "spmm",
            "--matrix",
            "rmat:14:8:1",
            "--feat",
            "256",
            "--reps",
            "1",
            "--device",
            device,
            "--kernel",
            kernel,
        ]);
        assert!(output.status.success(), "{device}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(String::from_utf8_lossy(&output.stdout).contains("(verified)"), "{device}");
    }
    // Only the output loop on the threads: every thread fills its own copy
    // of the row's buffer whole, then each stores its features from it.
    let schedule = "sparse-pos-bind{loop=rows.0 to=blockIdx.x},sparse-pos-bind{loop=out.0 to=threadIdx.x}";
    for feat in ["1", "33"] {
        assert_emulated_kernel_verifies(kernel, "rmat:8:3:5", feat, schedule);
    }
    let huge = std::fs::read_to_string(kernel).unwrap().replace(
        "  sparse_iter.iterate \"rows\"",
        "  %huge = arith.constant 17592186044416 : index\n  %size = arith.muli %nnz, %huge : index\n  \
         %H = sparse_iter.dense_fixed %size\n  %G = sparse_iter.alloc_buffer [%H] : !sparse_iter.buffer<1, f32>\n  \
         sparse_iter.iterate \"rows\"",
    );
    let huge = huge.replace(
        "      sparse_iter.store %v, %C[%i, %k]",
        "      sparse_iter.store %v, %G[%k] : !sparse_iter.buffer<1, f32>\n      \
         %w = sparse_iter.load %G[%k] : !sparse_iter.buffer<1, f32>\n      sparse_iter.store %w, %C[%i, %k]",
    );
    // (The emulated GPU path forwards the store to the load and allocates
    // nothing.)
    let huge = temp_file("huge_buffer.mlir", &huge);
    fails_with(
        &bench(&["--op", "spmm", "--matrix", "rmat:5:2:1", "--reps", "1", "--kernel", &huge]),
        "runs out of memory: an allocation failed",
    );
    // On the GPU each thread's buffer is on its stack, sized before the
    // launch: the bench compiles for the run's feature count, a generic
    // GPU compile is refused where the buffer is written.
    let ptx = bench(&["--op", "spmm", "--matrix", "rmat:5:2:1", "--feat", "64", "--kernel", kernel, "--emit", "ptx"]);
    assert!(ptx.status.success(), "{}", String::from_utf8_lossy(&ptx.stderr));
    assert!(String::from_utf8_lossy(&ptx.stdout).contains("__local_depot0[256]"));
    fails_with(
        &run(env!("CARGO_BIN_EXE_sptir-opt"), &["--sptir-to-gpu", kernel], None),
        "row_local_spmm.mlir:16:10: error: check-gpu-ops: a buffer of each thread (memref.alloca, scope \"local\") has a size known only at run time",
    );
}

/// A reduction written with math.fma runs on shuffled lanes and on
/// vector lanes like one written with a multiply and an add.
#[test]
fn bench_shares_an_fma_reduction_between_lanes() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/sddmm_fma.mlir");
    for schedule in ["2,8,4", "4,4,4,2"] {
        let output = bench(&[
            "--op",
            "sddmm",
            "--matrix",
            "rmat:7:4:1",
            "--feat",
            "32,13",
            "--device",
            "emulate",
            "--sddmm",
            schedule,
            "--kernel",
            kernel,
            "--reps",
            "1",
        ]);
        assert!(output.status.success(), "{schedule}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8_lossy(&output.stdout).matches("(verified)").count(), 2, "{schedule}");
    }
}

/// The examples take their operands as the bench lays them out (for
/// SDDMM, X and Y both a feature row per node), so the bench verifies them.
#[test]
fn bench_runs_a_user_kernel_file() {
    for (op, file) in [("spmm", "csr_spmm"), ("sddmm", "sddmm"), ("sddmm", "sddmm_fused")] {
        let example = format!("{}/../examples/{file}.mlir", env!("CARGO_MANIFEST_DIR"));
        let output = bench(&["--op", op, "--matrix", "rmat:6:3:2", "--kernel", &example, "--json", "--reps", "1"]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{file}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("\"verified\":true"), "{file}: {stdout}");
    }
}

/// A kernel file with helper functions that the kernel calls, one taking
/// its output's buffer: no --function needed, and every run sees the
/// calls inlined.
#[test]
fn bench_runs_a_kernel_that_calls_a_helper() {
    let kernel = format!("{}/tests/inputs/spmm_with_helper.mlir", env!("CARGO_MANIFEST_DIR"));
    for device in ["cpu", "emulate"] {
        let output = bench(&[
            "--op",
            "spmm",
            "--matrix",
            "rmat:6:3:2",
            "--kernel",
            &kernel,
            "--device",
            device,
            "--json",
            "--reps",
            "1",
        ]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{device}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("\"verified\":true"), "{device}: {stdout}");
    }
    // Two functions that no other calls: the kernel must be named.
    let two = temp_file("two_kernels.mlir", "func.func @a() { return }\nfunc.func @b() { return }\n");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", "rmat:6:3:2", "--kernel", &two]),
        "several functions that no other calls (@a, @b); name the kernel with --function",
    );
}

/// Four hub rows of 2000 entries make nearly all of the output's norm,
/// so a kernel that leaves out the last (short) row passes the norm test
/// at a loose tolerance: each element is also checked on its own scale.
#[test]
fn bench_fails_a_wrong_row_beside_hubs() {
    let (n, hubs, wide) = (600, 4, 2000);
    let mut entries: Vec<(usize, usize)> = (1..=hubs).flat_map(|h| (1..=wide).map(move |c| (h, c))).collect();
    entries.extend((hubs + 1..=n).map(|r| (r, (r * 7) % n + 1)));
    let mut text = format!("%%MatrixMarket matrix coordinate pattern general\n{n} {wide} {}\n", entries.len());
    for (r, c) in &entries {
        text.push_str(&format!("{r} {c}\n"));
    }
    let matrix = temp_file("hubs.mtx", &text);
    let kernel = format!("{}/tests/inputs/spmm_drops_last_row.mlir", env!("CARGO_MANIFEST_DIR"));
    let output = bench(&[
        "--op",
        "spmm",
        "--matrix",
        &matrix,
        "--kernel",
        &kernel,
        "--feat",
        "8",
        "--tolerance",
        "1e-3",
        "--json",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    fails_with(&output, "does not match the float64 reference");
    let line: Vec<&str> = stdout.split(',').collect();
    let field = |key: &str| -> f64 {
        let entry = line.iter().find(|f| f.starts_with(&format!("\"{key}\":"))).expect(key);
        entry.split(':').nth(1).unwrap().parse().unwrap()
    };
    assert!(field("max_rel_err") < 1e-3 && field("elem_err") > 0.5, "{stdout}");
    // The built-in kernel on the same matrix passes both tests.
    let output = bench(&["--op", "spmm", "--matrix", &matrix, "--feat", "8", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// hyb keeps only the buckets that hold rows: hyb(8, 30) has 248
/// buckets, and a loop nest for each took over a minute to compile. Three
/// rows of one non-zero each fill three buckets (two in column part 0,
/// one in part 7).
#[test]
fn bench_compiles_only_the_hyb_buckets_that_hold_rows() {
    let matrix =
        temp_file("three.mtx", "%%MatrixMarket matrix coordinate real general\n8 8 3\n1 1 1.0\n2 3 2.0\n8 8 1.0\n");
    let hyb = ["--format", "hyb", "--col-parts", "8", "--bucket-exp", "30", "--matrix", &matrix];
    for (op, bucket) in [("spmm", "sparse_iter.iterate \"hyb"), ("sddmm", "sparse_iter.iterate \"sddmm")] {
        let output = bench(&[&["--op", op, "--emit", "stage1"], &hyb[..]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let stage1 = String::from_utf8_lossy(&output.stdout);
        assert_eq!(stage1.matches(bucket).count(), 3, "{op}: {stage1}");
        for device in ["cpu", "emulate"] {
            let output = bench(&[&["--op", op, "--device", device, "--reps", "1", "--json"], &hyb[..]].concat());
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(stdout.contains("\"verified\":true"), "{op} {device}: {stdout}");
        }
    }
    // No non-zeros, no buckets: the output is still zeroed.
    let empty = temp_file("none.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n");
    let output = bench(&["--op", "spmm", "--format", "hyb", "--matrix", &empty, "--device", "emulate", "--json"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"verified\":true"));
}

/// Each JSON line says what ran: the format's parameters and, on a GPU
/// device, the stage I and II schedules, the defaults included (SDDMM at
/// 32 features: a non-zero a lane, 128 to a block; at 512: eight lanes a
/// non-zero), so that a measurement can be run again as it was.
#[test]
fn bench_json_names_the_configuration_that_ran() {
    let run = |args: &[&str]| {
        let output = bench(&[&["--matrix", "rmat:6:4:1", "--reps", "1", "--json"], args].concat());
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let lanes = run(&["--op", "sddmm", "--device", "emulate", "--feat", "32,512"]);
    let lines: Vec<&str> = lanes.lines().collect();
    assert_eq!(lines.len(), 2, "{lanes}");
    assert!(lines[0].contains("\"stage1\":\"sparse-fuse{iteration=sddmm loops=0,1}\""), "{lanes}");
    assert!(lines[0].contains("sparse-pos-split{loop=sddmm.0 factor=128}"), "{lanes}");
    assert!(lines[1].contains("sparse-pos-split{loop=sddmm.0 factor=32}"), "{lanes}");
    assert!(lines[1].contains("sparse-pos-split{loop=sddmm.1 factor=32}"), "{lanes}");
    let hyb = run(&["--op", "spmm", "--format", "hyb", "--col-parts", "2", "--bucket-exp", "3", "--device", "emulate"]);
    assert!(hyb.contains("\"col_parts\":2,\"bucket_exp\":3,\"schedule\":\"sparse-pos-split{loop=zero.1"), "{hyb}");
    // hyb SDDMM on the GPU: 8 lanes a bucket row, buckets up to 16 wide
    // below 128 features and COO (one non-zero a bucket row) from there;
    // on the CPU, buckets up to 16 wide.
    let hyb = run(&["--op", "sddmm", "--format", "hyb", "--device", "emulate", "--feat", "32,128"]);
    let lines: Vec<&str> = hyb.lines().collect();
    assert_eq!(lines.len(), 2, "{hyb}");
    assert!(lines[0].contains("\"bucket_exp\":4,"), "{hyb}");
    assert!(lines[1].contains("\"bucket_exp\":0,"), "{hyb}");
    for line in lines {
        assert!(line.contains("sparse-pos-split{loop=sddmm0.3 factor=32}"), "{line}");
        assert!(line.contains("sparse-pos-split{loop=sddmm0.1 factor=16}"), "{line}");
    }
    let cpu = run(&["--op", "sddmm", "--format", "hyb", "--feat", "128"]);
    assert!(cpu.contains("\"bucket_exp\":4,"), "{cpu}");
    // A hand schedule names the buckets' loops, and so does a stage I one
    // (this one fuses the widest bucket's loops): the buckets stay 16 wide.
    for (option, value) in [
        ("--schedule", "sparse-pos-bind{loop=sddmm1.1 to=blockIdx.x}"),
        ("--stage1", "sparse-fuse{iteration=sddmm3 loops=0,1}"),
    ] {
        let hand = run(&["--op", "sddmm", "--format", "hyb", "--device", "emulate", "--feat", "128", option, value]);
        assert!(hand.contains("\"bucket_exp\":4,"), "{option}: {hand}");
    }
    let generic = run(&["--op", "spmm", "--device", "emulate", "--generic"]);
    assert!(generic.contains("\"generic\":true"), "{generic}");
    let bsr = run(&["--op", "spmm", "--format", "bsr", "--block", "2"]);
    // The CPU path takes no schedule.
    assert!(bsr.contains("\"reps\":1,\"block\":2,\"build\""), "{bsr}");
    assert!(!bsr.contains("schedule"), "{bsr}");
}

/// Dot products summed by rows of lanes in warp shuffles into a buffer
/// the program allocates (not a parameter): every lane adds to the same
/// element of it.
#[test]
fn bench_runs_a_warp_shuffle_into_a_program_buffer() {
    let kernel = format!("{}/tests/inputs/sddmm_staged.mlir", env!("CARGO_MANIFEST_DIR"));
    let schedule =
        "sparse-pos-split{loop=sddmm.2 factor=4},sparse-pos-bind{loop=sddmm.2.i to=threadIdx.x shuffle=true}";
    for feat in ["1", "7", "32"] {
        let output = bench(&[
            "--op",
            "sddmm",
            "--matrix",
            "rmat:7:6:3",
            "--kernel",
            &kernel,
            "--device",
            "emulate",
            "--schedule",
            schedule,
            "--feat",
            feat,
            "--json",
            "--reps",
            "1",
        ]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "feat {feat}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("\"verified\":true"), "feat {feat}: {stdout}");
    }
}

/// A user kernel whose axes do not match its buffers reads and writes
/// outside them. Its guarded copy runs first (`guard-memory-accesses`) and
/// the bench stops with an access that failed, on every device, before
/// the unguarded kernel would fault. The correct kernel passes its checks.
#[test]
fn bench_stops_user_kernels_that_access_out_of_bounds() {
    let example = include_str!("../../examples/csr_spmm.mlir");
    // Rows counted by the number of non-zeros: indptr is read past its end.
    let rows = temp_file("oob_rows.mlir", &example.replace("dense_fixed %m", "dense_fixed %nnz"));
    // B read with the column space of A's rows swapped for its non-zeros:
    // columns far past B's rows.
    let swapped =
        temp_file("oob_swapped.mlir", &example.replace("%I, %indptr, %indices length", "%I, %indices, %indptr length"));
    // C matched on a view of itself: a view's sizes are its maker's claim,
    // checked against the parameter's. One element too far, a whole C
    // past its end, and an exact fit.
    let view_of_c = |name: &str, view: &str| {
        let matched = "%C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32>";
        let viewed = format!(
            "%size = arith.muli %m, %feat : index\n  {view}\n  %C = sparse_iter.match_buffer %v [%I, %K] : memref<?xf32, strided<[1], offset: ?>>"
        );
        assert!(example.contains(matched));
        temp_file(name, &example.replace(matched, &viewed))
    };
    let shifted = view_of_c(
        "oob_subview.mlir",
        "%v = memref.subview %c[1] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>",
    );
    let past = view_of_c(
        "oob_reinterpret.mlir",
        "%v = memref.reinterpret_cast %c to offset: [%size], sizes: [%size], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>",
    );
    let exact = view_of_c(
        "exact_subview.mlir",
        "%o = arith.constant 0 : index\n  %v = memref.subview %c[%o] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>",
    );
    for device in ["cpu", "emulate"] {
        let run = |kernel: &str| {
            bench(&["--op", "spmm", "--matrix", "rmat:7:6:3", "--kernel", kernel, "--device", device, "--reps", "1"])
        };
        let output = run(&rows);
        fails_with(&output, "kernel @csr_spmm accesses memory out of bounds");
        fails_with(&output, "oob_rows.mlir:");
        fails_with(&run(&swapped), "accesses memory out of bounds");
        fails_with(&run(&shifted), "oob_subview.mlir:");
        fails_with(&run(&past), "oob_reinterpret.mlir:");
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/csr_spmm.mlir");
        for kernel in [example, &exact] {
            let output = run(kernel);
            assert!(output.status.success(), "{device} {kernel}: {}", String::from_utf8_lossy(&output.stderr));
        }
    }
    // Built-in kernels are checked on request, and the guarded code can be
    // printed.
    let output = bench(&["--op", "sddmm", "--matrix", "rmat:7:6:3", "--check-bounds", "--reps", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = bench(&["--op", "spmm", "--matrix", "rmat:5:2:1", "--check-bounds", "--emit", "ptx"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains("atom.global.max.s32"), "{stdout}");
}

/// CSR SpMM whose non-zero loop walks a dense axis as long as the widest
/// row and looks A's row up as a ragged (dense_variable) axis: past a
/// row's length A reads its default, zero, so the result is still A * B.
/// Rows of every length, empty ones included, in rmat:6:4:1.
#[test]
fn bench_runs_a_kernel_that_looks_up_a_ragged_axis() {
    let kernel = temp_file(
        "ragged_lookup.mlir",
        r#"func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %P = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi32>
  %Pd = sparse_iter.dense_fixed %n
  %J = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %P] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %IDX = sparse_iter.match_buffer %indices [%I, %P] : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %B = sparse_iter.match_buffer %b [%J, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "mm" [%I, %Pd, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %p: index, %k: index):
    %col32 = sparse_iter.load %IDX[%i, %p] : !sparse_iter.buffer<2, i32>
    %col = arith.index_cast %col32 : i32 to index
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %p] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%col, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
"#,
    );
    let output =
        bench(&["--op", "spmm", "--matrix", "rmat:6:4:1", "--feat", "5", "--kernel", &kernel, "--json", "--reps", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("\"verified\":true"), "{stdout}");
}

/// A hub row makes ELL run in one-row panels; the error is the whole
/// result's (1e-7 here). Measured panel by panel, one short row's rounding
/// on its own scale read as 1e-5 here (4.6e-5 with other values).
#[test]
fn bench_verifies_ell_panels_as_one_result() {
    let mut text = String::from("%%MatrixMarket matrix coordinate real general\n300 300 599\n");
    for j in 1..=300 {
        text.push_str(&format!("1 {j} 1.0\n"));
    }
    for i in 2..=300 {
        text.push_str(&format!("{i} {} 1.0\n", 302 - i));
    }
    let hub = temp_file("hub.mtx", &text);
    let output = bench(&[
        "--op",
        "sddmm",
        "--format",
        "ell",
        "--matrix",
        &hub,
        "--ell-panel-slots",
        "300",
        "--tolerance",
        "1e-6",
        "--json",
        "--reps",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("\"verified\":true"), "{stdout}");
}

#[test]
fn opt_reports_bad_ir_with_locations() {
    fails_with(&opt(&["-"], "func.func @f( {\n"), "<stdin>:1:");
    fails_with(&opt(&["-"], "\u{0}\u{1}garbage"), "error:");
    let invalid = "func.func @f(%m: index) {\n  %I = sparse_iter.dense_fixed %m\n  sparse_iter.iterate \"x\" [%I] \"Q\" body {\n  ^bb0(%i: index):\n  }\n  return\n}\n";
    fails_with(&opt(&["-"], invalid), "<stdin>:3:3: error: 'sparse_iter.iterate' op kinds \"Q\": character #0");
    fails_with(&opt(&["--pass-pipeline=builtin.module(no-such-pass)", "-"], ""), "does not refer to a registered pass");
    fails_with(&opt(&["--pass-pipeline=builtin.module(sparse-reorder{order=1})", "-"], ""), "needs option 'iteration'");
    fails_with(&opt(&["/nonexistent.mlir"], ""), "cannot read");
    // MLIR's parser writes to freed memory on this one (a forward reference
    // that resolves to a nested block's argument, then a parse error);
    // sptir-opt still reports it, and does not abort.
    let freed = "func.func @f(%m: index) {\n  %I = sparse_iter.dense_fixed %m\n  %z = arith.addi %i, %m : index\n  sparse_iter.iterate \"x\" [%I] \"S\" body {\n  ^bb0(%i: index):\n  ^bb0\n}\n";
    for _ in 0..3 {
        fails_with(&opt(&["-"], freed), "<stdin>:6:3: error: redefinition of block '^bb0'");
    }
}

#[test]
fn opt_round_trips_stdin_and_writes_output_files() {
    let output_path = std::env::temp_dir().join(format!("sptir-cli-{}-out.mlir", std::process::id()));
    let source = "func.func @f(%m: index) {\n  %I = sparse_iter.dense_fixed %m\n  return\n}\n";
    let output = opt(&["-o", &output_path.display().to_string(), "-"], source);
    assert!(output.status.success());
    let printed = std::fs::read_to_string(&output_path).expect("output written");
    assert!(printed.contains("sparse_iter.dense_fixed %arg0"), "{printed}");
    // A failed run leaves no output file, as in mlir-opt; /dev/null stays.
    let output = opt(&["-o", &output_path.display().to_string(), "-"], "func.func @f() {\n  return %x : i32\n}\n");
    assert!(!output.status.success());
    assert!(!output_path.exists(), "a failed run left {}", output_path.display());
    assert!(!opt(&["-o", "/dev/null", "-"], "func.func @f() {\n  return %x : i32\n}\n").status.success());
    assert!(std::path::Path::new("/dev/null").exists());
    // An unwritable output is found before the work.
    fails_with(&opt(&["-o", "/nonexistent/out.mlir", "-"], source), "cannot write '/nonexistent/out.mlir'");
}

#[test]
fn bench_tunes_and_reuses_the_best_configuration() {
    let config = std::env::temp_dir().join(format!("sptir-cli-{}-best.cfg", std::process::id()));
    let config = config.display().to_string();
    let output = bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--tune", "--save-config", &config]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("best for feat 32:"), "{stdout}");
    let saved = std::fs::read_to_string(&config).expect("config written");
    assert!(saved.starts_with("format="), "{saved}");
    let reused = bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--config", &config, "--json"]);
    assert!(String::from_utf8_lossy(&reused.stdout).contains("\"verified\":true"));
    let bad = temp_file("bad.cfg", "format=coo\n");
    fails_with(&bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--config", &bad]), "bad.cfg:1: bad format 'coo'");
    // A configuration written by hand may say why.
    let commented = temp_file(
        "commented.cfg",
        "# ELL pads rows to the longest\n  # (indented too)\nformat=ell # after a value too\n",
    );
    let reused = bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--config", &commented, "--json"]);
    let stdout = String::from_utf8_lossy(&reused.stdout);
    assert!(stdout.contains("\"format\":\"ell\"") && stdout.contains("\"verified\":true"), "{stdout}");
    // A key given twice would silently take the second value.
    let twice = temp_file("twice-key.cfg", "format=csr\nformat=ell\n");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--config", &twice]),
        "twice-key.cfg:2: key 'format' is given twice (line 1 gave it)",
    );
    // hyb_exclusive is a flag, true or false, and applies to hyb SpMM.
    let exclusive = temp_file("exclusive.cfg", "format=hyb\nhyb_exclusive=true\n");
    let reused = bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--config", &exclusive, "--json"]);
    let stdout = String::from_utf8_lossy(&reused.stdout);
    assert!(stdout.contains("\"hyb_exclusive\":true") && stdout.contains("\"verified\":true"), "{reused:?}");
    let misspelt = temp_file("exclusive-yes.cfg", "format=hyb\nhyb_exclusive=yes\n");
    fails_with(&bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--config", &misspelt]), "expected true or false");
    fails_with(&bench(&["--op", "sddmm", "--matrix", "rmat:6:4:3", "--config", &exclusive]), "applies to spmm in hyb");
    // An empty schedule schedules nothing, as on the command line.
    let empty = temp_file("empty.cfg", "format=csr\nstage1=\nschedule= , \n");
    let reused = bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--config", &empty, "--json"]);
    assert!(String::from_utf8_lossy(&reused.stdout).contains("\"verified\":true"), "{reused:?}");
}

/// A configuration that would be misread, or flags it would silently
/// override, are refused with the file and line.
#[test]
fn bench_refuses_configurations_it_would_misread() {
    let run = |config: &str, extra: &[&str]| {
        bench(&[&["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--config", config][..], extra].concat())
    };
    for (name, text) in [("empty.cfg", ""), ("comments.cfg", "# nothing\n\n"), ("header.cfg", "[feat 32]\n")] {
        fails_with(&run(&temp_file(name, text), &[]), "sets nothing: a configuration has at least a format= line");
    }
    fails_with(&run(&temp_file("no-format.cfg", "block=2\n"), &[]), "sets no format for feat 32");
    fails_with(&run(&temp_file("plus.cfg", "format=bsr\nblock=+2\n"), &[]), "plus.cfg:2: bad number '+2' for block");
    fails_with(&run(&temp_file("case.cfg", "format=HYB\n"), &[]), "case.cfg:1: bad format 'HYB'");
    fails_with(&run(&temp_file("nul.cfg", "\0x=1\n"), &[]), "nul.cfg:1: unknown key '\\0x'");
    fails_with(&run("/dev/zero", &[]), "'/dev/zero' is over 1 MiB");
    // A section for a size this run does not ask for is checked as fully
    // as the one it does.
    let other = temp_file("other-block.cfg", "[feat 8]\nformat=csr\n[feat 4]\nformat=bsr\nblock=0\n");
    fails_with(&run(&other, &["--feat", "8"]), "other-block.cfg', for feat 4: --block");
    let ell = temp_file("ell.cfg", "format=ell\n");
    fails_with(
        &run(&ell, &["--format", "bsr", "--block", "2"]),
        "sets the format, its parameters and the schedule: drop --format and --block",
    );
    fails_with(&run(&ell, &["--stage1", "cse"]), "drop --stage1");
    fails_with(&run(&ell, &["--tune"]), "--tune finds what --config would set: drop one");
    fails_with(
        &bench(&["--op", "spmm", "--matrix", "rmat:6:4:3", "--tune", "--format", "bsr", "--hyb-exclusive"]),
        "--tune searches the schedules, the formats and their parameters itself: drop --format and --hyb-exclusive",
    );
}

/// --save-config writes through a link and leaves it a link, also when
/// the file it leads to does not exist yet, and also when the search
/// fails.
#[test]
fn bench_saves_a_configuration_through_a_link() {
    let dir = std::env::temp_dir().join(format!("sptir-cli-{}-link", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let (link, target) = (dir.join("link.cfg"), dir.join("target.cfg"));
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let link_path = link.display().to_string();
    let tune = ["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1", "--tune", "--save-config", &link_path];
    fails_with(&bench(&[&tune[..], &["--tolerance", "0"]].concat()), "no candidate verified");
    assert!(link.is_symlink() && !target.exists(), "a failed search changed {}", dir.display());
    let output = bench(&tune);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(link.is_symlink(), "the link was replaced");
    let saved = std::fs::read_to_string(&target).expect("written through the link");
    assert!(saved.starts_with("format="), "{saved}");
    // What the saved file holds is what the format takes: a bsr block
    // size only with bsr, hyb's parameters (its exclusive flag too) only
    // with hyb.
    let format = saved.lines().next().unwrap().trim_start_matches("format=");
    assert_eq!(saved.contains("block="), format == "bsr", "{saved}");
    assert_eq!(saved.contains("col_parts=") && saved.contains("hyb_exclusive="), format == "hyb", "{saved}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_saves_one_configuration_per_feature_size() {
    let config = std::env::temp_dir().join(format!("sptir-cli-{}-sections.cfg", std::process::id()));
    let config = config.display().to_string();
    let matrix = ["--op", "spmm", "--matrix", "rmat:6:4:3", "--reps", "1"];
    let output = bench(&[&matrix[..], &["--feat", "2,8", "--tune", "--save-config", &config]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let saved = std::fs::read_to_string(&config).expect("config written");
    let sections: Vec<&str> = saved.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(sections, ["[feat 2]", "[feat 8]"], "{saved}");
    let reused = bench(&[&matrix[..], &["--feat", "8,2", "--config", &config, "--json"]].concat());
    let stdout = String::from_utf8_lossy(&reused.stdout);
    assert_eq!(stdout.matches("\"verified\":true").count(), 2, "{stdout}");
    // Each section's format is the one its feature size runs with.
    let format_of = |feat: &str| {
        let section = saved.split(&format!("[feat {feat}]\n")).nth(1).expect("section");
        section.lines().next().expect("format line").trim_start_matches("format=").to_string()
    };
    for line in stdout.lines() {
        let feat = if line.contains("\"feat\":2,") { "2" } else { "8" };
        assert!(line.contains(&format!("\"format\":\"{}\"", format_of(feat))), "{line}\n{saved}");
    }
    fails_with(&bench(&[&matrix[..], &["--feat", "4", "--config", &config]].concat()), "no [feat 4] section");
    let bad = temp_file("bad-section.cfg", "[feat]\nformat=csr\n");
    fails_with(&bench(&[&matrix[..], &["--config", &bad]].concat()), "expected '[feat N]'");
    // A section that does not apply is still checked.
    let other = temp_file("other-section.cfg", "[feat 32]\nformat=csr\n[feat 4]\nformat=coo\n");
    fails_with(&bench(&[&matrix[..], &["--config", &other]].concat()), "other-section.cfg:4: bad format 'coo'");
    let twice = temp_file("twice.cfg", "[feat 4]\nformat=csr\n[feat 4]\nformat=ell\n");
    fails_with(&bench(&[&matrix[..], &["--feat", "4", "--config", &twice]].concat()), "'[feat 4]' is given twice");
    // A schedule in a configuration is checked as the configuration's.
    let wide = temp_file("wide.cfg", "[feat 4]\nrow_spmm=4,48,1,48\n");
    let output = bench(&[&matrix[..], &["--feat", "4", "--config", &wide, "--device", "emulate"]].concat());
    fails_with(&output, "wide.cfg:2: bad schedule '4,48,1,48' for row_spmm: caching in shared memory");
    // Every feature size's options are checked before the first runs, and
    // the configuration is named as their source.
    let late = temp_file("late.cfg", "[feat 2]\nformat=bsr\n[feat 8]\nformat=csr\nrow_spmm=2,4,1\n");
    let output = bench(&[&matrix[..], &["--feat", "2,8", "--config", &late]].concat());
    fails_with(&output, "late.cfg', for feat 8: --row-spmm is a GPU schedule");
    assert!(output.stdout.is_empty(), "feat 2 ran first: {}", String::from_utf8_lossy(&output.stdout));
    // A byte-order mark is not part of the first key.
    let marked = temp_file("bom.cfg", "\u{feff}format=ell\n");
    let output = bench(&[&matrix[..], &["--feat", "2", "--config", &marked, "--json"]].concat());
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"format\":\"ell\""), "{output:?}");
}

/// ELL on a matrix with a hub row runs, padding every row to the hub's
/// length, and says so: the run looks like a hang otherwise.
#[test]
fn bench_notes_ell_padding_for_a_hub() {
    let n = 2000;
    let mut text = format!("%%MatrixMarket matrix coordinate pattern general\n{n} {n} {}\n", 2 * n - 1);
    text.extend((1..=n).map(|j| format!("2 {j}\n")));
    text.extend((1..=n).filter(|&i| i != 2).map(|i| format!("{i} {i}\n")));
    let hub = temp_file("hub.mtx", &text);
    let output = bench(&["--op", "spmm", "--format", "ell", "--matrix", &hub, "--feat", "1", "--reps", "1", "--json"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"verified\":true"), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ell pads each of the 2000 rows to the longest (2000 non-zeros): 4000000 slots for 3999 non-zeros, 1000x the work"), "{stderr}");
    let csr = bench(&["--op", "spmm", "--matrix", &hub, "--feat", "1", "--reps", "1", "--json"]);
    assert!(!String::from_utf8_lossy(&csr.stderr).contains("pads"), "{csr:?}");
}

#[test]
fn bench_runs_big_ell_matrices_in_row_panels() {
    for op in ["spmm", "sddmm"] {
        let output = bench(&[
            "--op",
            op,
            "--format",
            "ell",
            "--matrix",
            "rmat:7:6:4",
            "--ell-panel-slots",
            "300",
            "--reps",
            "1",
            "--json",
        ]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("\"verified\":true"), "{stdout}");
    }
}

#[test]
fn bench_checks_row_spmm_schedules() {
    let matrix = "rmat:5:2:1";
    fails_with(&bench(&["--op", "spmm", "--matrix", matrix, "--row-spmm", "2,16,4"]), "is a GPU schedule");
    let ptx = |extra: &[&str]| {
        let mut args = vec!["--op", "spmm", "--matrix", matrix, "--feat", "64", "--emit", "ptx"];
        args.extend_from_slice(extra);
        bench(&args)
    };
    fails_with(&ptx(&["--row-spmm", "2,16,3"]), "VECTOR 1, 2 or 4");
    fails_with(&ptx(&["--row-spmm", "2,16"]), "expected ROWS,THREADS,VECTOR");
    fails_with(&ptx(&["--format", "bsr", "--row-spmm", "2,16,4"]), "applies to spmm in csr, ell or hyb");
    // A valid one reaches PTX with 16-byte loads.
    let output = ptx(&["--format", "ell", "--row-spmm", "4,8,4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("ld.global.nc.v4.b32"));
    // In hyb, the buckets add to C atomically and run as one kernel after
    // the one that zeroes C.
    let output = ptx(&["--format", "hyb", "--bucket-exp", "2", "--row-spmm", "4,8,4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches(".entry").count(), 2, "{text}");
    assert!(text.contains("ld.global.nc.v4.b32") && text.contains("atom.global.add.f32"), "{text}");
    // Compiled for 512 features, a warp's four chunks of 128 are unrolled
    // inside the non-zero loop: four 16-byte sums in registers that start
    // at zero (the zeroing and the accumulation share an alignment
    // version), so the aligned version loads B four vectors a non-zero and
    // stores C once, four vectors, after the loop: no zeroing store, no
    // load of C. With UNROLL 1 a step is one non-zero; by default (UNROLL
    // 0: 8 / 4 chunks) two, so the loop holds eight loads and its remainder
    // four; UNROLL 4 gives 16 and 4.
    let loads_and_stores = |row_spmm: &str| {
        let args = ["--op", "spmm", "--matrix", matrix, "--feat", "512", "--emit", "ptx", "--row-spmm", row_spmm];
        let output = bench(&args);
        let text = String::from_utf8_lossy(&output.stdout);
        (text.matches("ld.global.nc.v4.b32").count(), text.matches("st.global.v4.b32").count())
    };
    assert_eq!(loads_and_stores("2,32,4,0,0,1"), (4, 4));
    assert_eq!(loads_and_stores("2,32,4"), (12, 4));
    assert_eq!(loads_and_stores("2,32,4,0,0,4"), (20, 4));
    fails_with(&ptx(&["--row-spmm", "2,32,4,0,0,65"]), "UNROLL must be at most 64");
    fails_with(&ptx(&["--row-spmm", "1,32,4,32,0,2"]), "applies only without CACHE");
    fails_with(&ptx(&["--row-spmm", "1,32,4,32,0,2,1"]), "expected ROWS,THREADS,VECTOR[,CACHE[,SLICE[,UNROLL]]]");
    // Non-zeros through shared memory: several rows a block need rows
    // inside a warp or of whole warps (at most 15, a named barrier each),
    // and tiles inside a block's shared memory.
    fails_with(&ptx(&["--row-spmm", "2,48,1,48"]), "THREADS dividing 32");
    fails_with(&ptx(&["--row-spmm", "16,64,1,64"]), "ROWS at most 15");
    let output = ptx(&["--row-spmm", "3,64,1,64"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    // Row y at named barrier 1 + y, twice a chunk (scalar loads: one
    // version of the kernel).
    assert_eq!(text.matches("bar.sync").count(), 2, "{text}");
    let named = |l: &&str| l.trim_start().starts_with("bar.sync \t%r") && l.ends_with(", 64;");
    assert_eq!(text.lines().filter(named).count(), 2, "{text}");
    assert!(!text.contains("bar.warp.sync"), "{text}");
    fails_with(&ptx(&["--row-spmm", "8,32,1,1024"]), "48 KiB of shared memory");
    fails_with(&ptx(&["--row-spmm", "1,32,1,1056"]), "CACHE must be at most 1024");
    let output = ptx(&["--row-spmm", "4,32,1,32"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("bar.warp.sync") && !text.contains("bar.sync"), "{text}");
    fails_with(&ptx(&["--row-spmm", "1,32,1,48"]), "CACHE a multiple of THREADS");
    fails_with(&ptx(&["--format", "hyb", "--row-spmm", "1,32,1,32"]), "not hyb");
    let output = ptx(&["--row-spmm", "1,32,2,64"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("st.shared.b32") && text.contains("ld.shared.b32"), "{text}");
    // Two barriers a chunk, in each version of the feature loop (16-byte
    // vectors where aligned, scalars elsewhere).
    assert_eq!(text.matches("bar.sync").count(), 4, "{text}");
    // Feature slices on blockIdx.y: one step of 8 lanes a slice, so the
    // aligned version keeps one 16-byte sum in registers and stores C
    // once (eight non-zeros a step and the remainder: nine B loads).
    fails_with(&ptx(&["--row-spmm", "4,8,4,0,6"]), "SLICE must be a multiple of VECTOR");
    fails_with(&ptx(&["--row-spmm", "16,8,1,0,1024"]), "SLICE must be at most 64 chunks");
    // A slice holding all 64 features is none, in csr, ell and hyb.
    for format in ["csr", "ell", "hyb"] {
        let whole = ptx(&["--format", format, "--row-spmm", "8,8,1,0,512"]);
        let plain = ptx(&["--format", format, "--row-spmm", "8,8,1"]);
        assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
        assert_eq!(whole.stdout, plain.stdout, "{format}");
    }
    let output = ptx(&["--row-spmm", "4,8,4,0,32,8"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("%ctaid.y"), "{text}");
    assert_eq!(text.matches("ld.global.nc.v4.b32").count(), 9, "{text}");
    assert_eq!(text.matches("st.global.v4.b32").count(), 1, "{text}");
}

/// `--hyb-exclusive`: hyb SpMM's buckets that own their rows store them,
/// without atomics and without C's rows being loaded (each sum starts in
/// registers); only rows split over the widest bucket are added to
/// atomically. Verified on the CPU and the emulated GPU.
#[test]
fn bench_stores_the_rows_hyb_buckets_own() {
    let ptx = |exponent: &str| {
        let cora = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/graphs/cora.mtx.gz");
        let args = ["--op", "spmm", "--format", "hyb", "--matrix", cora, "--feat", "64"];
        let output = bench(&[&args[..], &["--hyb-exclusive", "--bucket-exp", exponent, "--emit", "ptx"]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    // Cora's longest row (168) fits in a bucket of 256: every bucket owns
    // its rows, and only the zeroing of the empty rows' list is left.
    let owned = ptx("8");
    assert!(!owned.contains("red.global") && !owned.contains("atom."), "{owned}");
    assert!(owned.lines().filter(|l| l.contains("ld.global") && !l.contains("ld.global.nc")).count() == 0, "{owned}");
    // With buckets up to 4, longer rows are split over the widest one,
    // which adds atomically.
    assert!(ptx("2").contains("red.global.add.v4.f32"));
    for device in ["cpu", "emulate"] {
        let output = bench(&[
            "--op",
            "spmm",
            "--format",
            "hyb",
            "--hyb-exclusive",
            "--bucket-exp",
            "2",
            "--matrix",
            "rmat:8:6:3",
            "--feat",
            "12",
            "--device",
            device,
            "--reps",
            "1",
        ]);
        assert!(String::from_utf8_lossy(&output.stdout).contains("(verified)"), "{device}: {output:?}");
    }
    fails_with(
        &bench(&["--op", "sddmm", "--format", "hyb", "--hyb-exclusive", "--matrix", "rmat:5:2:1"]),
        "applies to spmm in hyb",
    );
}

#[test]
fn bench_checks_sddmm_schedules() {
    let matrix = "rmat:5:2:1";
    fails_with(&bench(&["--op", "sddmm", "--matrix", matrix, "--sddmm", "8,8,4"]), "is a GPU schedule");
    let ptx = |extra: &[&str]| {
        let mut args = vec!["--op", "sddmm", "--matrix", matrix, "--feat", "64", "--emit", "ptx"];
        args.extend_from_slice(extra);
        bench(&args)
    };
    fails_with(&ptx(&["--sddmm", "8,64,1"]), "THREADS must be 1, 2, 4, 8, 16 or 32");
    fails_with(&ptx(&["--sddmm", "8,8"]), "expected ROWS,THREADS,VECTOR");
    fails_with(&ptx(&["--sddmm", "8,8,4,3"]), "ROWWISE 0, 1 or 2");
    fails_with(&ptx(&["--format", "hyb", "--sddmm", "8,8,4,2"]), "ROWWISE applies to csr");
    fails_with(&ptx(&["--format", "ell", "--sddmm", "8,8,4"]), "applies to sddmm in csr or hyb");
    fails_with(&ptx(&["--format", "hyb", "--sddmm", "8,8,4,1"]), "ROWWISE applies to csr");
    // hyb's buckets (widths 1, 2, 4) in one launch, each bucket row on 4
    // lanes: its slots unrolled, two butterfly steps a slot, in both
    // alignment versions (7 slots, 28 shuffles), no atomics.
    let output = ptx(&["--format", "hyb", "--bucket-exp", "2", "--sddmm", "8,4,4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches(".entry").count(), 1, "{text}");
    assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 28, "{text}");
    assert!(text.contains("ld.global.nc.v4.b32") && !text.contains("atom."), "{text}");
    // 16 lanes a non-zero in 16-byte vectors: four butterfly steps in the
    // vector version and four in the scalar one (aligned or not at run
    // time), no atomics.
    let output = ptx(&["--sddmm", "8,16,4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("ld.global.nc.v4.b32") && !text.contains("atom."), "{text}");
    assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 8, "{text}");
    // Compiled for any feature size, the feature loop stays (a lane may
    // have more than one step or none); its sum is promoted across it.
    let output = ptx(&["--sddmm", "8,16,4", "--generic"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout).matches("shfl.sync.bfly.b32").count(), 4);
    // A vector width that the features do not divide into never aligns:
    // the kernel compiled for 66 features has scalar loads only.
    let output = bench(&["--op", "sddmm", "--matrix", matrix, "--feat", "66", "--emit", "ptx", "--sddmm", "8,16,4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains(".v4.") && text.matches("shfl.sync.bfly.b32").count() == 4, "{text}");
    // Row-wise: rows on threadIdx.y walk their non-zeros, no binary search;
    // the alignment check is outside the non-zero loop, so the vector and
    // scalar versions each shuffle.
    let output = ptx(&["--sddmm", "4,16,4,1"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 8, "{text}");
    // The default at 64 features: a non-zero a lane, its dot product in
    // 16-byte vectors, no shuffle; at 512, eight lanes meeting in shuffles.
    let output = ptx(&[]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("ld.global.nc.v4.b32") && !text.contains("shfl.sync"), "{text}");
    let output = bench(&["--op", "sddmm", "--matrix", matrix, "--feat", "512", "--emit", "ptx"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("ld.global.nc.v4.b32") && text.contains("shfl.sync.bfly.b32"), "{text}");
    // Its feature loop carries a vector of partial sums (x * y a step, the
    // value `a` applied after the loop), whose lanes are summed once.
    let output =
        bench(&["--op", "sddmm", "--matrix", matrix, "--feat", "512", "--device", "emulate", "--emit", "stage3"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches("vector.reduction").count(), 1, "{text}");
    assert_eq!(text.matches("-> (vector<4xf32>)").count(), 1, "{text}");
    // Row-wise at 256 features on 8 lanes of 4: the eight steps are
    // unrolled, so the lane's 8 vectors of X's row are loaded once before
    // the non-zero loop (16 vector loads: those and Y's 8 in it), one
    // shuffle per version merges all steps, and the first lane stores the
    // total without zeroing or reading the output first (two stores, one
    // per version). Generic, the steps stay a loop that reloads X.
    let rowwise = |extra: &[&str]| {
        let mut args =
            vec!["--op", "sddmm", "--matrix", matrix, "--feat", "256", "--emit", "ptx", "--sddmm", "4,8,4,1"];
        args.extend_from_slice(extra);
        let output = bench(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    let text = rowwise(&[]);
    assert_eq!(text.matches("ld.global.nc.v4.b32").count(), 16, "{text}");
    assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 6, "{text}");
    assert_eq!(text.matches("st.global").count(), 2, "{text}");
    let text = rowwise(&["--generic"]);
    assert!(text.matches("ld.global.nc.v4.b32").count() < 16, "{text}");
    // A row's non-zeros on the lanes: each lane a whole dot product, its
    // 16 vector steps of X and Y unrolled by 8 (16 vector loads), its row
    // from the row loop (no search), no shuffle.
    let output = ptx(&["--sddmm", "4,32,4,2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("shfl.sync") && !text.contains("atom."), "{text}");
    assert_eq!(text.matches("ld.global.nc.v4.b32").count(), 16, "{text}");
}

#[test]
fn bench_emulates_gpu_schedules_on_the_cpu() {
    // Each schedule's launches run serialized on the CPU and are verified
    // against the reference; the matrix has empty rows and a hub.
    let matrix = "rmat:7:6:3";
    let emulate = |extra: &[&str]| {
        let mut args = vec!["--matrix", matrix, "--device", "emulate", "--reps", "1", "--feat", "36,64", "--json"];
        args.extend_from_slice(extra);
        let output = bench(&args);
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(output.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(stdout.matches("\"device\":\"emulate\"").count(), 2, "{stdout}");
        assert_eq!(stdout.matches("\"verified\":true").count(), 2, "{stdout}");
    };
    emulate(&["--op", "spmm"]);
    emulate(&["--op", "spmm", "--row-spmm", "1,32,2,64"]);
    emulate(&["--op", "spmm", "--format", "hyb", "--row-spmm", "4,8,4"]);
    emulate(&["--op", "sddmm", "--sddmm", "4,8,4,1"]);
    emulate(&["--op", "sddmm", "--sddmm", "2,16,2"]);
    emulate(&["--op", "spmm", "--schedule", "sparse-pos-bind{loop=csrmm.0 to=blockIdx.x}"]);
    // A warp a row, its lanes on the row's non-zeros and the features in
    // turn around them: each feature's sum meets in a shuffle.
    let warp_rows = "sparse-pos-reorder{loops=csrmm.2,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=32},\
                     sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true}";
    emulate(&["--op", "spmm", "--schedule", warp_rows]);
    // A matrix without non-zeros has no hyb buckets: nothing to schedule.
    let empty = temp_file("empty.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n");
    for (op, format) in [("sddmm", "hyb"), ("spmm", "hyb"), ("sddmm", "csr"), ("spmm", "ell")] {
        let args = ["--op", op, "--format", format, "--matrix", &empty, "--device", "emulate", "--reps", "1", "--json"];
        let output = bench(&args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("\"verified\":true"),
            "{op} {format}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // BSR unrolls a block's rows up to 16, one register sum each.
    for block in ["1", "3", "16", "17"] {
        emulate(&["--op", "spmm", "--format", "bsr", "--block", block]);
    }
    let stage3 =
        bench(&["--op", "spmm", "--format", "bsr", "--matrix", matrix, "--device", "cuda", "--emit", "stage3"]);
    let stage3 = String::from_utf8_lossy(&stage3.stdout);
    assert!(stage3.contains("-> (f32, f32, f32, f32)"), "{stage3}");
    // Compiled without its feature size, a feature loop on threads may be
    // longer than a block: its threads step through it, on the GPU too.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/csr_spmm.mlir");
    let wide = ["--op", "spmm", "--matrix", matrix, "--kernel", example, "--generic", "--feat", "1500", "--reps", "1"];
    let output = bench(&[&wide[..], &["--device", "emulate"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = bench(&[&wide[..], &["--device", "cuda", "--emit", "stage3"]].concat());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("arith.minui") && stdout.contains("step %"), "{stdout}");
    // A schedule's error points at the line of the built-in program that
    // `--emit stage1` prints: the iteration on line 10.
    let too_wide = "sparse-pos-split{loop=csrmm.0 factor=2048},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.x}";
    fails_with(
        &bench(&["--op", "spmm", "--matrix", matrix, "--device", "emulate", "--schedule", too_wide]),
        "csr_spmm (built-in, see --emit stage1):10:5: error: lower-loop-bindings: loop \"csrmm.0.i\" is bound to threadIdx.x and has 2048 positions",
    );
    let printed =
        String::from_utf8_lossy(&bench(&["--op", "spmm", "--matrix", matrix, "--emit", "stage1"]).stdout).to_string();
    assert!(printed.lines().nth(9).is_some_and(|line| line.contains("sparse_iter.iterate \"csrmm\"")), "{printed}");
}

#[test]
fn bench_rejects_options_it_would_ignore() {
    let matrix = "rmat:5:2:1";
    let with = |extra: &[&str]| {
        let mut args = vec!["--op", "spmm", "--matrix", matrix];
        args.extend_from_slice(extra);
        bench(&args)
    };
    fails_with(&with(&["--schedule", "sparse-pos-bind{loop=csrmm.0 to=blockIdx.x}"]), "--schedule is a GPU schedule");
    fails_with(&with(&["--function", "f"]), "add --kernel");
    fails_with(&with(&["--save-config", "/tmp/never-written"]), "add --tune");
    fails_with(&with(&["--tune", "--device", "emulate"]), "--tune compares times");
    fails_with(&with(&["--tolerance", "NaN"]), "--tolerance must be a finite number at least 0");
    fails_with(&with(&["--tolerance=-1"]), "--tolerance must be a finite number at least 0");
    // An infinite tolerance would pass an output left all NaN.
    fails_with(&with(&["--tolerance", "inf"]), "--tolerance must be a finite number at least 0");
    fails_with(&with(&["--tolerance", "1e400"]), "--tolerance must be a finite number at least 0");
    fails_with(&with(&["--ell-panel-slots", "0"]), "--ell-panel-slots must be at least 1");
    // Values no format takes, whatever the format.
    fails_with(&with(&["--block", "0"]), "--block (block: the bsr block size) must be at least 1");
    fails_with(&with(&["--col-parts", "0"]), "--col-parts (col_parts: the hyb column partitions) must be at least 1");
    fails_with(
        &with(&["--bucket-exp", "31"]),
        "--bucket-exp (bucket_exp: the hyb bucket widths up to 2^k) must be at most 30",
    );
    fails_with(&with(&["--feat", "99999999999999999999"]), "feature size '99999999999999999999' is too large");
    // The bench specializes the kernel itself: the stage's list does not
    // offer specialize-arguments, and naming it says why.
    fails_with(
        &with(&["--stage1", "lower-sparse-iter"]),
        "(sparse-reorder, sparse-fuse, decompose-format, canonicalize, cse)",
    );
    fails_with(
        &with(&["--stage1", "specialize-arguments{function=csr_spmm}"]),
        "sptir-bench specializes the kernel for this run's sizes itself",
    );
    // One GPU schedule at a time, and none where --tune picks it.
    let bind = "sparse-pos-bind{loop=csrmm.0 to=blockIdx.x}";
    fails_with(
        &with(&["--device", "emulate", "--schedule", bind, "--row-spmm", "1,4,1"]),
        "--schedule and --row-spmm are alternative GPU schedules",
    );
    fails_with(
        &with(&["--device", "cuda", "--tune", "--row-spmm", "1,4,1"]),
        "--tune searches the schedules, the formats and their parameters itself: drop --row-spmm",
    );
    fails_with(
        &bench(&["--op", "sddmm", "--matrix", matrix, "--device", "emulate", "--sddmm", "1,4,1", "--stage1", "cse"]),
        "--sddmm sets the stage I schedule itself",
    );
    fails_with(&with(&["--chip", "sm_80"]), "--chip picks the GPU that PTX is built for");
    fails_with(&with(&["--device", "emulate", "--chip", "sm_80"]), "--chip picks the GPU that PTX is built for");
    // Checked before compiling, and never pasted into the pipeline as text.
    fails_with(&with(&["--emit", "ptx", "--chip", "sm_100"]), "--chip: chip 'sm_100' is not a PTX 8.1 target");
    fails_with(
        &with(&["--emit", "ptx", "--chip", "sm_80 chip=sm_90"]),
        "--chip: 'sm_80 chip=sm_90' is not a chip name",
    );
}

/// On a GPU device, --emit shows the GPU path's stages, schedule applied.
#[test]
fn bench_emits_the_stages_of_the_gpu_path() {
    let emit = |extra: &[&str]| {
        let output = bench(&[&["--op", "spmm", "--matrix", "rmat:5:2:1"][..], extra].concat());
        assert!(output.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    let bind = "sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x}";
    let stage2 = emit(&["--device", "emulate", "--emit", "stage2", "--schedule", bind]);
    assert!(stage2.contains("\"csrmm.0.o\" spatial") && stage2.contains("bind = \"blockIdx.x\""), "{stage2}");
    assert!(emit(&["--device", "emulate", "--emit", "stage3"]).contains("gpu.launch"));
    assert!(!emit(&["--emit", "stage3"]).contains("gpu.launch"));
    assert!(emit(&["--device", "cuda", "--emit", "llvm"]).contains("gpu.binary"));
    assert!(emit(&["--emit", "ptx", "--chip", "sm_80"]).contains(".target sm_80"));
}

#[test]
fn tools_refuse_what_they_cannot_hold() {
    // Matrices, operands and references that would not fit in memory are
    // refused before they are built, not aborted by a failed allocation:
    // under a 6 GB address-space limit, whatever the machine has.
    let limited = |args: &str| {
        let command = format!("ulimit -v 6000000 && exec {} {args}", env!("CARGO_BIN_EXE_sptir-bench"));
        Command::new("sh").args(["-c", &command]).output().expect("sh runs")
    };
    fails_with(&limited("--op spmm --matrix rmat:30:1:0 --feat 1"), "MiB to build");
    let tall = temp_file("tall.mtx", "%%MatrixMarket matrix coordinate real general\n1000000000 1 1\n1 1 1.0\n");
    fails_with(&limited(&format!("--op spmm --matrix {tall} --feat 1")), "MiB to convert");
    let narrow = temp_file("narrow.mtx", "%%MatrixMarket matrix coordinate real general\n1048576 1 1\n1 1 1.0\n");
    fails_with(&limited(&format!("--op spmm --matrix {narrow} --feat 2048")), "MiB for the dense operands");
    // A format's padding grows with its longest row or its block, not
    // with the non-zeros: a hub row padded over a million rows, one block
    // of 30000x30000.
    let hub: String = (1..=1000).map(|c| format!("1 {c}\n")).collect();
    let hub = temp_file(
        "hub_row.mtx",
        &format!("%%MatrixMarket matrix coordinate pattern general\n1000000 1000 1000\n{hub}"),
    );
    let ell = format!("--op sddmm --format ell --ell-panel-slots 2000000000 --matrix {hub} --feat 1");
    fails_with(&limited(&ell), "the ell format of this matrix needs about");
    let corner = temp_file("corner.mtx", "%%MatrixMarket matrix coordinate real general\n30000 30000 1\n1 1 1.0\n");
    fails_with(
        &limited(&format!("--op spmm --format bsr --block 30000 --matrix {corner} --feat 1")),
        "smaller --block",
    );
    // Each hyb bucket is a kernel: thousands would compile for minutes.
    fails_with(
        &bench(&[
            "--op",
            "spmm",
            "--format",
            "hyb",
            "--matrix",
            "rmat:12:4:1",
            "--col-parts",
            "1000",
            "--bucket-exp",
            "0",
        ]),
        "at most 256",
    );
    let csr = include_str!("../../examples/csr_spmm.mlir");
    fails_with(
        &opt(&["-", "-p", "builtin.module(decompose-format{rule=hyb:100000:1 iteration=csrmm})"], csr),
        "at most 256, got 100000",
    );
    // A specialization of its own could claim sizes the run does not have.
    fails_with(
        &bench(&[
            "--op",
            "spmm",
            "--matrix",
            "rmat:6:4:1",
            "--stage1",
            "specialize-arguments{function=csr_spmm args=5 values=100000}",
        ]),
        "drop specialize-arguments",
    );
    // What needs a GPU or a file fails before the work, not after it.
    if !sptir_runtime::cuda::available() {
        fails_with(&bench(&["--op", "spmm", "--matrix", "rmat:6:4:1", "--device", "cuda", "--tune"]), "--device cuda:");
    }
    fails_with(&bench(&["--op", "spmm", "--matrix", "rmat:6:4:1", "--baseline", "cusparse"]), "needs --device cuda");
    fails_with(
        &bench(&[
            "--op",
            "spmm",
            "--matrix",
            "rmat:6:4:1",
            "--device",
            "cuda",
            "--tune",
            "--save-config",
            "/nonexistent/x",
        ]),
        "--save-config: cannot write",
    );
    // An op of no registered dialect cannot be lowered to LLVM (upstream
    // conversions crashed on it).
    let unregistered = "func.func @f() {\n  %x = \"foo.bar\"() : () -> i32\n  return\n}\n";
    fails_with(
        &opt(&["-", "--allow-unregistered-dialect", "--sptir-to-cpu"], unregistered),
        "<stdin>:2:8: error: 'foo.bar' belongs to no registered dialect",
    );
    // Deep nesting needs a deep stack, which the compiler thread has.
    let depth = 5000;
    let deep = format!(
        "func.func @f() {{\n{}{}  return\n}}\n",
        "scf.execute_region {\n".repeat(depth),
        "scf.yield\n}\n".repeat(depth)
    );
    let output = opt(&["-", "-o", "/dev/null"], &deep);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn opt_reads_annotations_as_mlir_opt_does() {
    let source = r#"func.func @a() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  func.return %x : i32
}
// -----
func.func @b() {
  // expected-error@+1{{use of undeclared SSA value name}}
  func.return %x : i32
}
// -----
func.func @c() {
  // expected-error-re@below {{use of {{[a-z]+}} SSA value name}}
  // expected-note@above {{never matched}}
  func.return %x : i32
}
"#;
    let output = opt(&["--split-input-file", "--verify-diagnostics", "-"], source);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Only the note on line 11 ('func.func @c') is missing.
    assert_eq!(
        stderr.trim_end(),
        "<stdin>:13:6: error: expected note \"never matched\" was not produced\n  // expected-note@above {{never matched}}\n     ^~~~~~~~~~~~~",
        "{stderr}"
    );
    let wrong_pattern = source.replace("[a-z]+", "[0-9]+").replace("  // expected-note@above {{never matched}}\n", "");
    let output = opt(&["--split-input-file", "--verify-diagnostics", "-"], &wrong_pattern);
    fails_with(&output, "unexpected error");
    // A diagnostic in another file does not meet an annotation at its line
    // number here.
    let elsewhere = "func.func @f() {\n  func.return\n}\n\n// expected-error@+1 {{enclosing function}}\nfunc.func @g() -> i32 {\n  func.return loc(\"other.mlir\":5:3)\n}\n";
    let output = opt(&["--verify-diagnostics", "-"], elsewhere);
    fails_with(&output, "other.mlir:5:3: error: unexpected error");
    fails_with(&output, "<stdin>:5:4: error: expected error \"enclosing function\" was not produced");
    // Text that mentions an annotation is not one.
    let prose =
        "// This file is expected-error free.\nfunc.func @f() attributes {note = \"expected-error\"} {\n  return\n}\n";
    let output = opt(&["--verify-diagnostics", "-"], prose);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn opt_reads_text_that_is_not_utf8() {
    let path = std::env::temp_dir().join(format!("sptir-cli-{}-latin1.mlir", std::process::id()));
    std::fs::write(&path, b"// caf\xe9\nfunc.func @f() {\n  return\n}\n").expect("write");
    let output = opt(&[path.to_str().expect("path")], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let bytecode = temp_file("module.mlirbc", "ML\u{ef}R");
    // A file that is bytecode is named so, not "not valid UTF-8".
    std::fs::write(&bytecode, b"ML\xefR\x00").expect("write");
    fails_with(&opt(&[&bytecode], ""), "is MLIR bytecode; sptir-opt reads MLIR text");
}

#[test]
fn opt_keeps_each_chunk_in_its_place() {
    // A chunk that fails leaves an empty place between markers.
    let source = "func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return %x : i32\n}\n// -----\nfunc.func @c() {\n  return\n}\n";
    let output = opt(&["--split-input-file", "-"], source);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success());
    assert_eq!(stdout.matches("// -----").count(), 2, "{stdout}");
    let chunks: Vec<&str> = stdout.split("// -----\n").collect();
    assert!(chunks[0].contains("@a") && chunks[1].trim().is_empty() && chunks[2].contains("@c"), "{stdout}");
    // sptir-to-cpu-stage3 stops before LLVM: unregistered ops stay, as in
    // sptir-to-stage3.
    let unregistered = "func.func @f() {\n  \"foo.bar\"() : () -> ()\n  return\n}\n";
    let output = opt(&["-", "--allow-unregistered-dialect", "-p", "builtin.module(sptir-to-cpu-stage3)"], unregistered);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}
