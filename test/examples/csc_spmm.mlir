// Round trip of csc_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/csc_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csc_spmm
//       CHECK: %[[J:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[J]], %arg0, %arg1 length %arg5 nnz %arg7 sorted
//       CHECK: %[[ID:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[J]], %[[I]]]
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3[%[[J]], %[[K]]]
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4[%[[ID]], %[[K]]]
//       CHECK: sparse_iter.iterate "zero" [%[[ID]], %[[K]]] "SS" body {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]*]]: index, %[[ZK:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[ZI]], %[[ZK]]]
//       CHECK: sparse_iter.iterate "cscmm" [%[[J]], %[[I]], %[[K]]] "RSS" body {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index, %[[VI:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VJ]], %[[VI]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
//   CHECK-NOT: init
