// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-unroll{loop=csrmm.2.i})' | FileCheck %s --check-prefix=MARK
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-unroll{loop=csrmm.2.i},lower-sparse-buffer,unroll-loops,canonicalize)' | FileCheck %s
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.2})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=128},sparse-pos-unroll{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=64},lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-unroll{loop=csrmm.2.o})' | FileCheck %s --check-prefix=COMPUTED
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=1040},lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-unroll{loop=csrmm.2.o})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4 clamp=true},sparse-pos-unroll{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=CLAMPED

// MARK: sparse_pos.for "csrmm.2.i" spatial %{{.*}} to %c4 attributes {unroll} {

// Compiled for 64 features, the chunk loop of a split by 16 runs
// ceildiv(64 - 0, 16) = 4 times, which the schedule can tell before
// anything folds.
// COMPUTED: %[[N:.*]] = arith.ceildivui
// COMPUTED: sparse_pos.for "csrmm.2.o" spatial %{{.*}} to %[[N]] attributes {unroll} {

// Four copies of the guarded body, one per feature of the chunk, and no
// loop over them.
//     CHECK: %[[CHUNKS:.*]] = arith.ceildivui
//     CHECK: scf.for %{{.*}} = %{{.*}} to %[[CHUNKS]] step %{{.*}} {
// CHECK-NOT: scf.for
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
// CHECK-NOT: memref.store

// TRIP: sparse-pos-unroll: loop "csrmm.2{{.*}}" must have a constant trip count between 1 and 64 (split it first with sparse-pos-split)
// MISSING: sparse-pos-unroll: no sparse_pos.for labelled "nope"

// CLAMPED: sparse-pos-unroll: loop "csrmm.2.i" must have a constant trip count between 1 and 64 (it is the inner loop of a clamp=true split, which runs min(factor, what is left) positions: split without clamp=true, whose guard keeps the trip count constant)
