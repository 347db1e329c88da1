// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4})' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4 clamp=true})' | FileCheck %s --check-prefix=CLAMP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4 clamp=maybe})' 2>&1 | FileCheck %s --check-prefix=BADCLAMP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=nope factor=2})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sparse-pos-split{loop=csrmm.0 factor=2})' 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: not sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=4},sparse-pos-vectorize{loop=cscmm.2.i},sparse-pos-split{loop=cscmm.2.i factor=2})' 2>&1 | FileCheck %s --check-prefix=MARKED

// Rows in chunks of four: the outer loop counts chunks, the inner one has
// a fixed extent, and the body runs only for rows that exist. A range
// whose upper bound is below its lower one has no chunks.
//      CHECK: %[[C4:.*]] = arith.constant 4 : index
//      CHECK: %[[LEN:.*]] = arith.subi %arg5, %[[LB:.*]] : index
//      CHECK: %[[ROWS:.*]] = arith.maxsi %[[LEN]], %{{.*}} : index
//      CHECK: %[[CHUNKS:.*]] = arith.ceildivui %[[ROWS]], %[[C4]] : index
//      CHECK: sparse_pos.for "csrmm.0.o" spatial %{{.*}} to %[[CHUNKS]] {
// CHECK-NEXT: ^bb0(%[[CHUNK:.*]]: index):
//      CHECK: sparse_pos.for "csrmm.0.i" spatial %{{.*}} to %[[C4]] {
// CHECK-NEXT: ^bb0(%[[OFF:.*]]: index):
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[CHUNK]], %[[C4]]
// CHECK-NEXT: %[[IN:.*]] = arith.addi %[[SCALED]], %[[OFF]]
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[LB]], %[[IN]]
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi ult, %[[ROW]], %arg5
// CHECK-NEXT: scf.if %[[OK]] {
//      CHECK: sparse_pos.for "csrmm.init.1"
//      CHECK: sparse_pos.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}]
//  CHECK-NOT: sparse_pos.for "csrmm.0" spatial

// Clamped: the inner loop stops at the rows left, no guard.
//      CLAMP: %[[LEN:.*]] = arith.subi %arg5, %[[LB:.*]] : index
//      CLAMP: %[[ROWS:.*]] = arith.maxsi %[[LEN]], %{{.*}} : index
//      CLAMP: sparse_pos.for "csrmm.0.o" spatial %{{.*}} to %{{.*}} {
// CLAMP-NEXT: ^bb0(%[[CHUNK:.*]]: index):
// CLAMP-NEXT: %[[START:.*]] = arith.muli %[[CHUNK]], %[[C4:.*]] : index
// CLAMP-NEXT: %[[LEFT:.*]] = arith.subi %[[ROWS]], %[[START]] : index
// CLAMP-NEXT: %[[N:.*]] = arith.minui %[[C4]], %[[LEFT]] : index
// CLAMP-NEXT: sparse_pos.for "csrmm.0.i" spatial %{{.*}} to %[[N]] {
// CLAMP-NEXT: ^bb0(%[[OFF:.*]]: index):
// CLAMP-NEXT: %[[IN:.*]] = arith.addi %[[START]], %[[OFF]]
// CLAMP-NEXT: %[[ROW:.*]] = arith.addi %[[LB]], %[[IN]]
//  CLAMP-NOT: scf.if
//      CLAMP: sparse_pos.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}]

// BADCLAMP: option 'clamp' of pass 'sparse-pos-split' must be true or false, got 'maybe'
// ZERO: option 'factor' of pass 'sparse-pos-split' must be a positive integer, got '0'
// Options have no source position: the error points at the kernel.
// MISSING: csr_spmm.mlir:3:1: error: sparse-pos-split: no sparse_pos.for labelled "nope"; the labels are "csrmm.0", "csrmm.init.1", "csrmm.1", "csrmm.2"
// BOUND: sparse-pos-split: loop "csrmm.0" is already bound; split before binding
// A loop marked to vectorize is 2 or 4 lanes: halves of it would not be.
// MARKED: csc_spmm.mlir:27:3: error: sparse-pos-split: loop "cscmm.2.i" is marked to vectorize; split before marking it
