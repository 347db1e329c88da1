// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=8 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i})' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-cache-read{loop=csrmm.1.i})' | FileCheck %s --check-prefix=GUARDED
// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-cache-read{loop=l})' | FileCheck %s --check-prefix=BRANCHES
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-cache-read{loop=csrmm.1})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-cache-read{loop=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-bind{loop=csrmm.1.i to=threadIdx.x atomic=true},sparse-pos-cache-read{loop=csrmm.1.i})' 2>&1 | FileCheck %s --check-prefix=BOUND

// CSR SpMM, non-zeros in chunks of at most eight: the column indices and
// values of a chunk go to two tiles at the function entry, copied by a
// loop of eight positions (those past the row's end skipped); the chunk
// loop reads the tiles. B (indexed by the inner feature loop) and C
// (written) are not cached.
//       CHECK: func.func @csr_spmm
//  CHECK-NEXT: %[[COLS:.*]] = memref.alloca() {sptir.shared} : memref<8xi32>
//  CHECK-NEXT: %[[VALS:.*]] = memref.alloca() {sptir.shared} : memref<8xf32>
//       CHECK: sparse_pos.for "csrmm.1.o" reduction
//       CHECK: %[[START:.*]] = arith.muli %{{.*}}, %c8
//       CHECK: %[[LEFT:.*]] = arith.minui %c8, %{{.*}}
//       CHECK: sparse_pos.for "csrmm.1.i.cache" spatial %{{.*}} to %{{.*}} {
//  CHECK-NEXT: ^bb0(%[[SLOT:.*]]: index):
//  CHECK-NEXT: %[[P:.*]] = arith.addi %{{.*}}, %[[SLOT]]
//  CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[P]], %[[LEFT]]
//  CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[START]], %[[P]]
//  CHECK-NEXT: %[[POS:.*]] = arith.addi %{{.*}}, %[[OFF]]
//  CHECK-NEXT: scf.if %[[IN]] {
//  CHECK-NEXT: %[[COL:.*]] = sparse_pos.load %{{.*}}[%{{.*}}, %[[POS]]] : <2, i32>
//  CHECK-NEXT: memref.store %[[COL]], %[[COLS]][%[[SLOT]]]
//  CHECK-NEXT: %[[VAL:.*]] = sparse_pos.load %{{.*}}[%{{.*}}, %[[POS]]] : <2, f32>
//  CHECK-NEXT: memref.store %[[VAL]], %[[VALS]][%[[SLOT]]]
//       CHECK: sparse_pos.for "csrmm.1.i" reduction %{{.*}} to %[[LEFT]] {
//  CHECK-NEXT: ^bb0(%[[I:.*]]: index):
//       CHECK: %[[AT:.*]] = arith.subi %[[I]], %{{.*}}
//  CHECK-NEXT: memref.load %[[COLS]][%[[AT]]]
//       CHECK: sparse_pos.for "csrmm.2"
//       CHECK: memref.load %[[VALS]]
//   CHECK-NOT: sparse_pos.load %{{.*}}[%{{.*}}, %{{.*}}] : <2, i32>

// A guarded split: the tail guard is copied; the feature guard around the
// value's load depends on the feature loop, so the copy speculates it.
//     GUARDED: sparse_pos.for "csrmm.1.i.cache"
//     GUARDED: %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}}
//     GUARDED: scf.if %[[OK]] {
//     GUARDED: sparse_pos.load {{.*}} : <2, i32>
//     GUARDED: sparse_pos.load {{.*}} : <2, f32>
//     GUARDED: sparse_pos.for "csrmm.1.i" reduction

// TRIP: sparse-pos-cache-read: loop "csrmm.1" must run at most a constant number of times
// MISSING: sparse-pos-cache-read: no sparse_pos.for labelled "nope"
// BOUND: sparse-pos-cache-read: loop "csrmm.1.i" is bound to a GPU dimension

// Loads in both branches of a guard on the position: the else branch's
// copy runs under the negated condition; the inner guard on an outside
// flag is copied too.
// BRANCHES: sparse_pos.for "l.cache"
// BRANCHES: %[[LOW:.*]] = arith.cmpi ult
// BRANCHES: %[[BOTH:.*]] = arith.andi %[[LOW]], %arg3
// BRANCHES: scf.if %[[BOTH]]
// BRANCHES: %[[NOT:.*]] = arith.xori %[[LOW]], %true
// BRANCHES: %[[J:.*]] = arith.subi
// BRANCHES: scf.if %[[NOT]]
// BRANCHES-NEXT: sparse_pos.load %{{.*}}[%[[J]]]
// BRANCHES: sparse_pos.for "l" spatial
// BRANCHES-NOT: sparse_pos.load
func.func @branches(%a: memref<?xf32>, %out: memref<?xf32>, %n: index, %flag: i1) {
  %ax = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a[%ax] : memref<?xf32> -> <1, f32>
  %O = sparse_iter.match_buffer %out[%ax] : memref<?xf32> -> <1, f32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  sparse_pos.for "l" spatial %c0 to %c4 {
  ^bb0(%i: index):
    %low = arith.cmpi ult, %i, %c2 : index
    scf.if %low {
      scf.if %flag {
        %v = sparse_pos.load %A[%i] : <1, f32>
        sparse_pos.store %v, %O[%i] : <1, f32>
      }
    } else {
      %j = arith.subi %i, %c2 : index
      %w = sparse_pos.load %A[%j] : <1, f32>
      sparse_pos.store %w, %O[%i] : <1, f32>
    }
  }
  return
}
