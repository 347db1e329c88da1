#!/usr/bin/env bash
# Session 30, first device call: sanity, then the labelled sweeps
# (gpu-sweep.sh: timing, SDDMM, SpMM slices, UNROLL) to choose defaults.
set -u
cd "$(dirname "$0")/../../.."
xz -dkf build-gpu/sptir-bench.xz
B=build-gpu/sptir-bench
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
{ nvidia-smi; nproc; } > $OUT/smi.txt 2>&1
head -12 $OUT/smi.txt
{
for op in spmm sddmm; do for f in csr hyb; do
  timeout -k 5 60 $B --op $op --format $f --matrix data/graphs/cora.mtx.gz --feat 32,128 --device cuda --baseline cusparse --reps 20 --json; echo "exit $?"
done; done
} > $OUT/sanity.txt 2>&1
cat $OUT/sanity.txt
if ! grep -q '"verified":true' $OUT/sanity.txt; then echo "SANITY FAILED"; exit 1; fi
T0=$SECONDS
timeout -k 5 ${SWEEP_S:-500} scripts/gpu-sweep.sh $B gpu-graphs $OUT/sweep; echo "sweep exit $? in $((SECONDS-T0)) s"
tail -c 1500 $OUT/sweep/sweep.err
