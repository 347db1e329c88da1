// RUN: sptir-opt %s --split-input-file -p 'builtin.module(sink-shuffle-guards)' | FileCheck %s

// A row's non-zeros on the lanes, its features in turn inside each lane's
// non-zero: the lane's guard moves inside the feature loop, around the
// term (with the loads of the non-zero's column and value), so every lane
// reaches the shuffled accumulation; a lane out of the row adds zero.
// CHECK-LABEL: func.func @features_in_turn
//       CHECK: scf.for %[[O:.*]] = %c0 to %{{.*}} step %c1 {
//       CHECK:   %[[IN:.*]] = arith.cmpi ult
//       CHECK:   scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
//       CHECK:     %[[E:.*]] = arith.addi %{{.*}}, %[[K]] : index
//       CHECK:     %[[T:.*]] = scf.if %[[IN]] -> (f32) {
//       CHECK:       memref.load %arg1
//       CHECK:       memref.load %arg2
//       CHECK:       memref.load %arg3
//       CHECK:       %[[P:.*]] = arith.mulf
//       CHECK:       scf.yield %[[P]] : f32
//       CHECK:     } else {
//       CHECK:       %[[Z:.*]] = arith.constant -0.000000e+00 : f32
//       CHECK:       scf.yield %[[Z]] : f32
//       CHECK:     }
//       CHECK:     %[[OLD:.*]] = memref.load %arg4[%[[E]]]
//       CHECK:     %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]] : f32
//       CHECK:     memref.store %[[NEW]], %arg4[%[[E]]] {sptir.shuffle = 32 : i64}
//   CHECK-NOT: scf.if
//       CHECK: gpu.terminator
func.func @features_in_turn(%rowptr: memref<?xi32>, %col: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %start32 = memref.load %rowptr[%row] : memref<?xi32>
    %start = arith.index_cast %start32 : i32 to index
    %next = arith.addi %row, %c1 : index
    %end32 = memref.load %rowptr[%next] : memref<?xi32>
    %end = arith.index_cast %end32 : i32 to index
    %len = arith.subi %end, %start : index
    %chunks = arith.ceildivui %len, %c32 : index
    %base = arith.muli %row, %c8 : index
    scf.for %o = %c0 to %chunks step %c1 {
      %o32 = arith.muli %o, %c32 : index
      %j = arith.addi %o32, %tx : index
      %in = arith.cmpi ult, %j, %len : index
      scf.if %in {
        %p = arith.addi %start, %j : index
        %col32 = memref.load %col[%p] : memref<?xi32>
        %colx = arith.index_cast %col32 : i32 to index
        %av = memref.load %a[%p] : memref<?xf32>
        %brow = arith.muli %colx, %c8 : index
        scf.for %k = %c0 to %c8 step %c1 {
          %e = arith.addi %base, %k : index
          %old = memref.load %c[%e] : memref<?xf32>
          %bk = arith.addi %brow, %k : index
          %bv = memref.load %b[%bk] : memref<?xf32>
          %prod = arith.mulf %av, %bv : f32
          %new = arith.addf %old, %prod : f32
          memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The guard also writes memory: it stays where it is (lower-shuffle-
// accumulations refuses it later, with its location).
// CHECK-LABEL: func.func @guard_writes
//       CHECK: scf.if
//       CHECK:   memref.store %{{.*}}, %arg2
//       CHECK:   scf.for
func.func @guard_writes(%b: memref<?xf32>, %c: memref<?xf32>, %flags: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %c20 : index
    scf.if %in {
      memref.store %one, %flags[%tx] : memref<?xf32>
      scf.for %k = %c0 to %c8 step %c1 {
        %old = memref.load %c[%k] : memref<?xf32>
        %bv = memref.load %b[%k] : memref<?xf32>
        %new = arith.addf %old, %bv : f32
        memref.store %new, %c[%k] {sptir.shuffle = 32 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}
