// Round trip of csf_ttm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/csf_ttm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csf_ttm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg7
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg8 nnz %arg10 sorted
//       CHECK: %[[K:.*]] = sparse_iter.sparse_variable %[[J]], %arg2, %arg3 length %arg9 nnz %arg11 sorted
//       CHECK: %[[KD:.*]] = sparse_iter.dense_fixed %arg9
//       CHECK: %[[L:.*]] = sparse_iter.dense_fixed %arg12
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4[%[[I]], %[[J]], %[[K]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5[%[[KD]], %[[L]]]
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg6[%[[I]], %[[J]], %[[L]]] : memref<?xf32> -> <3, f32>
//       CHECK: sparse_iter.iterate "ttm" [%[[I]], %[[J]], %[[K]], %[[L]]] "SSRS" init {
//  CHECK-NEXT: ^bb0(%[[II:[^:]*]]: index, %[[IJ:[^:]*]]: index, %[[IL:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[Y]][%[[II]], %[[IJ]], %[[IL]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index, %[[VL:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[Y]][%[[VI]], %[[VJ]], %[[VL]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VI]], %[[VJ]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VK]], %[[VL]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[Y]][%[[VI]], %[[VJ]], %[[VL]]]
