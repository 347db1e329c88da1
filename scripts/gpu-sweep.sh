#!/usr/bin/env bash
# Labelled schedule sweeps on the lent GPU machine, for choosing defaults:
#   xz -dkf build-gpu/sptir-bench.xz && scripts/gpu-sweep.sh build-gpu/sptir-bench GRAPHS_DIR OUT_DIR
# Each run's JSON line gains a "label"; only the run labelled "default"
# runs cuSPARSE, in the same call, so that
#   python3 scripts/perf-table.py --sweep OUT_DIR/spmm64.jsonl
# prints every label as a speedup over it. Questions asked (docs/perf.md,
# session 30; the session-30 sweeps that set today's defaults are in
# docs/perf-data/2026-11-24-h100/):
# - SpMM at 64 features took 2.6 to 3.9 times its time at 32 on the larger
#   graphs (1.3 times for cuSPARSE): which shape of a row (lanes, vector,
#   rows a warp, non-zeros a step) does better there, in csr and hyb, and
#   at 128. The suspect (session 32): on graphs whose rows are short the
#   kernel waits on each non-zero's chain of loads, and the default halves
#   the rows a warp walks at once with each doubling of the features
#   (16 rows of 8 lanes at 32, 8 of 16 at 64, 4 of 32 at 128), so the
#   warps double while each still waits as long; 16 rows of 8 lanes
#   walking 2 or 4 chunks each keeps the rows a warp and adds loads in
#   flight instead;
# - hyb SpMM at 32 features: its widest bucket no longer walks 8 non-zeros
#   a step (rows share a warp), measured only in csr: against 8 again;
# - feature slices, the default where B outgrows L2 from 256 features:
#   against the unsliced shapes on graphs near that line and on a road
#   graph, where B's rows are gathered with locality;
# - csr SpMM with a row's columns and values staged in shared memory
#   (CACHE), where both formats trail cuSPARSE (pubmed, power-law graphs,
#   128 features and up): a warp loads 32 non-zeros at once, and their
#   gathers of B no longer wait on one column load each (short rows run
#   the unrolled loop's remainder, one non-zero a step).
# - hyb SpMM with --hyb-exclusive (buckets that own their rows store them:
#   no zeroing, no atomics; session 31) beside hyb in the 64-feature and
#   slice questions (gpu-perf.sh runs it for the whole table).
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
for m in luxembourg_osm USA-road-d.NY-recon pubmed email-Enron ogbn-arxiv; do
  M=$(matrix $m)
  run default --op spmm --matrix "$M" --feat 64,128 --baseline cusparse
  # R,T,V[,CACHE,SLICE,UNROLL]: 8 rows of 16 lanes is the default at 64,
  # 4 rows of 32 at 128.
  # 16,8,4,0,32: 16 rows of 8 lanes on feature slices of 32 (blockIdx.y),
  # for the L2 (session 34, from the session-30 table): csr's 64/32 time
  # is 3.9 on luxembourg_osm and 2.6 on USA-road, whose B at 64 features
  # (29 and 68 MB) outgrows an L2 partition, and about 1.0 where B is
  # under 10 MB; hyb's is 2.3 to 2.9 everywhere, so its row shape is the
  # suspect there.
  for shape in 8,16,4,0,0,8 16,8,4 4,16,4 4,32,2 2,32,4 16,8,4,0,32; do
    run "row$shape" --op spmm --matrix "$M" --feat 64,128 --row-spmm $shape
  done
  run hyb --op spmm --format hyb --matrix "$M" --feat 64,128
  run hyb-x --op spmm --format hyb --hyb-exclusive --matrix "$M" --feat 64,128
  for shape in 16,8,4 4,32,2 16,8,4,0,32; do
    run "hyb-row$shape" --op spmm --format hyb --matrix "$M" --feat 64,128 --row-spmm $shape
    run "hyb-x-row$shape" --op spmm --format hyb --hyb-exclusive --matrix "$M" --feat 64,128 --row-spmm $shape
  done
done > "$out/spmm64.jsonl"
echo "spmm 64 sweep: $((SECONDS - start)) s"

start=$SECONDS
for m in cora pubmed email-Enron ogbn-arxiv; do
  M=$(matrix $m)
  run default --op spmm --format hyb --matrix "$M" --feat 32 --baseline cusparse
  run hyb-unroll8 --op spmm --format hyb --matrix "$M" --feat 32 --row-spmm 16,8,4,0,0,8
done > "$out/hyb32.jsonl"
echo "hyb 32 sweep: $((SECONDS - start)) s"

start=$SECONDS
for m in USA-road-d.NY-recon ppi-graphsaint email-Enron musae-github; do
  M=$(matrix $m)
  run default --op spmm --matrix "$M" --feat 256,512 --baseline cusparse
  run hyb-default --op spmm --format hyb --matrix "$M" --feat 256,512
  run hyb-x-default --op spmm --format hyb --hyb-exclusive --matrix "$M" --feat 256,512
  for format in csr hyb; do
    run "$format-unsliced" --op spmm --format $format --matrix "$M" --feat 256 --row-spmm 2,64,4
    run "$format-unsliced" --op spmm --format $format --matrix "$M" --feat 512 --row-spmm 1,128,4
    run "$format-slice128" --op spmm --format $format --matrix "$M" --feat 256,512 --row-spmm 4,32,4,0,128
  done
done > "$out/slices.jsonl"
echo "slice sweep: $((SECONDS - start)) s"

start=$SECONDS
for m in pubmed email-Enron musae-github ogbn-arxiv; do
  M=$(matrix $m)
  run default --op spmm --matrix "$M" --feat 128,512 --baseline cusparse
  run hyb --op spmm --format hyb --matrix "$M" --feat 128,512
  for shape in 4,32,4,32 1,32,4,32 2,64,4,64; do
    run "cache$shape" --op spmm --matrix "$M" --feat 128,512 --row-spmm $shape
  done
done > "$out/cache.jsonl"
echo "cache sweep: $((SECONDS - start)) s"

status=0
if grep -q '"verified":false' "$out"/*.jsonl; then status=1; fi
grep -c '"verified":true' "$out"/*.jsonl
exit $status
