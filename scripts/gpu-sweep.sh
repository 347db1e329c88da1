#!/usr/bin/env bash
# Labelled schedule sweeps on the lent GPU machine, for choosing defaults:
#   xz -dkf build-gpu/sptir-bench.xz && scripts/gpu-sweep.sh build-gpu/sptir-bench GRAPHS_DIR OUT_DIR
# Each run's JSON line gains a "label"; only the run labelled "default"
# runs cuSPARSE, in the same call, so that
#   python3 scripts/perf-table.py --sweep OUT_DIR/spmm.jsonl
# prints every label as a speedup over it. Questions asked (docs/perf.md):
# - SpMM: feature slices on blockIdx.y (--row-spmm R,T,V,0,SLICE) against
#   the default row schedule, in csr and hyb, where B outgrows L2;
# - SDDMM: hyb's bucket rows on lanes (COO at --bucket-exp 0, or buckets
#   up to 4, 16, 32 wide; one lane a bucket row or eight), and csr rows
#   with their non-zeros on 32 or 8 lanes (--sddmm R,T,4,2), against csr's
#   non-zero-parallel default;
# - SpMM in csr: a row's non-zeros 1, 4 or 16 a step (UNROLL of
#   --row-spmm) against the default's 8, on graphs with and without hubs;
# - timing: how much of the session-23 figures (--timing launch: events
#   around launches on an idle GPU) was the host's submission, against the
#   GPU's work alone (--timing queued, the default), each with cuSPARSE
#   timed the same way (timing.jsonl: read the speedups of each label).
# Sections run in that order of need: timing, SDDMM, SpMM slices, UNROLL.
# Every run has its own time limit; a run that fails or is wrong is in
# OUT_DIR/sweep.err or carries "verified":false.
set -uo pipefail
bench=${1:?usage: gpu-sweep.sh SPTIR_BENCH GRAPHS_DIR OUT_DIR}
graphs=${2:?usage: gpu-sweep.sh SPTIR_BENCH GRAPHS_DIR OUT_DIR}
out=${3:?usage: gpu-sweep.sh SPTIR_BENCH GRAPHS_DIR OUT_DIR}
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
mkdir -p "$out"
matrix() { case $1 in rmat*) echo "$1" ;; *) echo "$graphs/$1.mtx.gz" ;; esac; }
run() {
  local label=$1
  shift
  timeout -k 5 90 "$bench" "$@" --device cuda --reps 20 --json 2>>"$out/sweep.err" |
    sed "s/^{/{\"label\":\"$label\",/"
}

start=$SECONDS
for m in cora pubmed ogbn-arxiv; do
  M=$(matrix $m)
  for timing in launch queued; do
    for op in spmm sddmm; do
      run "$timing" --op $op --matrix "$M" --feat 32,512 --baseline cusparse --timing $timing
    done
  done
done > "$out/timing.jsonl"
echo "timing: $((SECONDS - start)) s"

start=$SECONDS
for m in bcsstk25 ppi-graphsaint ogbn-arxiv rmat:17:16:0; do
  M=$(matrix $m)
  F=32,64,128,256,512
  run default --op sddmm --matrix "$M" --feat $F --baseline cusparse
  for k in 0 2 4 5; do
    run "hyb-k$k" --op sddmm --format hyb --bucket-exp $k --matrix "$M" --feat $F
  done
  # Eight lanes a bucket row: each load instruction of a warp touches four
  # rows of Y instead of 32, at the cost of three shuffles a slot.
  for k in 0 4; do
    run "hyb-k$k-lanes8" --op sddmm --format hyb --bucket-exp $k --matrix "$M" --feat $F --sddmm 16,8,4
  done
  # A row's non-zeros on the lanes, each lane a whole dot product: no
  # binary search, no shuffle; short rows leave lanes idle.
  run row-lanes32 --op sddmm --matrix "$M" --feat $F --sddmm 4,32,4,2
  run row-lanes8 --op sddmm --matrix "$M" --feat $F --sddmm 16,8,4,2
done > "$out/sddmm.jsonl"
echo "sddmm sweep: $((SECONDS - start)) s"

start=$SECONDS
for m in ogbn-arxiv ogbn-arxiv-sym email-Enron rmat:17:16:0; do
  M=$(matrix $m)
  F=128,256,512
  run default --op spmm --matrix "$M" --feat $F --baseline cusparse
  for slice in 32 64 128; do
    threads=$((slice / 4))
    run "slice$slice" --op spmm --matrix "$M" --feat $F --row-spmm $((128 / threads)),$threads,4,0,$slice
  done
  run hyb --op spmm --format hyb --matrix "$M" --feat $F
  for slice in 32 128; do
    threads=$((slice / 4))
    run "hyb-slice$slice" --op spmm --format hyb --matrix "$M" --feat $F \
      --row-spmm $((128 / threads)),$threads,4,0,$slice
  done
done > "$out/spmm.jsonl"
echo "spmm sweep: $((SECONDS - start)) s"


start=$SECONDS
for m in cora pubmed ogbn-arxiv USA-road-d.NY-recon rmat:17:16:0; do
  M=$(matrix $m)
  # The default row schedule at each feature size (RowSpmm::for_features).
  for fs in 32:16,8,4 128:4,32,4 512:1,128,4; do
    feat=${fs%%:*} rtv=${fs#*:}
    run default --op spmm --matrix "$M" --feat "$feat" --baseline cusparse
    for unroll in 1 4 16; do
      run "unroll$unroll" --op spmm --matrix "$M" --feat "$feat" --row-spmm "$rtv,0,0,$unroll"
    done
  done
done > "$out/spmm-unroll.jsonl"
echo "spmm unroll sweep: $((SECONDS - start)) s"


status=0
if grep -q '"verified":false' "$out"/*.jsonl; then status=1; fi
grep -c '"verified":true' "$out"/*.jsonl
exit $status
