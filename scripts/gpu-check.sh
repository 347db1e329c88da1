#!/usr/bin/env bash
# GPU checks for the lent GPU machine, which has no Rust or LLVM: pack
# sptir-bench here with scripts/gpu-package.sh, carry build-gpu/, and run
#   xz -dkf build-gpu/sptir-bench.xz && scripts/gpu-check.sh build-gpu/sptir-bench [graphs folder]
# It runs SpMM and SDDMM in every format at feat 32 and 128 on the GPU,
# hyb SpMM with --hyb-exclusive, a two-term sum shuffled, and SpMM in csr
# under row schedules with shared-memory caching (block barriers,
# workgroup memory) and SDDMM under warp-shuffle schedules,
# verified against the float64 reference,
# beside cuSPARSE in the same process, and prints one JSON line each; it
# fails if any result is wrong.
set -uo pipefail
bench=${1:?usage: gpu-check.sh SPTIR_BENCH [GRAPHS_DIR]}
graphs=${2:-$(dirname "$0")/../data/graphs}
# cuSPARSE lives in the CUDA toolkit, outside the default library path.
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
status=0
for graph in "$graphs"/*.mtx.gz rmat:17:16:0; do
  for op in spmm sddmm; do
    for format in csr ell bsr hyb; do
      "$bench" --op "$op" --format "$format" --matrix "$graph" --feat 32,128 --device cuda --baseline cusparse --reps 20 --json || status=1
    done
  done
  # Column partitions: rows shared between partitions add atomically
  # (red.global.add.v4.f32 where the features are aligned).
  "$bench" --op spmm --format hyb --col-parts 2 --matrix "$graph" --feat 32,36,128 --device cuda --baseline cusparse --reps 20 --json || status=1
  # Buckets that own their rows store them; the rest are zeroed and added
  # to atomically (--hyb-exclusive), also with slices and generic.
  "$bench" --op spmm --format hyb --hyb-exclusive --matrix "$graph" --feat 32,36,128,512 --device cuda --baseline cusparse --reps 20 --json || status=1
  "$bench" --op spmm --format hyb --hyb-exclusive --bucket-exp 2 --matrix "$graph" --feat 64 --row-spmm 4,32,4,0,32 --device cuda --reps 20 --json || status=1
  "$bench" --op spmm --format hyb --hyb-exclusive --matrix "$graph" --feat 33 --generic --device cuda --reps 20 --json || status=1
  # A sum of two terms into the output, its row's lanes meeting in a shuffle.
  "$bench" --op spmm --matrix "$graph" --feat 32,7 --kernel "$(dirname "$0")/../tools/tests/inputs/two_term_spmm.mlir" \
    --schedule 'sparse-pos-reorder{loops=csrmm.1,csrmm.2},sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x}' \
    --device cuda --reps 5 --json || status=1
  # Kernels compiled for any feature size (the default is built for each).
  for op in spmm sddmm; do
    "$bench" --op "$op" --format csr --matrix "$graph" --feat 32,33 --generic --device cuda --baseline cusparse --reps 20 --json || status=1
    "$bench" --op "$op" --format hyb --matrix "$graph" --feat 33 --generic --device cuda --reps 20 --json || status=1
  done
  # SDDMM with each non-zero on a row of lanes that meet in warp shuffles
  # (non-zero-parallel, then row-wise).
  for sddmm in 32,8,4 16,16,1 8,32,4 3,8,1 8,32,4,1 4,8,1,1; do
    "$bench" --op sddmm --format csr --matrix "$graph" --feat 32,128 --sddmm "$sddmm" --device cuda --baseline cusparse --reps 20 --json || status=1
  done
  # A warp shuffle into a buffer the program allocates.
  "$bench" --op sddmm --matrix "$graph" --feat 32,7 --kernel "$(dirname "$0")/../tools/tests/inputs/sddmm_staged.mlir" \
    --schedule 'sparse-pos-split{loop=sddmm.2 factor=4},sparse-pos-bind{loop=sddmm.2.i to=threadIdx.x shuffle=true}' \
    --device cuda --reps 5 --json || status=1
  # Shared-memory caching: a row a block, or several rows each with its
  # own tile, meeting at warp barriers (bar.warp.sync) or, for rows of
  # whole warps, at named barriers (bar.sync id, count).
  for row_spmm in 1,32,1,32 1,32,4,64 1,64,2,64 4,32,4,32 8,32,1,32 8,8,4,16 2,64,4,64 4,128,1,128; do
    "$bench" --op spmm --format csr --matrix "$graph" --feat 32,128 --row-spmm "$row_spmm" --device cuda --baseline cusparse --reps 20 --json || status=1
  done
done
exit $status
