//! The GPU path checked on the CPU: kernels go through the GPU schedule
//! and `lower-loop-bindings` (launches, atomics, register accumulation), then
//! `serialize-launches` runs each launch's blocks and threads one after the
//! other on the JIT. Catches wrong indices, guards and atomics without a GPU
//! (races are ruled out by construction, not by this test).

mod inputs;

use sptir_lowering::format_rules::BuiltinRule;
use sptir_runtime::{cpu::CpuKernel, randomize_values, relative_error, Csr, RmatSpec};
use sptir_tools::{
    compile::run_pipeline,
    context::create_context,
    kernels::{decomposition_args, prepare, specialization, Format, Layout, Op, Prepared},
};

/// Non-zero-parallel SDDMM (after `sparse-fuse`): 8 non-zeros a block,
/// one a thread.
const SDDMM_ON_THREADS: &str = "sparse-pos-split{loop=sddmm.0 factor=8},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},\
                                sparse-pos-bind{loop=sddmm.0.i to=threadIdx.x},";

const GPU_LOWERING: &str = "sptir-stage2-to-emulation,sptir-stage3-to-llvm";

fn check(op: Op, format: Format, schedule: &str, a: &Csr, feat: usize) {
    check_with(op, format, "", schedule, a, feat)
}

/// `stage1` runs before lower-sparse-iter, `schedule` after it.
fn check_with(op: Op, format: Format, stage1: &str, schedule: &str, a: &Csr, feat: usize) {
    check_rule(op, format, stage1, schedule, a, feat, None)
}

/// With `rule`, the built-in decomposition `stage1` applies has its
/// arrays appended to the kernel's arguments.
fn check_rule(op: Op, format: Format, stage1: &str, schedule: &str, a: &Csr, feat: usize, rule: Option<&str>) {
    let mut problem = prepare(op, format, a, feat, Layout::default(), 17).unwrap();
    if let Some(rule) = rule {
        problem.append(decomposition_args(&BuiltinRule::parse(rule).unwrap(), a).unwrap());
    }
    check_prepared(&mut problem, stage1, schedule, feat);
}

/// Runs the kernel compiled for any extents, then for the problem's own
/// (`specialize-arguments`, as `sptir-bench` does on the GPU).
fn check_prepared(problem: &mut Prepared, stage1: &str, schedule: &str, feat: usize) {
    check_each(problem, stage1, [schedule, schedule], feat)
}

/// `schedules[0]` for the kernel compiled for any extents, `schedules[1]`
/// for the one compiled for the problem's.
fn check_each(problem: &mut Prepared, stage1: &str, schedules: [&str; 2], feat: usize) {
    check_generic(problem, stage1, schedules[0], feat);
    check_specialized(problem, stage1, schedules[1], feat);
}

fn check_generic(problem: &mut Prepared, stage1: &str, schedule: &str, feat: usize) {
    check_pipeline(problem, &format!("{stage1}lower-sparse-iter,{schedule}"), feat);
}

/// Compiled for the problem's extents, as `sptir-bench` does on the GPU.
fn check_specialized(problem: &mut Prepared, stage1: &str, schedule: &str, feat: usize) {
    let specialize = specialization(problem.function, &problem.extents());
    check_pipeline(problem, &format!("{specialize},{stage1}lower-sparse-iter,{schedule}"), feat);
}

/// Runs `schedule` (passes up to the GPU schedule), the default schedule
/// and the emulated GPU lowering, and checks the result.
fn check_pipeline(problem: &mut Prepared, schedule: &str, feat: usize) {
    let context = create_context();
    let mut module = problem.program(&context);
    let pipeline = format!("builtin.module({schedule}sparse-pos-auto-bind,{GPU_LOWERING})");
    run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
    let kernel = CpuKernel::compile(&module, 2).unwrap();
    problem.poison();
    kernel.run(problem.function, &mut problem.kernel_args()).unwrap();
    let error = relative_error(&problem.result(), &problem.reference);
    let (op, format) = (problem.op.name(), problem.format.name());
    assert!(error < 1e-5, "{op} {format} feat {feat} [{schedule}]: relative error {error}");
}

fn matrices() -> Vec<Csr> {
    let mut list = vec![
        RmatSpec::parse("rmat:7:5:2").unwrap().generate().unwrap(),
        Csr::new(5, 7, vec![0, 2, 5, 5, 6, 9], vec![0, 6, 1, 2, 3, 4, 0, 5, 6], vec![1.0; 9]).unwrap(),
    ];
    for (seed, a) in list.iter_mut().enumerate() {
        randomize_values(a, 60 + seed as u64);
    }
    list
}

#[test]
fn default_schedule_on_every_format() {
    for a in matrices() {
        for op in [Op::Spmm, Op::Sddmm] {
            for format in [Format::Csr, Format::Ell, Format::Bsr, Format::Hyb] {
                check(op, format, "", &a, 7);
            }
        }
    }
}

#[test]
fn hand_schedules() {
    for a in matrices() {
        // Four rows per block, on threadIdx.y; features on threadIdx.x.
        check(
            Op::Spmm,
            Format::Csr,
            "sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},\
             sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},",
            &a,
            5,
        );
        // Non-zero-parallel SDDMM: rows and columns fused, 8 non-zeros per
        // block, one per thread (sptir-bench's GPU default for SDDMM).
        check_with(Op::Sddmm, Format::Csr, "sparse-fuse{iteration=sddmm loops=0,1},", SDDMM_ON_THREADS, &a, 6);
        // Only a split's inner rows bound to blockIdx.x: the default
        // schedule puts the outer ones on blockIdx.y (rows 4 at a time).
        check(
            Op::Spmm,
            Format::Csr,
            "sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.i to=blockIdx.x},",
            &a,
            5,
        );
        // Rows bound with atomic=true: only the accumulation's halves are
        // atomic. The zeroing (features 4 a thread) and the accumulation
        // (8 a thread) map features to threads differently, and a tile's
        // copy and reads are plain: each needs its barrier.
        // (Compiled for their features: the zeroing's threads need it, and
        // a row's element `row * feat + f` is its own only where `feat` is
        // a constant.)
        let mut problem = prepare(Op::Spmm, Format::Csr, &a, 32, Layout::default(), 17).unwrap();
        check_specialized(
            &mut problem,
            "",
            "sparse-pos-split{loop=csrmm.init.1 factor=4},sparse-pos-bind{loop=csrmm.init.1.o to=threadIdx.x},\
             sparse-pos-split{loop=csrmm.2 factor=8},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},\
             sparse-pos-bind{loop=csrmm.0 to=blockIdx.x atomic=true},",
            32,
        );
        let mut problem = prepare(Op::Spmm, Format::Ell, &a, 16, Layout::default(), 17).unwrap();
        check_specialized(
            &mut problem,
            "",
            "sparse-pos-split{loop=ellmm.2 factor=8},sparse-pos-bind{loop=ellmm.2.i to=threadIdx.x},\
             sparse-pos-split{loop=ellmm.init.1 factor=8},sparse-pos-bind{loop=ellmm.init.1.i to=threadIdx.x},\
             sparse-pos-split{loop=ellmm.1 factor=8},sparse-pos-cache-read{loop=ellmm.1.i},\
             sparse-pos-bind{loop=ellmm.1.i.cache to=threadIdx.x},sparse-pos-bind{loop=ellmm.0 to=blockIdx.x atomic=true},",
            16,
        );
        // Only the accumulation's features split and on threadIdx.x: the
        // default schedule splits the zeroing's the same way, for fewer
        // features than threads (1, 5), more (33) and as many (16).
        for feat in [1, 5, 16, 33] {
            check(
                Op::Spmm,
                Format::Csr,
                "sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},",
                &a,
                feat,
            );
        }
        // A tile of each row's non-zeros whose copy loop the hand
        // schedule left alone: the default schedule puts it on the
        // feature loop's threads (it used to be left to every thread,
        // each repeating the copy, and was refused).
        check(
            Op::Spmm,
            Format::Csr,
            "sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},\
             sparse-pos-split{loop=csrmm.1 factor=4 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},",
            &a,
            6,
        );
        // ... and a tile of each row's non-zeros, of other bounds than
        // the feature threads: its copy loop is split by as many.
        check(
            Op::Spmm,
            Format::Csr,
            "sparse-pos-split{loop=csrmm.1 factor=32},sparse-pos-cache-read{loop=csrmm.1.i},\
             sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},",
            &a,
            33,
        );
        // And the slots of an ELL row on atomic threads, one feature: the
        // zeroing has no loop of its own once specialized.
        check(
            Op::Spmm,
            Format::Ell,
            "sparse-pos-split{loop=ellmm.1 factor=16},sparse-pos-bind{loop=ellmm.1.i to=threadIdx.x atomic=true},\
             sparse-pos-bind{loop=ellmm.0 to=blockIdx.x},",
            &a,
            1,
        );
        // A tile of each row's non-zeros, the rest left to the default
        // schedule: the copy into the tile must not be repeated by threads.
        check(
            Op::Spmm,
            Format::Csr,
            "sparse-pos-split{loop=csrmm.1 factor=4},sparse-pos-cache-read{loop=csrmm.1.i},",
            &a,
            5,
        );
    }
}

/// More rows than CUDA's 65535 blocks along y, bound there: the grid
/// takes at most 65535 and each block steps through the rows, so the
/// schedule runs on a GPU and here alike (the CUDA runtime refuses a
/// larger grid).
#[test]
fn rows_on_blockidx_y_beyond_its_limit() {
    let a = RmatSpec::parse("rmat:17:1:3").unwrap().generate().unwrap();
    assert!(a.rows() > 65535);
    check(Op::Spmm, Format::Csr, "sparse-pos-bind{loop=csrmm.0 to=blockIdx.y},", &a, 2);
}

/// Built-in decompositions on the GPU path: a hyb bucket may list a long
/// row twice (atomics), BSR blocks go to blocks.
#[test]
fn decomposed_formats() {
    for a in matrices() {
        for (rule, op, label) in
            [("hyb:1:1,2", Op::Spmm, "csrmm"), ("hyb:2:2,4", Op::Sddmm, "sddmm"), ("bsr:2", Op::Spmm, "csrmm")]
        {
            let stage1 = format!("decompose-format{{rule={rule} iteration={label}}},");
            check_rule(op, Format::Csr, &stage1, "", &a, 5, Some(rule));
        }
    }
}

/// Schedules that would be wrong on a GPU are refused, with the reason.
/// A shared-memory row schedule with four rows a block on threadIdx.y,
/// each of 48 threads: a warp and a half.
const CACHED_PART_WARP_ROWS_ON_Y: &str =
    "sparse-pos-split{loop=csrmm.2 factor=48},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},\
    sparse-pos-split{loop=csrmm.init.1 factor=48},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},\
    sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=48 clamp=true},\
    sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-bind{loop=csrmm.1.i.cache to=threadIdx.x},\
    sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},\
    sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},";

#[test]
fn racy_schedules_are_rejected() {
    let a = &matrices()[0];
    let cases = [
        // The non-zeros of a row on threads: their count depends on the
        // row, so it is not known when the block is sized (on blocks it
        // would be padded to nnz, see pad-grid-loops).
        (
            Op::Spmm,
            "sparse-pos-bind{loop=csrmm.1 to=threadIdx.y atomic=true},",
            "a launch needs its sizes before it starts",
        ),
        // ... and on blocks, the zeroing of C's row outside them would be
        // repeated by each.
        (
            Op::Spmm,
            "sparse-pos-bind{loop=csrmm.1 to=blockIdx.y atomic=true},",
            "each block along blockIdx.y would repeat it",
        ),
        // The zeroing of SDDMM's output sits outside the thread loop: every
        // thread would redo it, racing with the others' additions.
        (
            Op::Sddmm,
            "sparse-pos-bind{loop=sddmm.2 to=threadIdx.x atomic=true},",
            "each thread of the block along threadIdx.x would repeat it",
        ),
        // A reduction over threads without atomics.
        (Op::Spmm, "sparse-pos-bind{loop=csrmm.1 to=threadIdx.y},", "makes threads race on its outputs"),
        // A shared-memory copy with rows on threadIdx.y: only a row's
        // threads meet, which needs the row inside one warp or of whole
        // warps.
        (Op::Spmm, CACHED_PART_WARP_ROWS_ON_Y, "a row must lie inside one warp or take one of 15 named barriers"),
    ];
    for (op, schedule, reason) in cases {
        let problem = prepare(op, Format::Csr, a, 4, Layout::default(), 1).unwrap();
        let context = create_context();
        let mut module = problem.program(&context);
        let pipeline = format!("builtin.module(lower-sparse-iter,{schedule}sparse-pos-auto-bind,{GPU_LOWERING})");
        let error = run_pipeline(&context, &mut module, &pipeline).expect_err(schedule);
        assert!(error.contains(reason), "{schedule}: {error}");
    }
}

/// Warp shuffles need a constant cluster of lanes inside one warp.
#[test]
fn wrong_shuffles_are_rejected() {
    let a = &matrices()[0];
    let nonzeros = "sparse-pos-split{loop=sddmm.0 factor=4},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},\
                    sparse-pos-bind{loop=sddmm.0.i to=threadIdx.y},";
    let cases = [
        // The feature count is not known when the kernel is compiled.
        ("sparse-pos-bind{loop=sddmm.1 to=threadIdx.x shuffle=true},", "a trip count not known at compile time"),
        // More lanes than a warp has.
        (
            "sparse-pos-split{loop=sddmm.1 factor=64},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true},",
            "got threadIdx.x and 64 times",
        ),
    ];
    for (features, reason) in cases {
        let problem = prepare(Op::Sddmm, Format::Csr, a, 4, Layout::default(), 1).unwrap();
        let context = create_context();
        let mut module = problem.program(&context);
        let pipeline = format!(
            "builtin.module(sparse-fuse{{iteration=sddmm loops=0,1}},lower-sparse-iter,{nonzeros}{features}{GPU_LOWERING})"
        );
        let error = run_pipeline(&context, &mut module, &pipeline).expect_err(features);
        assert!(error.contains(reason), "{features}: {error}");
    }
}

/// A row-wise SpMM schedule in `format` (loops `label.*`): generic, its
/// chunks outside the non-zero loop, and compiled for `feat`, where 2 to
/// 8 chunks are unrolled inside it (one register sum a chunk).
fn check_row_spmm(schedule: sptir_tools::schedules::RowSpmm, format: Format, label: &str, a: &Csr, feat: usize) {
    let mut problem = prepare(Op::Spmm, format, a, feat, Layout::default(), 17).unwrap();
    let generic = format!("{},", schedule.passes(label, None));
    let specialized = format!("{},", schedule.passes(label, Some(feat)));
    check_each(&mut problem, "", [&generic, &specialized], feat);
}

/// The row schedule on every bucket of hyb SpMM in `layout`: generic, and
/// compiled for its bucket widths and `feat`.
fn check_hyb_row_spmm(schedule: sptir_tools::schedules::RowSpmm, layout: Layout, a: &Csr, feat: usize) {
    let mut problem = prepare(Op::Spmm, Format::Hyb, a, feat, layout, 17).unwrap();
    let known: Vec<Option<usize>> = problem.bucket_widths().iter().copied().map(Some).collect();
    let exclusive = problem.exclusive_buckets().map(<[bool]>::to_vec);
    let specialized = schedule.hyb_passes(&known, exclusive.as_deref(), Some(feat));
    let generic = schedule.hyb_passes(&vec![None; known.len()], exclusive.as_deref(), None);
    check_each(&mut problem, "", [&format!("{generic},"), &format!("{specialized},")], feat);
}

/// hyb SpMM whose buckets that own their rows store them (no zeroing, no
/// atomics) while the rest are zeroed and added to atomically: rows split
/// over the widest bucket (widths up to 2 and 4), an empty row, column
/// partitions (which list a row in several buckets, so that no bucket
/// owns it), with slices, unrolling and odd feature counts.
#[test]
fn exclusive_hyb_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for (col_parts, bucket_exponent) in [(1, 1), (1, 2), (1, 6), (2, 1)] {
            let layout = Layout { col_parts, bucket_exponent, hyb_exclusive: true, ..Layout::default() };
            let problem = prepare(Op::Spmm, Format::Hyb, &a, 4, layout, 17).unwrap();
            let owners = problem.exclusive_buckets().unwrap();
            // Without column partitions the narrow buckets own their rows.
            assert_eq!(col_parts == 1, owners.iter().any(|&owns| owns), "{owners:?}");
            for feat in [5, 12, 40] {
                for (rows, threads, vector, slice, unroll) in
                    [(2, 4, 1, 0, 0), (1, 8, 4, 0, 3), (2, 2, 4, 8, 0), (4, 2, 2, 0, 1)]
                {
                    let schedule = RowSpmm { rows, threads, vector, slice, unroll, ..RowSpmm::default() };
                    check_hyb_row_spmm(schedule, layout, &a, feat);
                }
            }
        }
    }
}

/// Row-wise SpMM with features on threads in vectors, chunks outside or
/// inside the non-zero loop and rows on threadIdx.y: every combination
/// verifies, whether the features divide into vectors (vector path) or
/// not (the scalar path the alignment check falls back to), and whether
/// the last chunk is whole or not (lane guards).
#[test]
fn vectorized_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for feat in [5, 8, 12, 64, 130] {
            for (rows, threads, vector) in [(1, 4, 4), (2, 2, 2), (4, 8, 1), (1, 32, 4), (3, 2, 4)] {
                let schedule = RowSpmm { rows, threads, vector, ..RowSpmm::default() };
                check_row_spmm(schedule, Format::Csr, "csrmm", &a, feat);
                check_row_spmm(schedule, Format::Ell, "ellmm", &a, feat);
            }
        }
    }
}

/// Row SpMM with its features cut into slices on blockIdx.y: slices that
/// the features fill or not (the last one partial), slices of one or
/// several chunks, with non-zeros through shared memory, and in hyb, whose
/// buckets then fuse into one launch of several slices.
#[test]
fn sliced_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for feat in [5, 12, 40] {
            for (rows, threads, vector, cache, slice) in
                [(2, 2, 4, 0, 8), (1, 4, 1, 0, 2), (3, 2, 2, 0, 12), (2, 4, 1, 4, 4), (1, 8, 4, 8, 32)]
            {
                let schedule = RowSpmm { rows, threads, vector, cache, slice, unroll: 0 };
                check_row_spmm(schedule, Format::Csr, "csrmm", &a, feat);
                check_row_spmm(schedule, Format::Ell, "ellmm", &a, feat);
                if cache > 0 {
                    continue;
                }
                check_hyb_row_spmm(
                    schedule,
                    Layout { col_parts: 2, bucket_exponent: 2, ..Layout::default() },
                    &a,
                    feat,
                );
            }
        }
    }
}

/// Row SpMM whose non-zero loop runs several non-zeros a step (LLVM's
/// runtime unrolling, the remainder after): factors that rows' lengths
/// are and are not multiples of, in csr, ell and hyb (where buckets
/// compiled for their widths unroll whole and generic ones by the factor).
#[test]
fn unrolled_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for feat in [5, 40] {
            for (rows, threads, vector, unroll) in [(2, 4, 1, 1), (1, 8, 4, 3), (4, 2, 2, 16), (2, 8, 1, 0)] {
                let schedule = RowSpmm { rows, threads, vector, unroll, ..RowSpmm::default() };
                check_row_spmm(schedule, Format::Csr, "csrmm", &a, feat);
                check_row_spmm(schedule, Format::Ell, "ellmm", &a, feat);
                check_hyb_row_spmm(
                    schedule,
                    Layout { col_parts: 1, bucket_exponent: 1, ..Layout::default() },
                    &a,
                    feat,
                );
            }
        }
    }
}

/// Non-zero-parallel SDDMM whose dot product runs in vectors: each lane's
/// products summed into the output once per vector.
#[test]
fn vectorized_sddmm() {
    for a in matrices() {
        for feat in [3, 4, 8, 13, 64] {
            check_with(
                Op::Sddmm,
                Format::Csr,
                "sparse-fuse{iteration=sddmm loops=0,1},",
                &format!("{SDDMM_ON_THREADS}sparse-pos-split{{loop=sddmm.1 factor=4}},sparse-pos-vectorize{{loop=sddmm.1.i}},"),
                &a,
                feat,
            );
        }
    }
}

/// SDDMM with each dot product on a row of lanes whose partial sums meet
/// in a warp shuffle, non-zero-parallel and row-wise (`gpu.subgroup_reduce`, emulated
/// through scratch memory): lane counts from 1 to a warp, scalar and
/// vector steps, features that fill the lanes, leave some idle, or do not
/// divide into vectors; blocks whose last rows fall past the non-zeros.
#[test]
fn warp_shuffled_sddmm() {
    use sptir_tools::schedules::{LaneSddmm, SddmmWalk::*};
    for a in matrices() {
        for feat in [1, 3, 8, 13, 64] {
            for (rows, threads, vector, walk) in [
                (8, 32, 1, NonZeros),
                (4, 8, 1, NonZeros),
                (16, 4, 4, NonZeros),
                (3, 1, 1, NonZeros),
                (8, 16, 4, NonZeros),
                (5, 2, 2, NonZeros),
                (4, 8, 4, Rows),
                (3, 32, 1, Rows),
                (1, 32, 1, NonZeros),
                (1, 8, 4, Rows),
                (4, 32, 4, RowNonZerosOnLanes),
                (3, 8, 1, RowNonZerosOnLanes),
                (2, 16, 2, RowNonZerosOnLanes),
            ] {
                let schedule = LaneSddmm { rows, threads, vector, walk };
                let mut problem = prepare(Op::Sddmm, Format::Csr, &a, feat, Layout::default(), 17).unwrap();
                check_each(
                    &mut problem,
                    &schedule.stage1().map(|s| format!("{s},")).unwrap_or_default(),
                    [&format!("{},", schedule.passes(None)), &format!("{},", schedule.passes(Some(feat)))],
                    feat,
                );
            }
        }
    }
}

/// A row's non-zeros on the lanes, shuffled, with its features walked in
/// turn inside each lane's non-zero (a loop, split chunks, unrolled steps
/// or unrolled whole):
/// `sink-shuffle-guards` moves the guard of the row's last chunk of
/// non-zeros inside the feature loops, so every lane reaches each shuffle.
#[test]
fn warp_shuffled_rows_with_features_in_turn() {
    let rows = "sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},\
                sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sparse-pos-split{loop=csrmm.1 factor=32},\
                sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true},";
    for a in matrices() {
        // At 32 features, as many as the lanes, the zeroing loop goes on
        // the lanes too (sparse-pos-auto-bind), before the lanes meet.
        for feat in [1, 8, 13, 32] {
            for features in [
                "",
                "sparse-pos-split{loop=csrmm.2 factor=4},",
                "sparse-pos-split{loop=csrmm.2 factor=3},sparse-pos-split{loop=csrmm.2.o factor=2},",
            ] {
                let schedule = format!("{rows}{features}");
                let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 23).unwrap();
                check_each(&mut problem, "", [&schedule, &schedule], feat);
            }
            // Unrolled, each copy of a step is one more accumulation, under
            // its own tail guard where 4 does not divide the features;
            // unrolled whole (compiled for the features), the lane guard's
            // own block holds them.
            let split = format!("{rows}sparse-pos-split{{loop=csrmm.2 factor=4}},sparse-pos-unroll{{loop=csrmm.2.i}},");
            let whole = format!("{rows}sparse-pos-unroll{{loop=csrmm.2}},");
            let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 23).unwrap();
            check_each(&mut problem, "", [&split, &whole], feat);
            // The chunk loop unrolled whole: sibling copies of the step loop
            // in the lane guard.
            let chunks =
                format!("{rows}sparse-pos-split{{loop=csrmm.2 factor=4}},sparse-pos-unroll{{loop=csrmm.2.o}},");
            let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 23).unwrap();
            check_each(&mut problem, "", [&format!("{rows}"), &chunks], feat);
        }
    }
}

/// A row's non-zeros split over threadIdx.y (a sequential loop around
/// them, with a barrier at the end of each step) and each dot product on
/// lanes that meet in a warp shuffle, under the guard of its y: the
/// emulation runs the reduction under that guard, per thread.
#[test]
fn warp_shuffles_under_a_row_guard() {
    for a in matrices() {
        for feat in [1, 7, 32] {
            for (rows, lanes) in [(2, 4), (3, 8), (4, 32)] {
                let schedule = format!(
                    "sparse-pos-split{{loop=sddmm.1 factor={rows}}},sparse-pos-bind{{loop=sddmm.1.i to=threadIdx.y}},\
                     sparse-pos-split{{loop=sddmm.2 factor={lanes}}},sparse-pos-bind{{loop=sddmm.2.i to=threadIdx.x shuffle=true}},"
                );
                check(Op::Sddmm, Format::Csr, &schedule, &a, feat);
            }
        }
    }
}

/// A stage II fuse feeding threads: ELL's slots times features as one
/// reduction loop, 16 positions per pass of a 16-thread block that adds
/// to C atomically (several threads hold terms of one output).
#[test]
fn fused_loops_on_threads() {
    for a in matrices() {
        for feat in [1, 5, 16] {
            check(
                Op::Spmm,
                Format::Ell,
                "sparse-pos-fuse{loops=ellmm.1,ellmm.2},sparse-pos-split{loop=ellmm.1+ellmm.2 factor=16},\
                 sparse-pos-reorder{loops=ellmm.1+ellmm.2.i,ellmm.1+ellmm.2.o},\
                 sparse-pos-split{loop=ellmm.init.1 factor=16},sparse-pos-bind{loop=ellmm.init.1.i to=threadIdx.x},\
                 sparse-pos-bind{loop=ellmm.1+ellmm.2.i to=threadIdx.x atomic=true},",
                &a,
                feat,
            );
        }
    }
}

/// Feature chunks of 4 on threads, each thread's chunk a vector: the
/// thread loop runs ceil(feat / 4) times, computed where the split was,
/// which the launch computes first. Left to the default schedule, the
/// chunks stay in their thread (the vector loop is no thread loop).
#[test]
fn vector_chunks_on_threads() {
    for a in matrices() {
        for feat in [1, 6, 13, 32] {
            check(
                Op::Spmm,
                Format::Csr,
                "sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-vectorize{loop=csrmm.2.i},\
                 sparse-pos-bind{loop=csrmm.2.o to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=4},\
                 sparse-pos-bind{loop=csrmm.init.1.o to=threadIdx.x},",
                &a,
                feat,
            );
            check(
                Op::Spmm,
                Format::Csr,
                "sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-vectorize{loop=csrmm.2.i},",
                &a,
                feat,
            );
            // Only the feature loop bound by hand: the default schedule
            // gives the init nest's feature loop the same threads.
            check(Op::Spmm, Format::Csr, "sparse-pos-bind{loop=csrmm.2 to=threadIdx.x},", &a, feat);
        }
    }
}

/// Unrolled feature chunks (SpMM) and dot-product chunks (SDDMM).
#[test]
fn unrolled_chunks() {
    for a in matrices() {
        for feat in [3, 8, 13] {
            check(
                Op::Spmm,
                Format::Csr,
                "sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-unroll{loop=csrmm.2.i},",
                &a,
                feat,
            );
            check_with(
                Op::Sddmm,
                Format::Csr,
                "sparse-fuse{iteration=sddmm loops=0,1},",
                &format!(
                    "{SDDMM_ON_THREADS}sparse-pos-split{{loop=sddmm.1 factor=4}},sparse-pos-unroll{{loop=sddmm.1.i}},"
                ),
                &a,
                feat,
            );
        }
    }
}

/// hyb SDDMM with each bucket row's dot products on lanes: one lane a
/// slot (no shuffle), or several joined by warp shuffles, in vectors or
/// not, the slot loop unrolled where the kernel knows the bucket widths;
/// COO (buckets of width 1 only), column partitions, long rows split.
#[test]
fn lane_hyb_sddmm() {
    use sptir_tools::schedules::{LaneSddmm, SddmmWalk};
    for a in matrices() {
        for (col_parts, bucket_exponent) in [(1, 0), (2, 1), (1, 4)] {
            for feat in [5, 8, 64] {
                for (rows, threads, vector) in [(8, 1, 4), (4, 4, 1), (2, 8, 2), (3, 32, 4)] {
                    let layout = Layout { col_parts, bucket_exponent, ..Layout::default() };
                    let mut problem = prepare(Op::Sddmm, Format::Hyb, &a, feat, layout, 17).unwrap();
                    let schedule = LaneSddmm { rows, threads, vector, walk: SddmmWalk::NonZeros };
                    let widths: Vec<usize> = problem.bucket_widths().to_vec();
                    let generic = schedule.hyb_passes(&vec![None; widths.len()], None);
                    let known: Vec<Option<usize>> = widths.iter().copied().map(Some).collect();
                    let specialized = schedule.hyb_passes(&known, Some(feat));
                    check_each(&mut problem, "", [&format!("{generic},"), &format!("{specialized},")], feat);
                }
            }
        }
    }
}

/// hyb SpMM under row schedules: every bucket adds to C atomically from
/// registers, and the buckets run as one fused launch, whatever the
/// column partitions and bucket widths (long rows split across ELL rows).
#[test]
fn fused_hyb_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for (col_parts, bucket_exponent) in [(1, 2), (2, 1), (3, 4)] {
            for feat in [5, 8, 64] {
                for (rows, threads, vector) in [(2, 2, 4), (1, 4, 1), (3, 8, 2)] {
                    let layout = Layout { col_parts, bucket_exponent, ..Layout::default() };
                    let mut problem = prepare(Op::Spmm, Format::Hyb, &a, feat, layout, 17).unwrap();
                    // Compiled for its bucket widths, the kernel unrolls
                    // the narrow buckets' non-zero loops.
                    let schedule = RowSpmm { rows, threads, vector, ..RowSpmm::default() };
                    let widths: Vec<usize> = problem.bucket_widths().to_vec();
                    let generic = schedule.hyb_passes(&vec![None; widths.len()], None, None);
                    let known: Vec<Option<usize>> = widths.iter().copied().map(Some).collect();
                    let specialized = schedule.hyb_passes(&known, None, Some(feat));
                    assert!(specialized.contains("sparse-pos-unroll"), "{specialized}");
                    check_each(&mut problem, "", [&format!("{generic},"), &format!("{specialized},")], feat);
                }
            }
        }
    }
}

/// Row SpMM with each row's non-zeros staged through shared memory: the
/// copy loop on the threads, barriers around the walk of each chunk, the
/// accumulators carried across the barriers (scratch memory per thread in
/// the emulation). Chunks longer than the block, rows longer than a chunk,
/// empty rows, features that do not fill the lanes.
#[test]
fn shared_memory_row_spmm() {
    use sptir_tools::schedules::RowSpmm;
    for a in matrices() {
        for feat in [1, 6, 16] {
            // Several rows a block cache their rows side by side: rows
            // inside a warp, or of two warps (named barriers).
            let each = [
                (1, 4, 1, 4),
                (1, 2, 2, 6),
                (1, 4, 4, 8),
                (1, 8, 1, 8),
                (3, 4, 1, 8),
                (4, 2, 2, 2),
                (2, 8, 4, 8),
                (3, 64, 2, 64),
            ];
            for (rows, threads, vector, cache) in each {
                let schedule = RowSpmm { rows, threads, vector, cache, ..RowSpmm::default() };
                for (format, label) in [(Format::Csr, "csrmm"), (Format::Ell, "ellmm")] {
                    check_row_spmm(schedule, format, label, &a, feat);
                }
            }
        }
    }
}

#[test]
fn default_schedule_on_a_maximum() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    for (m, n) in [(1, 1), (37, 23), (64, 1), (5, 200)] {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::COLUMN_MAXIMA, "column_maxima.mlir").unwrap();
        let pipeline = format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})");
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        let x = random_dense(n * m, (m * 1000 + n) as u64);
        let mut y = vec![f32::NAN; m];
        kernel
            .run(
                "colmax",
                &mut [KernelArg::Values(&x), KernelArg::Output(&mut y), KernelArg::Index(m), KernelArg::Index(n)],
            )
            .unwrap();
        assert_eq!(y, inputs::column_maxima(&x, m, n), "colmax {m} x {n}");
    }
}

/// A triangular solve: each row reads the rows solved before it, so the
/// default schedule keeps them in turn (fused or not) and the result is
/// the sequential one. Square matrices with empty rows and a hub column.
#[test]
fn default_schedule_on_a_triangular_solve() {
    use sptir_runtime::random_dense;
    let mut squares = vec![RmatSpec::parse("rmat:7:5:2").unwrap().generate().unwrap()];
    squares.push(Csr::new(4, 4, vec![0, 0, 1, 1, 4], vec![0, 0, 1, 2], vec![1.0; 4]).unwrap());
    for (seed, a) in squares.iter_mut().enumerate() {
        randomize_values(a, 80 + seed as u64);
        let l = inputs::strict_lower_triangle(a);
        for fuse in ["", "sparse-fuse{iteration=solve loops=0,1},"] {
            let pipeline = format!("builtin.module({fuse}lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})");
            let context = create_context();
            let mut module =
                sptir_dialects::parse_module(&context, inputs::TRIANGULAR_SOLVE, "triangular_solve.mlir").unwrap();
            run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
            let kernel = CpuKernel::compile(&module, 2).unwrap();
            let b = random_dense(l.rows(), 90 + seed as u64);
            let mut x = b.clone();
            kernel.run("trsv", &mut inputs::triangular_solve_args(&l, &mut x)).unwrap();
            let error = relative_error(&x, &inputs::triangular_solve(&l, &b));
            assert!(error < 1e-5, "{pipeline} on {} rows: relative error {error}", l.rows());
        }
    }
}

/// Repeated propagation, X[t + 1] = A X[t]: each step reads the whole
/// row the step before wrote, so the steps run in turn, a launch each,
/// and the rows of a step over blocks and threads. Square matrices with
/// empty rows and a hub; every row of X but the first is poisoned.
#[test]
fn default_schedule_on_repeated_propagation() {
    let mut squares = vec![RmatSpec::parse("rmat:7:5:3").unwrap().generate().unwrap()];
    squares.push(Csr::new(4, 4, vec![0, 0, 4, 5, 5], vec![0, 1, 2, 3, 1], vec![1.0; 5]).unwrap());
    let pipeline = format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})");
    let context = create_context();
    let mut module = sptir_dialects::parse_module(&context, inputs::PROPAGATE, "propagate.mlir").unwrap();
    run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
    let kernel = CpuKernel::compile(&module, 2).unwrap();
    for (seed, a) in squares.iter_mut().enumerate() {
        randomize_values(a, 60 + seed as u64);
        for steps in [0, 1, 3] {
            let n = a.rows();
            let mut x = vec![f32::NAN; (steps + 1) * n];
            x[..n].copy_from_slice(&sptir_runtime::random_dense(n, 70 + seed as u64));
            let expected = inputs::propagate(a, &x, steps);
            kernel.run("propagate", &mut inputs::propagate_args(a, &mut x, steps)).unwrap();
            let error = relative_error(&x, &expected);
            assert!(error < 1e-5, "{steps} steps on {n} rows: relative error {error}");
        }
    }
}

/// The warp-per-row CSR reduction: each row's non-zeros split over lanes
/// that meet in a warp shuffle, the row's length read from indptr (so the
/// split's tail guard differs between rows), rows on blocks or on
/// threadIdx.y. Empty rows, a hub row and rows shorter than the lanes.
#[test]
fn warp_shuffled_row_sums() {
    use sptir_runtime::cpu::KernelArg;
    let mut hub = Csr::new(3, 200, vec![0, 0, 200, 201], (0..200).chain([7]).collect(), vec![1.0; 201]).unwrap();
    randomize_values(&mut hub, 71);
    let mut all = matrices();
    all.push(hub);
    for a in &all {
        for (rows, lanes) in [(1, 4), (1, 32), (3, 8), (2, 32)] {
            let row_schedule = if rows == 1 {
                String::new()
            } else {
                format!(
                    "sparse-pos-split{{loop=rsum.0 factor={rows}}},sparse-pos-bind{{loop=rsum.0.i to=threadIdx.y}},"
                )
            };
            let pipeline = format!(
                "builtin.module(lower-sparse-iter,{row_schedule}sparse-pos-split{{loop=rsum.1 factor={lanes}}},\
                 sparse-pos-bind{{loop=rsum.1.i to=threadIdx.x shuffle=true}},sparse-pos-auto-bind,{GPU_LOWERING})"
            );
            let context = create_context();
            let mut module = sptir_dialects::parse_module(&context, inputs::ROW_SUMS, "row_sums.mlir").unwrap();
            run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
            let kernel = CpuKernel::compile(&module, 2).unwrap();
            let mut z = vec![f32::NAN; a.rows()];
            kernel
                .run(
                    "rowsum",
                    &mut [
                        KernelArg::Ids(a.indptr()),
                        KernelArg::Ids(a.indices()),
                        KernelArg::Values(a.values()),
                        KernelArg::Output(&mut z),
                        KernelArg::Index(a.rows()),
                        KernelArg::Index(a.cols()),
                        KernelArg::Index(a.nnz()),
                    ],
                )
                .unwrap();
            let error = relative_error(&z, &inputs::row_sums(a));
            assert!(error < 1e-5, "{pipeline} on {} rows: relative error {error}", a.rows());
        }
    }
}

/// Values read once outside every iteration (a scale and an offset,
/// with arithmetic on them) that the kernels use: on the GPU path
/// sink-host-reads moves the reads into the launches, under the default
/// schedule and lanes that meet in a shuffle (one row or three a block);
/// the CPU path reads them once.
#[test]
fn reads_outside_the_iteration() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    let pipelines = [
        "builtin.module(sptir-to-cpu)".to_string(),
        format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})"),
        format!(
            "builtin.module(lower-sparse-iter,sparse-pos-split{{loop=scaled.1 factor=8}},\
             sparse-pos-bind{{loop=scaled.1.i to=threadIdx.x shuffle=true}},sparse-pos-auto-bind,{GPU_LOWERING})"
        ),
        format!(
            "builtin.module(lower-sparse-iter,sparse-pos-split{{loop=scaled.0 factor=3}},\
             sparse-pos-bind{{loop=scaled.0.i to=threadIdx.y}},sparse-pos-split{{loop=scaled.1 factor=32}},\
             sparse-pos-bind{{loop=scaled.1.i to=threadIdx.x shuffle=true}},sparse-pos-auto-bind,{GPU_LOWERING})"
        ),
    ];
    for pipeline in &pipelines {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::SCALED_ROWS, "scaled_rows.mlir").unwrap();
        run_pipeline(&context, &mut module, pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        for a in matrices() {
            let x = random_dense(a.cols(), 5);
            let s = [-1.5, 0.25];
            let mut y = vec![f32::NAN; a.rows()];
            kernel
                .run(
                    "scaled",
                    &mut [
                        KernelArg::Ids(a.indptr()),
                        KernelArg::Ids(a.indices()),
                        KernelArg::Values(a.values()),
                        KernelArg::Values(&x),
                        KernelArg::Values(&s),
                        KernelArg::Output(&mut y),
                        KernelArg::Index(a.rows()),
                        KernelArg::Index(a.cols()),
                        KernelArg::Index(a.nnz()),
                        KernelArg::Index(s.len()),
                    ],
                )
                .unwrap();
            let error = relative_error(&y, &inputs::scaled_rows(&a, &x, &s));
            assert!(error < 1e-5, "{pipeline} on {} rows: relative error {error}", a.rows());
        }
    }
}

/// Row maxima and minima (of all values, of the positive ones under a guard
/// the data decides, and of both signs in the two branches of one) split over lanes that meet in a warp shuffle
/// (each lane starts from the reduction's identity, not zero; a lane past
/// the row's end contributes the identity), under the same schedules as
/// the row sums, and over blocks that update the rows atomically (a CAS
/// loop for the float maximum). Empty rows, a hub row, rows shorter than
/// the lanes, and values of both signs.
#[test]
fn shuffled_and_atomic_row_extrema() {
    let mut hub = Csr::new(3, 200, vec![0, 0, 200, 201], (0..200).chain([7]).collect(), vec![1.0; 201]).unwrap();
    randomize_values(&mut hub, 72);
    let mut all = matrices();
    all.push(hub);
    // `rowpos` updates under a guard the data decides (positive values),
    // `rowsign` in both of its branches.
    let mut schedules: Vec<(&str, String)> = [(1, 4), (1, 32), (3, 8), (2, 32)]
        .into_iter()
        .flat_map(|(rows, lanes)| {
            [("rowext", "rext", rows, lanes), ("rowpos", "rpos", rows, lanes), ("rowsign", "rsign", rows, lanes)]
        })
        .map(|(function, label, rows, lanes)| {
            let row_schedule = match rows {
                1 => String::new(),
                _ => format!(
                    "sparse-pos-split{{loop={label}.0 factor={rows}}},sparse-pos-bind{{loop={label}.0.i to=threadIdx.y}},"
                ),
            };
            let schedule = format!(
                "{row_schedule}sparse-pos-split{{loop={label}.1 factor={lanes}}},\
                 sparse-pos-bind{{loop={label}.1.i to=threadIdx.x shuffle=true}},"
            );
            (function, schedule)
        })
        .collect();
    // A row a block, its non-zeros over 32 threads that update the row
    // atomically once the init's launch has set it.
    schedules.push((
        "rowext_atomic",
        "sparse-pos-bind{loop=rx.0 to=blockIdx.x},sparse-pos-split{loop=rx.1 factor=32},\
         sparse-pos-bind{loop=rx.1.i to=threadIdx.x atomic=true},"
            .to_string(),
    ));
    for (function, schedule) in &schedules {
        let pipeline = format!("builtin.module(lower-sparse-iter,{schedule}sparse-pos-auto-bind,{GPU_LOWERING})");
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::ROW_EXTREMA, "row_extrema.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        for a in &all {
            let mut top = vec![f32::NAN; a.rows()];
            let mut bottom = vec![-7; a.rows()];
            kernel.run(function, &mut inputs::row_extrema_args(a, &mut top, &mut bottom)).unwrap();
            let expected = inputs::row_extrema_of(function, a);
            assert_eq!((top, bottom), expected, "{pipeline} on {} rows", a.rows());
        }
    }
}

/// Accumulation into a computed coordinate that may fall outside its
/// buffer (C[i, k + 1]) on the CPU, under the default GPU schedule and
/// with CSC's columns on blocks that add atomically: C's first column and
/// the features past its width stay as they were.
#[test]
fn atomic_sums_into_shifted_columns() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    let pipelines = [
        "builtin.module(sptir-to-cpu)".to_string(),
        format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})"),
        format!(
            "builtin.module(lower-sparse-iter,sparse-pos-bind{{loop=shifted.0 to=blockIdx.x atomic=true}},\
             sparse-pos-auto-bind,{GPU_LOWERING})"
        ),
        // A tile of each column's non-zeros, on columns that add into C
        // atomically: the tile is each block's, its copy plain.
        format!(
            "builtin.module(lower-sparse-iter,sparse-pos-split{{loop=shifted.1 factor=4}},\
             sparse-pos-cache-read{{loop=shifted.1.i}},sparse-pos-auto-bind,{GPU_LOWERING})"
        ),
    ];
    for pipeline in &pipelines {
        let context = create_context();
        let mut module =
            sptir_dialects::parse_module(&context, inputs::SHIFTED_CSC_SPMM, "shifted_csc_spmm.mlir").unwrap();
        run_pipeline(&context, &mut module, pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        for a in matrices() {
            for (feat, w) in [(1, 1), (4, 3), (7, 9)] {
                let (n, m) = (a.rows(), a.cols());
                let b = random_dense(n * feat, 3);
                let before = random_dense(m * w, 4);
                let mut c = before.clone();
                kernel
                    .run(
                        "shifted",
                        &mut [
                            KernelArg::Ids(a.indptr()),
                            KernelArg::Ids(a.indices()),
                            KernelArg::Values(a.values()),
                            KernelArg::Values(&b),
                            KernelArg::Output(&mut c),
                            KernelArg::Index(m),
                            KernelArg::Index(n),
                            KernelArg::Index(a.nnz()),
                            KernelArg::Index(feat),
                            KernelArg::Index(w),
                        ],
                    )
                    .unwrap();
                let error = relative_error(&c, &inputs::shifted_csc_spmm(&a, &b, &before, feat, w));
                assert!(error < 1e-5, "{pipeline}: feat {feat} w {w}: relative error {error}");
            }
        }
    }
}

#[test]
fn math_functions_on_the_cpu_and_emulated() {
    use sptir_runtime::{cpu::KernelArg, random_dense};
    for pipeline in [
        "builtin.module(sptir-to-cpu)".to_string(),
        format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})"),
    ] {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::MATH_FUNCTIONS, "math_functions.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        let n = 1000;
        let x: Vec<f32> = random_dense(n, 5).iter().map(|v| v * 4.0).collect();
        let mut y = vec![f32::NAN; n];
        kernel.run("math", &mut [KernelArg::Values(&x), KernelArg::Output(&mut y), KernelArg::Index(n)]).unwrap();
        let expected: Vec<f64> = x.iter().map(|&v| inputs::math_functions(v)).collect();
        let error = relative_error(&y, &expected);
        assert!(error < 1e-6, "{pipeline}: relative error {error}");
    }
}

/// fpowi with negative exponents whose results are denormal floats (x^-n
/// is 1 / x^n, and x^n overflows f32 first), and others, against f64:
/// within an ulp, denormals included.
#[test]
fn integer_powers_on_the_cpu_and_emulated() {
    use sptir_runtime::cpu::KernelArg;
    let source = "func.func @powers(%x: memref<?xf32>, %e: memref<?xi32>, %y: memref<?xf32>, %n: index) {
      %I = sparse_iter.dense_fixed %n
      %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
      %E = sparse_iter.match_buffer %e [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
      %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
      sparse_iter.iterate \"p\" [%I] \"S\" body {
      ^bb0(%i: index):
        %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
        %k = sparse_iter.load %E[%i] : !sparse_iter.buffer<1, i32>
        %p = math.fpowi %v, %k : f32, i32
        sparse_iter.store %p, %Y[%i] : !sparse_iter.buffer<1, f32>
      }
      return
    }";
    let cases: [(f32, i32); 10] = [
        (1024.0, -14),
        (2.0, -149),
        (0.5, 140),
        (3.0, -5),
        (-2.0, -3),
        (10.0, 38),
        (-0.75, 7),
        (1.5, 0),
        (7.0, -40),
        (1e-3, -12),
    ];
    let (x, e): (Vec<f32>, Vec<i32>) = cases.iter().copied().unzip();
    for pipeline in [
        "builtin.module(sptir-to-cpu)".to_string(),
        format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})"),
    ] {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, source, "powers.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        let mut y = vec![f32::NAN; x.len()];
        let args =
            &mut [KernelArg::Values(&x), KernelArg::Ids(&e), KernelArg::Output(&mut y), KernelArg::Index(x.len())];
        kernel.run("powers", args).unwrap();
        for ((&v, &k), &got) in x.iter().zip(&e).zip(&y) {
            let want = (v as f64).powi(k) as f32;
            let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
            assert!(ulps <= 1, "{pipeline}: {v}^{k} = {got:e}, want {want:e}");
        }
    }
}

#[test]
fn roundings_on_the_cpu_and_emulated() {
    for pipeline in [
        "builtin.module(sptir-to-cpu)".to_string(),
        format!("builtin.module(lower-sparse-iter,sparse-pos-auto-bind,{GPU_LOWERING})"),
    ] {
        let context = create_context();
        let mut module = sptir_dialects::parse_module(&context, inputs::ROUNDINGS, "roundings.mlir").unwrap();
        run_pipeline(&context, &mut module, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let kernel = CpuKernel::compile(&module, 2).unwrap();
        inputs::check_roundings(|args| kernel.run("roundings", args).unwrap());
    }
}

/// A warp-wide reduction (no cluster) over blocks whose last warp is
/// partial, and a cluster wider than the block: each lane adds only the
/// lanes that exist, where the emulation once read past its scratch slots.
#[test]
fn subgroup_reductions_over_partial_warps() {
    use sptir_runtime::cpu::KernelArg;
    let source = "func.func @sums(%out: memref<?xf32>, %x: memref<?xf32>, %n: index) {
      %c1 = arith.constant 1 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
        %v = memref.load %x[%tx] : memref<?xf32>
        %s = gpu.subgroup_reduce add %v : (f32) -> f32
        memref.store %s, %out[%tx] : memref<?xf32>
        gpu.terminator
      }
      return
    }
    func.func @wide(%out: memref<?xf32>, %x: memref<?xf32>) {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %v = memref.load %x[%tx] : memref<?xf32>
        %s = gpu.subgroup_reduce add %v cluster(size = 8) : (f32) -> f32
        memref.store %s, %out[%tx] : memref<?xf32>
        gpu.terminator
      }
      return
    }";
    let context = create_context();
    let mut module = sptir_dialects::parse_module(&context, source, "sums.mlir").unwrap();
    run_pipeline(&context, &mut module, "builtin.module(serialize-launches,sptir-stage3-to-llvm)").unwrap();
    let kernel = CpuKernel::compile(&module, 2).unwrap();
    for n in [1, 4, 32, 40, 70] {
        let x: Vec<f32> = (1..=n).map(|k| k as f32).collect();
        let mut out = vec![f32::NAN; n];
        kernel.run("sums", &mut [KernelArg::Output(&mut out), KernelArg::Values(&x), KernelArg::Index(n)]).unwrap();
        let expected: Vec<f32> = (0..n).map(|t| x[t / 32 * 32..n.min(t / 32 * 32 + 32)].iter().sum()).collect();
        assert_eq!(out, expected, "{n} threads");
    }
    let x = [1.0, 2.0, 3.0, 4.0];
    let mut out = vec![f32::NAN; 4];
    kernel.run("wide", &mut [KernelArg::Output(&mut out), KernelArg::Values(&x)]).unwrap();
    assert_eq!(out, vec![10.0; 4]);
}

/// A split factor far above the loop's size, whose inner part the default
/// schedule spreads over threads: the sequential loop over the threads'
/// steps stops where the positions end (`clamp-guarded-loops`), instead of
/// running 2^24 empty steps a row (it ran for minutes).
#[test]
fn huge_split_factors_under_threads() {
    let a = RmatSpec::parse("rmat:6:4:1").unwrap().generate().unwrap();
    check(Op::Sddmm, Format::Csr, "sparse-pos-split{loop=sddmm.1 factor=4294967296},", &a, 7);
    check(Op::Spmm, Format::Csr, "sparse-pos-split{loop=csrmm.1 factor=4294967296},", &a, 7);
}
