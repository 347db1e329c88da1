// Round trip of hyb_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/hyb_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @hyb_spmm
//       CHECK: %[[ONE:.*]] = arith.constant 1 : index
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]] {default_value = 0.000000e+00 : f32}
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[K]]]
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4[%[[I]], %[[K]]]
//       CHECK: %[[O0:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I0:.*]] = sparse_iter.sparse_fixed %[[O0]], %arg9 length %arg5 nnz_cols %arg13
//       CHECK: %[[J0:.*]] = sparse_iter.sparse_fixed %[[I0]], %arg10 length %arg6 nnz_cols %arg14
//       CHECK: %[[A0:.*]] = sparse_iter.match_buffer %arg12[%[[O0]], %[[I0]], %[[J0]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[M0:.*]] = sparse_iter.match_buffer %arg11[%[[O0]], %[[I0]], %[[J0]]] : memref<?xi32> -> <3, i32>
//       CHECK: %[[O1:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I1:.*]] = sparse_iter.sparse_fixed %[[O1]], %arg15 length %arg5 nnz_cols %arg19
//       CHECK: %[[J1:.*]] = sparse_iter.sparse_fixed %[[I1]], %arg16 length %arg6 nnz_cols %arg20
//       CHECK: %[[A1:.*]] = sparse_iter.match_buffer %arg18[%[[O1]], %[[I1]], %[[J1]]]
//       CHECK: %[[M1:.*]] = sparse_iter.match_buffer %arg17[%[[O1]], %[[I1]], %[[J1]]]
//       CHECK: sparse_iter.iterate "copy_ell0" [%[[O0]], %[[I0]], %[[J0]]] "SSS" attributes {preprocess} body {
//  CHECK-NEXT: ^bb0(%[[CO:[^:]*]]: index, %[[CI:[^:]*]]: index, %[[CJ:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[M0]][%[[CO]], %[[CI]], %[[CJ]]] : <3, i32>
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[CI]], %[[CJ]]] : <2, f32>
//       CHECK: arith.select
//  CHECK-NEXT: sparse_iter.store %{{.*}}, %[[A0]][%[[CO]], %[[CI]], %[[CJ]]]
//       CHECK: sparse_iter.iterate "copy_ell1" [%[[O1]], %[[I1]], %[[J1]]] "SSS" attributes {preprocess} body {
//       CHECK: sparse_iter.load %[[M1]]
//       CHECK: sparse_iter.store %{{.*}}, %[[A1]]
//       CHECK: sparse_iter.iterate "zero" [%[[I]], %[[K]]] "SS" body {
//       CHECK: sparse_iter.iterate "spmm_ell0" [%[[O0]], %[[I0]], %[[J0]], %[[K]]] "SSRS" body {
//  CHECK-NEXT: ^bb0(%[[VO:[^:]*]]: index, %[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A0]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
//       CHECK: sparse_iter.iterate "spmm_ell1" [%[[O1]], %[[I1]], %[[J1]], %[[K]]] "SRRS" body {
//       CHECK: sparse_iter.load %[[A1]]
//   CHECK-NOT: init
