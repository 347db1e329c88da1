// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-vectorize{loop=csrmm.2.i})' | FileCheck %s
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-vectorize{loop=csrmm.2})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=3},sparse-pos-vectorize{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=4},sparse-pos-vectorize{loop=csrmm.1.i})' 2>&1 | FileCheck %s --check-prefix=NESTED1
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-vectorize{loop=csrmm.0.i})' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-vectorize{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-vectorize{loop=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4 clamp=true},sparse-pos-vectorize{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=CLAMPED
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x shuffle=true},sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-vectorize{loop=csrmm.2.i},sptir-stage2-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SHUFFLED

// The loop of four features is marked; the rewrite waits for stage III.
//      CHECK: sparse_pos.for "csrmm.2.i" spatial %{{.*}} to %c4 attributes {vectorize = 4 : index} {
//      CHECK: sparse_pos.store

// TRIP: sparse-pos-vectorize: loop "csrmm.2{{.*}}" must have a constant trip count of 2 or 4 (split it first with sparse-pos-split)
// NESTED1: sparse-pos-vectorize: loop "csrmm.1.i" holds another loop; only innermost loops are vectorized
// NESTED: sparse-pos-vectorize: loop "csrmm.0.i" holds another loop; only innermost loops are vectorized
// BOUND: sparse-pos-vectorize: loop "csrmm.2.i" is bound to a GPU dimension
// MISSING: sparse-pos-vectorize: no sparse_pos.for labelled "nope"

// CLAMPED: sparse-pos-vectorize: loop "csrmm.2.i" must have a constant trip count of 2 or 4 (it is the inner loop of a clamp=true split, which runs min(factor, what is left) positions: split without clamp=true, whose guard keeps the trip count constant)

// The lanes of a row's non-zeros add each feature in a warp shuffle, which
// moves scalars: the feature loop inside them cannot store vectors.
// SHUFFLED: error: vectorize-loops: loop "csrmm.2.i" cannot run as vectors of 4: its 'memref.store' here cannot (the lanes of a warp shuffle (shuffle=true) add what it stores, and a shuffle moves 32-bit scalars, not vectors; unroll it (sparse-pos-unroll) instead)
