// Round trip of ragged.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/ragged.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @ragged
//       CHECK: %[[B:.*]] = sparse_iter.dense_fixed %arg3
//       CHECK: %[[L:.*]] = sparse_iter.dense_variable %[[B]], %arg0 length %arg4 nnz %arg5 : memref<?xi32>
//       CHECK: %[[F:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg1[%[[B]], %[[L]], %[[F]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[S:.*]] = sparse_iter.match_buffer %arg2[%[[B]], %[[F]]] : memref<?xf32> -> <2, f32>
//       CHECK: sparse_iter.iterate "seqsum" [%[[B]], %[[L]], %[[F]]] "SRS" init {
//  CHECK-NEXT: ^bb0(%[[IB:[^:]*]]: index, %[[IF:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[S]][%[[IB]], %[[IF]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VB:[^:]*]]: index, %[[VL:[^:]*]]: index, %[[VF:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[S]][%[[VB]], %[[VF]]]
//  CHECK-NEXT: sparse_iter.load %[[X]][%[[VB]], %[[VL]], %[[VF]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[S]][%[[VB]], %[[VF]]]
