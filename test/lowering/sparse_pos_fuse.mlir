// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-fuse{loops=csrmm.1,csrmm.2})' | FileCheck %s
// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-fuse{loops=a,b})' | FileCheck %s --check-prefix=RECT
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-fuse{loops=b,a})' 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-fuse{loops=a,nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-fuse{loops=a})' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-bind{loop=b to=threadIdx.x},sparse-pos-fuse{loops=a,b})' 2>&1 | FileCheck %s --check-prefix=BOUND

// The non-zeros of a row times its features, as one reduction loop: the
// row's length times the feature count positions, each split back into a
// non-zero (quotient) and a feature (remainder).
//      CHECK: sparse_pos.for "csrmm.0" spatial
//      CHECK: %[[LEN:.*]] = arith.subi %{{.*}}, %{{.*}} : index
//      CHECK: %[[FEATS:.*]] = arith.subi %arg8, %[[C0:.*]] : index
//      CHECK: %[[FEAT:.*]] = arith.maxsi %[[FEATS]], %{{.*}} : index
//      CHECK: %[[NNZS:.*]] = arith.subi %[[LEN]], %{{.*}} : index
//      CHECK: %[[NNZ:.*]] = arith.maxsi %[[NNZS]], %{{.*}} : index
//      CHECK: %[[TOTAL:.*]] = arith.muli %[[NNZ]], %[[FEAT]] : index
//      CHECK: sparse_pos.for "csrmm.1+csrmm.2" reduction %{{.*}} to %[[TOTAL]] {
// CHECK-NEXT: ^bb0(%[[P:.*]]: index):
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[P]], %[[FEAT]] : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %{{.*}}, %[[Q]] : index
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[P]], %[[FEAT]] : index
// CHECK-NEXT: %[[K:.*]] = arith.addi %{{.*}}, %[[R]] : index
// The column read between the loops moves into the fused body.
// CHECK-NEXT: %[[COL:.*]] = sparse_pos.load %{{.*}}[%{{.*}}, %[[J]]] : <2, i32>
// CHECK-NEXT: %[[COLX:.*]] = arith.index_cast %[[COL]]
//      CHECK: sparse_pos.load %{{.*}}[%[[COLX]], %[[K]]] : <2, f32>
//      CHECK: sparse_pos.store
//  CHECK-NOT: sparse_pos.for "csrmm.2"

// Lower bounds other than zero, and what the inner bounds need computed
// between the loops moves in front of both.
//      RECT: %[[HI:.*]] = arith.addi %arg0, %arg0 : index
//      RECT: %[[INS:.*]] = arith.subi %[[HI]], %c2 : index
//      RECT: %[[IN:.*]] = arith.maxsi %[[INS]], %{{.*}} : index
//      RECT: %[[OUTS:.*]] = arith.subi %arg0, %c1 : index
//      RECT: %[[OUT:.*]] = arith.maxsi %[[OUTS]], %{{.*}} : index
//      RECT: %[[N:.*]] = arith.muli %[[OUT]], %[[IN]] : index
//      RECT: sparse_pos.for "a+b" spatial %{{.*}} to %[[N]] {
// RECT-NEXT: ^bb0(%[[P:.*]]: index):
// RECT-NEXT: %[[Q:.*]] = arith.divui %[[P]], %[[IN]] : index
// RECT-NEXT: %[[I:.*]] = arith.addi %c1, %[[Q]] : index
// RECT-NEXT: %[[R:.*]] = arith.remui %[[P]], %[[IN]] : index
// RECT-NEXT: %[[J:.*]] = arith.addi %c2, %[[R]] : index
// RECT-NEXT: %[[S:.*]] = arith.addi %[[I]], %[[J]] : index
// RECT-NEXT: sparse_pos.store %{{.*}}, %arg1[%[[S]]]

// ORDER: sparse-pos-fuse: loop "a" is not directly inside loop "b"
// MISSING: sparse-pos-fuse: no sparse_pos.for labelled "nope"
// ONE: sparse-pos-fuse: loops must name two loops, got 'a'
// BOUND: sparse-pos-fuse: loop "b" is already scheduled; fuse before binding or marking it
func.func @rectangle(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "a" spatial %c1 to %n {
  ^bb0(%i: index):
    %hi = arith.addi %n, %n : index
    sparse_pos.for "b" spatial %c2 to %hi {
    ^bb0(%j: index):
      %s = arith.addi %i, %j : index
      sparse_pos.store %f, %out[%s] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
