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

// A guarded read of the row start that the row already read: the guard
// cannot be hoisted, but the earlier identical load dominates it and is
// reused. Reads of the written memref stay; the read of %a in the else
// branch reuses the one hoisted out of the loop from after the branch.
// CHECK-LABEL: func.func @dominated
//       CHECK: %[[START:.*]] = memref.load %arg0[%arg3]
//       CHECK: %[[A:.*]] = memref.load %arg1[%arg3]
//       CHECK: scf.for
//       CHECK:   scf.if
//  CHECK-NEXT:     arith.index_cast %[[START]]
//  CHECK-NEXT:     memref.load %arg2[%arg3]
//  CHECK-NEXT:     memref.store
//  CHECK-NEXT:     memref.load %arg2[%arg3]
//  CHECK-NEXT:     memref.store
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     memref.store %[[A]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   memref.store %[[A]]
func.func @dominated(%indptr: memref<?xi32>, %a: memref<?xf32>, %c: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %start = memref.load %indptr[%i] : memref<?xi32>
  scf.for %j = %c0 to %n step %c1 {
    %s = arith.index_cast %start : i32 to index
    %p = arith.addi %s, %j : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      %again = memref.load %indptr[%i] : memref<?xi32>
      %t = arith.index_cast %again : i32 to index
      %x = memref.load %c[%i] : memref<?xf32>
      memref.store %x, %c[%t] : memref<?xf32>
      %y = memref.load %c[%i] : memref<?xf32>
      memref.store %y, %c[%p] : memref<?xf32>
    } else {
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %c[%p] : memref<?xf32>
    }
    %w = memref.load %a[%i] : memref<?xf32>
    memref.store %w, %c[%j] : memref<?xf32>
  }
  return
}

// A 16-byte load of a never-written memref leaves the loop too; asking for
// the memref's aligned pointer (the vector path's alignment check) does
// not write it. A scalar load with the same operands stays a scalar.
// CHECK-LABEL: func.func @vector_row
//       CHECK: memref.extract_aligned_pointer_as_index %arg0
//       CHECK: %[[ROW:.*]] = vector.load %arg0[%arg2] : memref<?xf32>, vector<4xf32>
//       CHECK: %[[ONE:.*]] = memref.load %arg0[%arg2]
//       CHECK: %[[B:.*]] = vector.broadcast %[[ONE]]
//       CHECK: %[[SUM:.*]] = arith.addf %[[ROW]], %[[B]]
//       CHECK: scf.for
//  CHECK-NEXT:   arith.muli
//  CHECK-NEXT:   vector.store %[[SUM]]
func.func @vector_row(%x: memref<?xf32>, %out: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = memref.extract_aligned_pointer_as_index %x : memref<?xf32> -> index
  scf.for %j = %c0 to %n step %c1 {
    %row = vector.load %x[%i] : memref<?xf32>, vector<4xf32>
    %one = memref.load %x[%i] : memref<?xf32>
    %b = vector.broadcast %one : f32 to vector<4xf32>
    %sum = arith.addf %row, %b : vector<4xf32>
    %k = arith.muli %j, %c4 : index
    vector.store %sum, %out[%k] : memref<?xf32>, vector<4xf32>
  }
  return
}

// -----

// The loop writes %x and reads it back through a view: the view's load
// sees the writes and stays in the loop.
// CHECK-LABEL: func.func @written_through_a_view
//       CHECK: scf.for
//       CHECK:   memref.store
//       CHECK:   memref.load %{{.*}}[%c0] : memref<1xf32, strided<[1]>>
func.func @written_through_a_view(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %view = memref.subview %x[0] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1]>>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%c0] : memref<?xf32>
    %v = memref.load %view[%c0] : memref<1xf32, strided<[1]>>
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// The place of a warp-shuffled accumulation, computed under a split's tail
// guard from values outside the loop, leaves the guard and the loop; the
// guard's other arithmetic and its loads stay (the guard keeps them in
// bounds).
// CHECK-LABEL: func.func @shuffled_place
//       CHECK:   scf.for %[[F:.*]] = %c0 to %c3
//  CHECK-NEXT:     %[[PLACE:.*]] = arith.addi %{{.*}}, %[[F]]
//  CHECK-NEXT:     scf.for
//       CHECK:       scf.if
//  CHECK-NEXT:         arith.addi
//  CHECK-NEXT:         memref.load %arg0
//       CHECK:         memref.store %{{.*}}, %arg2[%[[PLACE]]] {sptir.shuffle = 32 : i64}
func.func @shuffled_place(%x: memref<?xf32>, %s: memref<?xf32>, %y: memref<?xf32>, %row: index, %n: index,
                          %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  scf.for %f = %c0 to %c3 step %c1 {
    scf.for %o = %c0 to %steps step %c1 {
      %base = arith.muli %o, %c32 : index
      %p = arith.addi %base, %t : index
      %in = arith.cmpi ult, %p, %n : index
      scf.if %in {
        %at = arith.addi %row, %f : index
        %q = arith.addi %p, %row : index
        %v = memref.load %x[%q] : memref<?xf32>
        %old = memref.load %y[%at] : memref<?xf32>
        %new = arith.addf %old, %v : f32
        memref.store %new, %y[%at] {sptir.shuffle = 32 : i64} : memref<?xf32>
      } {sptir.split_guard}
    }
  }
  return
}
