// RUN: sptir-opt %s -p 'builtin.module(hoist-invariant-loads)' | FileCheck %s

// The row start reads a memref nothing writes: it leaves the loops it does
// not depend on, with the arithmetic on it. Loads of the written output
// and divisions stay.
// CHECK-LABEL: func.func @row
//       CHECK: %[[START:.*]] = memref.load %arg0[%arg3]
//  CHECK-NEXT: %[[S:.*]] = arith.index_cast %[[START]]
//  CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
//  CHECK-NEXT:   %[[P:.*]] = arith.addi %[[S]], %[[J]]
//  CHECK-NEXT:   %[[V:.*]] = memref.load %arg1[%[[P]]]
//  CHECK-NEXT:   scf.for
//  CHECK-NEXT:     memref.load %arg2
//  CHECK-NEXT:     arith.divui
func.func @row(%indptr: memref<?xi32>, %a: memref<?xf32>, %c: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      %start = memref.load %indptr[%i] : memref<?xi32>
      %s = arith.index_cast %start : i32 to index
      %p = arith.addi %s, %j : index
      %v = memref.load %a[%p] : memref<?xf32>
      %acc = memref.load %c[%k] : memref<?xf32>
      %q = arith.divui %n, %k : index
      %sum = arith.addf %acc, %v : f32
      memref.store %sum, %c[%q] : memref<?xf32>
    }
  }
  return
}
