#!/usr/bin/env bash
# Session 23, second device call: labelled schedule sweeps, rest of the perf table.
set -u
cd "$(dirname "$0")/.."
xz -dkf build-gpu/sptir-bench.xz
B=build-gpu/sptir-bench
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
g() { case $1 in rmat*) echo $1;; *) echo gpu-graphs/$1.mtx.gz;; esac; }
run() { local label=$1; shift; timeout -k 5 60 $B "$@" --device cuda --reps 20 --json 2>>$OUT/sweep.err | sed "s/^{/{\"label\":\"$label\",/"; }
FUSED='sparse-pos-split{loop=sddmm.0 factor=T},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},sparse-pos-bind{loop=sddmm.0.i to=threadIdx.x},sparse-pos-split{loop=sddmm.1 factor=4},sparse-pos-vectorize{loop=sddmm.1.i}'
T0=$SECONDS
for m in ogbn-arxiv ppi-graphsaint bcsstk25 rmat:17:16:0; do
  M=$(g $m); F=32,64,128,256,512
  run default --op sddmm --matrix $M --feat $F --baseline cusparse
  for T in 128 256; do run fused$T --op sddmm --matrix $M --feat $F --stage1 'sparse-fuse{iteration=sddmm loops=0,1}' --schedule "${FUSED//factor=T/factor=$T}"; done
  for t in 4 8 16 32; do run lane$((256/t)),$t,4 --op sddmm --matrix $M --feat $F --sddmm $((256/t)),$t,4; done
  for t in 8 32; do run rowwise$((128/t)),$t,4 --op sddmm --matrix $M --feat $F --sddmm $((128/t)),$t,4,1; done
done > $OUT/sddmm.jsonl
echo "sddmm sweep $((SECONDS-T0)) s"
T0=$SECONDS
for m in ogbn-arxiv-sym email-Enron pubmed ogbn-arxiv; do
  M=$(g $m); F=32,128,512
  run default --op spmm --matrix $M --feat $F --baseline cusparse
  for r in 16,8,4 8,16,4 4,32,4 2,32,4 8,32,4 1,32,4,32 1,128,4 2,64,4; do run row$r --op spmm --matrix $M --feat $F --row-spmm $r; done
  run hyb --op spmm --format hyb --matrix $M --feat $F
  run hyb-c2 --op spmm --format hyb --col-parts 2 --matrix $M --feat $F
  run hyb-k5 --op spmm --format hyb --bucket-exp 5 --matrix $M --feat $F
  run hyb-4,32,4 --op spmm --format hyb --row-spmm 4,32,4 --matrix $M --feat $F
done > $OUT/spmm.jsonl
echo "spmm sweep $((SECONDS-T0)) s"
T0=$SECONDS
mkdir -p rest && ln -sf ../gpu-graphs/USA-road-d.NY-recon.mtx.gz rest/
timeout -k 5 250 scripts/gpu-perf.sh $B rest $OUT/perf-rest.jsonl > $OUT/perf-rest.log 2>&1
echo "perf rest $((SECONDS-T0)) s"
python3 scripts/perf-table.py $OUT/perf-rest.jsonl
grep -c '"verified":false' $OUT/*.jsonl; tail -c 1500 $OUT/sweep.err
