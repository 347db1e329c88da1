// Round trip of dcsr_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/dcsr_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @dcsr_spmm
//       CHECK: %[[ONE:.*]] = arith.constant 1 : index
//       CHECK: %[[O:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[O]], %arg0, %arg1 length %arg7 nnz %arg9 sorted
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg8 nnz %arg10 sorted
//       CHECK: %[[ID:.*]] = sparse_iter.dense_fixed %arg7
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg11
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4[%[[O]], %[[I]], %[[J]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5[%[[JD]], %[[K]]]
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg6[%[[ID]], %[[K]]]
//       CHECK: sparse_iter.iterate "zero" [%[[ID]], %[[K]]] "SS" body {
//       CHECK: sparse_iter.iterate "dcsrmm" [%[[O]], %[[I]], %[[J]], %[[K]]] "SSRS" body {
//  CHECK-NEXT: ^bb0(%[[VO:[^:]*]]: index, %[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
