// The value ranges of pad-grid-loops on bounds built from unsigned
// division, unsigned minima, a negative start, a host value of i32 and
// shared subexpressions. Each program runs emulated (its main prints the
// output) and must match what the loop without padding computes.
// RUN: sptir-opt %S/Inputs/pad_grid_loops/divui.mlir -p 'builtin.module(sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s --check-prefix=DIVUI
// RUN: sptir-opt %S/Inputs/pad_grid_loops/minui.mlir -p 'builtin.module(sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s --check-prefix=MINUI
// RUN: sptir-opt %S/Inputs/pad_grid_loops/neglb.mlir -p 'builtin.module(sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s --check-prefix=NEGLB
// RUN: sptir-opt %S/Inputs/pad_grid_loops/i32_host.mlir -p 'builtin.module(pad-grid-loops)' | FileCheck %s --check-prefix=I32
// RUN: sptir-opt %S/Inputs/pad_grid_loops/shared_terms.mlir -p 'builtin.module(pad-grid-loops)' | FileCheck %s --check-prefix=SHARED

// lb = (ip[1] - ip[0]) / 2 = 2: the lower bound of a difference may be
// negative, and divui of it would be huge (no block would run).
// DIVUI: [0,  0,  1,  1,  1,  1]
// minui with a possibly negative lower bound likewise.
// MINUI: [1,  1,  1,  1,  1,  1]
// A start below 0 (ip[0] - 2): the guard compares signed.
// NEGLB: [1,  1,  1,  1,  1,  1]
// An i32 host value enters the range as an index.
// I32: arith.index_cast %arg4 : i32 to index
// I32: sparse_pos.for
// Sixteen doublings of one term: each value's range is built once.
// SHARED: sparse_pos.for
