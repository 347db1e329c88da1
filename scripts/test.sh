#!/usr/bin/env bash
# Runs every sptir test: cargo's unit, snapshot and integration tests, then
# the lit (FileCheck) tests. Does its own set-up first. The last line sums
# both: "total: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1
export PATH="$HOME/.cargo/bin:$PATH"

cargo build --workspace --all-targets || exit 1

log=$(mktemp)
cargo test --workspace -- --show-output 2>&1 | tee "$log"
cargo_status=${PIPESTATUS[0]}
cargo_passed=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
cargo_failed=$(grep -Eo '[0-9]+ failed;' "$log" | awk '{s += $1} END {print s + 0}')

echo
echo "lit tests (test/):"
/usr/lib/llvm-22/bin/lit -sv test | tee "$log"
lit_status=${PIPESTATUS[0]}
lit_passed=$(grep -Eo 'Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' | head -1)
lit_failed=$(grep -Eo 'Failed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' | head -1)
rm -f "$log"

passed=$((cargo_passed + ${lit_passed:-0}))
failed=$((cargo_failed + ${lit_failed:-0}))
if [ "$cargo_status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$lit_status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo
echo "total: $passed passed, $failed failed"
[ "$cargo_status" -eq 0 ] && [ "$lit_status" -eq 0 ]
