#!/usr/bin/env bash
# Packs sptir-bench for the lent GPU machine (no Rust, no LLVM there):
# a stripped release build, xz-compressed to about 32 MB, in build-gpu/.
# Carry build-gpu to the device and run there:
#   xz -dkf build-gpu/sptir-bench.xz && scripts/gpu-check.sh build-gpu/sptir-bench
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --quiet --release -p sptir-tools --bins
mkdir -p build-gpu
cp target/release/sptir-bench build-gpu/sptir-bench
strip build-gpu/sptir-bench
xz -T0 -f -6 build-gpu/sptir-bench
ls -la build-gpu/sptir-bench.xz
