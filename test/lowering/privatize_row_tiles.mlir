// RUN: sptir-opt %s --split-input-file -p 'builtin.module(privatize-row-tiles)' | FileCheck %s
// RUN: not sptir-opt %S/Inputs/scratch_row_per_thread.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=rows.0 to=threadIdx.y},sparse-pos-auto-bind,sptir-stage2-to-launches)' 2>&1 | FileCheck %S/Inputs/scratch_row_per_thread.mlir --check-prefix=WHOLE
// RUN: sptir-opt %S/Inputs/scratch_row_per_thread.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=rows.0 factor=4},sparse-pos-bind{loop=rows.0.o to=blockIdx.x},sparse-pos-bind{loop=rows.0.i to=threadIdx.y},sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %S/Inputs/scratch_row_per_thread.mlir --check-prefix=SPLIT

// Rows on threadIdx.y, a tile copied and read inside each: one tile a row,
// indexed first by the row's position, load and store alike.
// CHECK-LABEL: func.func @rows
//       CHECK: %[[TILE:.*]] = memref.alloca() {sptir.shared} : memref<4x8xf32>
//       CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:   memref.store %{{.*}}, %[[TILE]][%[[ROW]], %{{.*}}] : memref<4x8xf32>
//       CHECK:   memref.load %[[TILE]][%[[ROW]], %{{.*}}] : memref<4x8xf32>
//       CHECK: } {bind = "threadIdx.y"}
func.func @rows(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tile = memref.alloca() {sptir.shared} : memref<8xf32>
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %t = %c0 to %c8 step %c1 {
      %v = memref.load %in[%t] : memref<?xf32>
      memref.store %v, %tile[%t] : memref<8xf32>
    } {bind = "threadIdx.x"}
    scf.for %t = %c0 to %c8 step %c1 {
      %v = memref.load %tile[%t] : memref<8xf32>
      memref.store %v, %out[%t] : memref<?xf32>
    } {bind = "threadIdx.x"}
  } {bind = "threadIdx.y"}
  return
}

// -----

// Tiles that stay one for the block: used only inside a threadIdx.x loop,
// inside rows of a size known only at run time, inside rows that start at
// 1, in two row loops, in rows of rows (y inside z), not a plain tile, and
// used by something other than a load or store.
// CHECK-LABEL: func.func @kept
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<8xf32>
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<9xf32>
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<10xf32>
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<11xf32>
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<12xf32>
//   CHECK-DAG: memref.alloca() : memref<13xf32>
//   CHECK-DAG: memref.alloca() {sptir.shared} : memref<14xf32>
//   CHECK-NOT: memref<{{[0-9]+}}x{{[0-9]}}
func.func @kept(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %lanes = memref.alloca() {sptir.shared} : memref<8xf32>
  %dynamic = memref.alloca() {sptir.shared} : memref<9xf32>
  %offset = memref.alloca() {sptir.shared} : memref<10xf32>
  %two = memref.alloca() {sptir.shared} : memref<11xf32>
  %nested = memref.alloca() {sptir.shared} : memref<12xf32>
  %plain = memref.alloca() : memref<13xf32>
  %viewed = memref.alloca() {sptir.shared} : memref<14xf32>
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %t = %c0 to %c4 step %c1 {
      memref.store %f, %lanes[%t] : memref<8xf32>
    } {bind = "threadIdx.x"}
  } {bind = "threadIdx.x"}
  scf.for %y = %c0 to %n step %c1 {
    memref.store %f, %dynamic[%c0] : memref<9xf32>
  } {bind = "threadIdx.y"}
  scf.for %y = %c1 to %c4 step %c1 {
    memref.store %f, %offset[%c0] : memref<10xf32>
  } {bind = "threadIdx.y"}
  scf.for %y = %c0 to %c4 step %c1 {
    memref.store %f, %two[%c0] : memref<11xf32>
  } {bind = "threadIdx.y"}
  scf.for %y = %c0 to %c4 step %c1 {
    %v = memref.load %two[%c0] : memref<11xf32>
    memref.store %v, %out[%y] : memref<?xf32>
  } {bind = "threadIdx.y"}
  scf.for %z = %c0 to %c4 step %c1 {
    scf.for %y = %c0 to %c4 step %c1 {
      memref.store %f, %nested[%c0] : memref<12xf32>
    } {bind = "threadIdx.y"}
  } {bind = "threadIdx.z"}
  scf.for %y = %c0 to %c4 step %c1 {
    memref.store %f, %plain[%c0] : memref<13xf32>
    %cast = memref.cast %viewed : memref<14xf32> to memref<?xf32>
    memref.store %f, %cast[%c0] : memref<?xf32>
  } {bind = "threadIdx.y"}
  return
}
