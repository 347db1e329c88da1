#!/usr/bin/env bash
# The performance tables of docs/perf.md, measured on the lent GPU machine
# (no Rust or LLVM there: pack sptir-bench with scripts/gpu-package.sh and
# carry build-gpu/ and a folder of graphs):
#   xz -dkf build-gpu/sptir-bench.xz && scripts/gpu-perf.sh build-gpu/sptir-bench GRAPHS_DIR OUT.jsonl
# SpMM and SDDMM on every graph plus rmat:17:16:0 and rmat:18:64:0, at
# feat 32 to 512, in csr and hyb (SpMM also hyb --hyb-exclusive) with the
# GPU default schedules, each
# verified against the float64 reference and timed beside cuSPARSE in the
# same process. One JSON line per run goes to OUT.jsonl; then
#   python3 scripts/perf-table.py OUT.jsonl
# prints the tables. Fails if any result is wrong.
# OUT.jsonl is kept and its verified runs by this same build of sptir-bench
# (the "build" of each line: the commit) are not measured again, so a call
# that ran out of device time resumes in the next one (carry the file back);
# lines of other builds stay in the file but count for nothing.
set -uo pipefail
bench=${1:?usage: gpu-perf.sh SPTIR_BENCH GRAPHS_DIR OUT.jsonl}
graphs=${2:?usage: gpu-perf.sh SPTIR_BENCH GRAPHS_DIR OUT.jsonl}
out=${3:?usage: gpu-perf.sh SPTIR_BENCH GRAPHS_DIR OUT.jsonl}
for lib in /usr/local/cuda*/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
touch "$out"
build=$("$bench" --version | sed -n 's/.*(\(.*\))$/\1/p')
[ -n "$build" ] || { echo "gpu-perf.sh: $bench --version names no build" >&2; exit 1; }
# The feature sizes that OUT.jsonl has no verified run of by this build
# (with --hyb-exclusive or without, as `exclusive` says: yes or no).
missing() {
  local op=$1 format=$2 name=$3 exclusive=$4 feat todo= found
  for feat in 32 64 128 256 512; do
    found=$(grep "\"op\":\"$op\",\"format\":\"$format\",\"matrix\":\"$name\",.*\"feat\":$feat,.*\"verified\":true,.*\"build\":\"$build\"" "$out")
    if [ "$exclusive" = yes ]; then
      found=$(grep '"hyb_exclusive":true' <<<"$found")
    else
      found=$(grep -v '"hyb_exclusive":true' <<<"$found")
    fi
    [ -n "$found" ] || todo=${todo:+$todo,}$feat
  done
  echo "$todo"
}
status=0
for graph in "$graphs"/*.mtx.gz rmat:17:16:0 rmat:18:64:0; do
  name=$(basename "$graph" .mtx.gz)
  for op in spmm sddmm; do
    # SpMM in hyb also with --hyb-exclusive (buckets that own their rows
    # store them); the table takes the fastest of each row.
    variants="csr:no hyb:no"
    [ "$op" = spmm ] && variants="$variants hyb:yes"
    for variant in $variants; do
      format=${variant%:*} exclusive=${variant#*:}
      feats=$(missing "$op" "$format" "$name" "$exclusive")
      [ -z "$feats" ] && continue
      flags=()
      [ "$exclusive" = yes ] && flags=(--hyb-exclusive)
      "$bench" --op "$op" --format "$format" "${flags[@]}" --matrix "$graph" --feat "$feats" \
        --device cuda --baseline cusparse --reps 20 --json >> "$out" || status=1
    done
  done
done
grep -c "\"verified\":true,.*\"build\":\"$build\"" "$out"
# grep -c reads to the end: a grep -q that stopped early would kill the
# first grep, and pipefail would then hide a failed run.
if [ "$(grep "\"build\":\"$build\"" "$out" | grep -c '"verified":false')" != 0 ]; then status=1; fi
exit $status
