#!/usr/bin/env bash
# GPU checks for the lent GPU machine, which has no Rust or LLVM: build
# here with `cargo build --release -p sptir-tools --bins` and carry
# target/release/sptir-bench (compressed: xz -T0 -k). There, run
#   scripts/gpu-check.sh path/to/sptir-bench [graphs folder]
# It runs SpMM and SDDMM in every format at feat 32 and 128 on the GPU,
# verified against the float64 reference, and prints one JSON line each;
# it fails if any result is wrong.
set -uo pipefail
bench=${1:?usage: gpu-check.sh SPTIR_BENCH [GRAPHS_DIR]}
graphs=${2:-$(dirname "$0")/../data/graphs}
status=0
for graph in "$graphs"/*.mtx.gz rmat:17:16:0; do
  for op in spmm sddmm; do
    for format in csr ell bsr hyb; do
      "$bench" --op "$op" --format "$format" --matrix "$graph" --feat 32,128 --device cuda --reps 20 --json || status=1
    done
  done
done
exit $status
