#!/usr/bin/env bash
# Installs what sptir needs on Debian 12 (as root): LLVM/MLIR 22, CMake,
# Ninja, the C libraries MLIR links, and a Rust toolchain. Idempotent: when
# everything is there it only checks, quietly.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libpolly-22-dev
          libclang-22-dev clang-22 cmake ninja-build libzstd-dev libxml2-dev
          libz3-dev zlib1g-dev)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # LLVM 22 comes from Debian 12's security archive.
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: installing the Rust toolchain with rustup"
  apt-get install -y -qq curl ca-certificates >/dev/null
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal >/dev/null
  export PATH="$HOME/.cargo/bin:$PATH"
fi

for tool in /usr/lib/llvm-22/bin/mlir-tblgen /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/lit; do
  [ -x "$tool" ] || { echo "setup: $tool is missing after installation" >&2; exit 1; }
done
