#!/usr/bin/env bash
# The main job: compile a sparse kernel through all stages and run it on a
# bundled real matrix (cora), on the GPU if there is one, else on the CPU,
# verified against a float64 reference. Does its own set-up. Extra
# arguments go to sptir-bench (e.g. --feat 128).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --quiet -p sptir-tools --bins
bin=target/debug

echo "== Stage I: CSR SpMM in sparse_iter (examples/csr_spmm.mlir)"
$bin/sptir-opt examples/csr_spmm.mlir
echo
echo "== Stage II: position-space loops (lower-sparse-iter)"
$bin/sptir-opt examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)'
echo
echo "== Stage III: scf/memref/arith (sptir-to-stage3)"
$bin/sptir-opt examples/csr_spmm.mlir --sptir-to-stage3
echo
echo "== Stage I to PTX (sptir-to-gpu, default schedule), the kernel's entry"
# Whole outputs into variables first: a grep that stops reading early
# would kill the writer (SIGPIPE), which pipefail reports as a failure.
ptx=$($bin/sptir-bench --op spmm --format csr --matrix data/graphs/cora.mtx.gz --emit ptx)
grep -m1 -A3 '.entry' <<<"$ptx"
echo
# On the GPU when the CUDA driver is there, else on the CPU JIT.
device=cpu
libraries=$(ldconfig -p 2>/dev/null || true)
if grep -q 'libcuda.so.1' <<<"$libraries"; then device=cuda; fi
echo "== Run on cora ($device), checked against the float64 reference"
for op in spmm sddmm; do
  $bin/sptir-bench --op "$op" --format csr --matrix data/graphs/cora.mtx.gz --feat 32 --device "$device" "$@"
done
