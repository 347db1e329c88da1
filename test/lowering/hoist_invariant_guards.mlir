// RUN: sptir-opt %s --split-input-file -p 'builtin.module(hoist-invariant-guards)' | FileCheck %s

// The tail guard of a feature chunk does not change over the non-zeros:
// it moves out with the arithmetic it needs, and the loop goes inside.
// CHECK-LABEL: func.func @tail_guard
//       CHECK: %[[K:.*]] = arith.addi %arg3, %arg4
//       CHECK: %[[IN:.*]] = arith.cmpi ult, %[[K]], %arg2
//       CHECK: scf.if %[[IN]] {
//  CHECK-NEXT:   scf.for %[[J:.*]] = %c0 to %arg1
//  CHECK-NEXT:     memref.load %arg0[%[[J]]]
//       CHECK:     memref.store
//       CHECK:   }
//  CHECK-NEXT: } else {
//  CHECK-NEXT:   scf.for
//  CHECK-NEXT:     memref.load %arg0
//   CHECK-NOT:     memref.store
func.func @tail_guard(%x: memref<?xf32>, %len: index, %n: index, %chunk: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %len step %c1 {
    %v = memref.load %x[%j] : memref<?xf32>
    %k = arith.addi %chunk, %t : index
    %in = arith.cmpi ult, %k, %n : index
    scf.if %in {
      memref.store %v, %x[%k] : memref<?xf32>
    }
  }
  return
}

// -----

// Both branches of an invariant if-else get a copy of the loop; a guard
// that depends on the loop stays.
// CHECK-LABEL: func.func @if_else
//       CHECK: scf.if %arg2 {
//  CHECK-NEXT:   scf.for
//  CHECK-NEXT:     arith.cmpi ult
//  CHECK-NEXT:     scf.if
//  CHECK-NEXT:       memref.store %arg3
//       CHECK: } else {
//  CHECK-NEXT:   scf.for
//  CHECK-NEXT:     arith.cmpi ult
//  CHECK-NEXT:     scf.if
//  CHECK-NEXT:       memref.store %arg4
func.func @if_else(%x: memref<?xf32>, %n: index, %c: i1, %a: f32, %b: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %j = %c0 to %n step %c1 {
    scf.if %c {
      %in = arith.cmpi ult, %j, %c7 : index
      scf.if %in {
        memref.store %a, %x[%j] : memref<?xf32>
      }
    } else {
      %in = arith.cmpi ult, %j, %c7 : index
      scf.if %in {
        memref.store %b, %x[%j] : memref<?xf32>
      }
    }
  }
  return
}

// -----

// A division by a value that may be zero stays where the loop guards it
// (the loop may not run at all), and so does the if that needs it.
// CHECK-LABEL: func.func @unsafe_division
//       CHECK: scf.for
//  CHECK-NEXT:   arith.divui
//  CHECK-NEXT:   arith.cmpi
//  CHECK-NEXT:   scf.if
func.func @unsafe_division(%x: memref<?xf32>, %n: index, %d: index, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %q = arith.divui %n, %d : index
    %in = arith.cmpi ult, %q, %n : index
    scf.if %in {
      memref.store %a, %x[%j] : memref<?xf32>
    }
  }
  return
}

// -----

// A loop that holds a barrier keeps a guard on the thread id: threads
// taking different copies of the loop would wait at different barriers.
// A guard every thread evaluates alike still moves out.
// CHECK-LABEL: func.func @barrier
//       CHECK: gpu.launch
//       CHECK: scf.if %arg2 {
//  CHECK-NEXT:   scf.for
//       CHECK:     gpu.barrier
//       CHECK:     %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %arg1
//  CHECK-NEXT:     scf.if %[[IN]] {
//       CHECK:     gpu.barrier
//       CHECK: } else {
//  CHECK-NEXT:   scf.for
//       CHECK:     scf.if %[[IN2:.*]] {
func.func @barrier(%x: memref<?xf32>, %n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %j = %c0 to %n step %c1 {
      gpu.barrier
      %in = arith.cmpi ult, %tx, %n : index
      scf.if %in {
        memref.store %f, %x[%tx] : memref<?xf32>
      }
      scf.if %flag {
        memref.store %f, %x[%j] : memref<?xf32>
      }
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// An atomic's old value differs between threads even at one address: a
// loop holding a barrier keeps the guard on it.
// CHECK-LABEL: func.func @atomic_guard
//       CHECK: memref.atomic_rmw
//  CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq
//  CHECK-NEXT: scf.for
//  CHECK-NEXT:   scf.if %[[FIRST]] {
func.func @atomic_guard(%x: memref<?xf32>, %ctr: memref<1xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %i1 = arith.constant 1 : i32
  %i0 = arith.constant 0 : i32
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %old = memref.atomic_rmw addi %i1, %ctr[%c0] : (i32, memref<1xi32>) -> i32
    %first = arith.cmpi eq, %old, %i0 : i32
    scf.for %j = %c0 to %n step %c1 {
      scf.if %first {
        memref.store %f, %x[%j] : memref<?xf32>
      }
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
