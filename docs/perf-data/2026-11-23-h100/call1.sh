#!/usr/bin/env bash
# Session 23, first device call: sanity, perf table, a tune sample, checks.
set -u
cd "$(dirname "$0")/.."
xz -dkf build-gpu/sptir-bench.xz
B=build-gpu/sptir-bench
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
{ nvidia-smi; echo "LD=$LD_LIBRARY_PATH"; ls /usr/local/ | head; ls /usr/local/cuda*/targets/x86_64-linux/lib 2>/dev/null | grep -i cusparse; nproc; } > $OUT/smi.txt 2>&1
head -15 $OUT/smi.txt
{
for op in spmm sddmm; do for f in csr hyb; do
  timeout -k 5 60 $B --op $op --format $f --matrix data/graphs/cora.mtx.gz --feat 32,128 --device cuda --baseline cusparse --reps 20 --json; echo "exit $?"
done; done
} > $OUT/sanity.txt 2>&1
cat $OUT/sanity.txt
if ! grep -q '"verified":true' $OUT/sanity.txt; then echo "SANITY FAILED"; exit 1; fi
T0=$SECONDS
timeout -k 5 300 scripts/gpu-perf.sh $B gpu-graphs $OUT/perf.jsonl > $OUT/perf.log 2>&1; echo "perf exit $? in $((SECONDS-T0)) s"
python3 scripts/perf-table.py $OUT/perf.jsonl | grep -i "geometric"
grep -c '"verified":false' $OUT/perf.jsonl
T0=$SECONDS
timeout -k 5 150 scripts/gpu-check.sh $B data/graphs > $OUT/check.jsonl 2> $OUT/check.err; echo "check exit $? in $((SECONDS-T0)) s"
grep -c '"verified":true' $OUT/check.jsonl; grep -c '"verified":false' $OUT/check.jsonl; tail -c 1500 $OUT/check.err
T0=$SECONDS
{
for g in gpu-graphs/pubmed.mtx.gz gpu-graphs/ogbn-arxiv.mtx.gz rmat:17:16:0; do for op in spmm sddmm; do
  timeout -k 5 45 $B --op $op --matrix $g --feat 32,256 --device cuda --baseline cusparse --reps 10 --tune --json
done; done
} > $OUT/tune.jsonl 2> $OUT/tune.err; echo "tune in $((SECONDS-T0)) s"
grep "best for" $OUT/tune.err
