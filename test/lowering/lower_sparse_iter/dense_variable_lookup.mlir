// A dense_variable axis looked up by a coordinate that another axis walks
// (here a dense axis as long as the longest row): positions past a row's
// length are not stored, so the load reads the buffer's default value
// there, and a store goes nowhere, as for a sparse coordinate not found.
// RUN: sptir-opt %s --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s

// CHECK-LABEL: func.func @pad
//       CHECK: sparse_pos.for "pad.1" spatial %{{.*}} to %arg4 {
//  CHECK-NEXT: ^bb0(%[[L:[^:]+]]: index):
//       CHECK:   %[[START:.*]] = arith.index_cast
//       CHECK:   %[[END:.*]] = arith.index_cast
//       CHECK:   %[[LEN:.*]] = arith.subi %[[END]], %[[START]] : index
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[L]], %[[LEN]] : index
//       CHECK:   %[[V:.*]] = scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:     sparse_pos.load %{{.*}}[%{{.*}}, %[[L]]] : <2, f32>
//       CHECK:   } else {
//  CHECK-NEXT:     arith.constant 5.000000e+00 : f32
//       CHECK:   sparse_pos.store %[[V]]
//       CHECK:   arith.cmpi ult, %[[L]]
//  CHECK-NEXT:   scf.if
//  CHECK-NEXT:     sparse_pos.store
func.func @pad(%ptr: memref<?xi32>, %x: memref<?xf32>, %y: memref<?xf32>, %b: index, %maxl: index, %tot: index) {
  %B = sparse_iter.dense_fixed %b
  %L = sparse_iter.dense_variable %B, %ptr length %maxl nnz %tot : memref<?xi32>
  %Ld = sparse_iter.dense_fixed %maxl
  %X = sparse_iter.match_buffer %x [%B, %L] {default_value = 5.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%B, %Ld] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "pad" [%B, %Ld] "SS" body {
  ^bb0(%bb: index, %l: index):
    %v = sparse_iter.load %X[%bb, %l] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %Y[%bb, %l] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %X[%bb, %l] : !sparse_iter.buffer<2, f32>
  }
  return
}
