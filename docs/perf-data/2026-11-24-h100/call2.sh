#!/usr/bin/env bash
# Session 30, second device call: the SpMM sweeps that call 1 did not
# reach (feature slices on email-Enron and rmat:17:16:0; non-zeros a step
# on small graphs), then the perf table (resumable) with the new hyb SDDMM
# defaults.
set -u
cd "$(dirname "$0")/../../.."
xz -dkf build-gpu/sptir-bench.xz
B=build-gpu/sptir-bench
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
g() { case $1 in rmat*) echo $1;; *) echo gpu-graphs/$1.mtx.gz;; esac; }
run() { local label=$1; shift; timeout -k 5 60 $B "$@" --device cuda --reps 20 --json 2>>$OUT/sweep2.err | sed "s/^{/{\"label\":\"$label\",/"; }
T0=$SECONDS
for m in email-Enron rmat:17:16:0; do
  M=$(g $m); F=128,256,512
  run default --op spmm --matrix $M --feat $F --baseline cusparse
  run slice64 --op spmm --matrix $M --feat $F --row-spmm 8,16,4,0,64
  run slice128 --op spmm --matrix $M --feat $F --row-spmm 4,32,4,0,128
  run hyb --op spmm --format hyb --matrix $M --feat $F
  run hyb-slice128 --op spmm --format hyb --matrix $M --feat $F --row-spmm 4,32,4,0,128
done > $OUT/spmm2.jsonl
for m in cora pubmed citeseer; do
  M=$(g $m)
  for fs in 32:16,8,4 512:1,128,4; do
    feat=${fs%%:*} rtv=${fs#*:}
    run default --op spmm --matrix $M --feat $feat --baseline cusparse
    for u in 1 4; do run unroll$u --op spmm --matrix $M --feat $feat --row-spmm $rtv,0,0,$u; done
    run hyb --op spmm --format hyb --matrix $M --feat $feat
  done
done >> $OUT/spmm2.jsonl
echo "sweeps $((SECONDS-T0)) s"
T0=$SECONDS
cp docs/perf-data/2026-11-24-h100/perf.jsonl $OUT/perf.jsonl 2>/dev/null
timeout -k 5 $((540 - SECONDS)) scripts/gpu-perf.sh $B gpu-graphs $OUT/perf.jsonl > $OUT/perf.log 2>&1; echo "perf exit $? in $((SECONDS-T0)) s"
grep -c '"verified":true' $OUT/perf.jsonl; grep -c '"verified":false' $OUT/perf.jsonl; tail -c 1000 $OUT/perf.log; tail -c 600 $OUT/sweep2.err
