// Round trip of the stage II program stage2/hyb_spmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/hyb_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @hyb_spmm
//       CHECK: %[[C0:.*]] = arith.constant 0 : index
//       CHECK: %[[ONE:.*]] = arith.constant 1 : index
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]] {default_value = 0.000000e+00 : f32}
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg6 nnz %arg7
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JD]]]
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0]], %arg7]
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg6]
//       CHECK: %[[O0:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I0:.*]] = sparse_iter.sparse_fixed %[[O0]], %arg9 length %arg5 nnz_cols %arg13
//       CHECK: %[[J0:.*]] = sparse_iter.sparse_fixed %[[I0]], %arg10 length %arg6 nnz_cols %arg14
//       CHECK: %[[A0:.*]] = sparse_iter.match_buffer %arg12[%[[O0]], %[[I0]], %[[J0]]]
//       CHECK: %[[M0:.*]] = sparse_iter.match_buffer %arg11[%[[O0]], %[[I0]], %[[J0]]] : memref<?xi32> -> <3, i32>
//       CHECK: %[[I0D:.*]] = sparse_iter.dense_fixed %arg13
//       CHECK: %[[I0X:.*]] = sparse_iter.match_buffer %arg9[%[[O0]], %[[I0D]]] : memref<?xi32> -> <2, i32>
//       CHECK: %[[J0D:.*]] = sparse_iter.dense_fixed %arg14
//       CHECK: %[[J0X:.*]] = sparse_iter.match_buffer %arg10[%[[O0]], %[[I0D]], %[[J0D]]] : memref<?xi32> -> <3, i32>
//       CHECK: sparse_pos.assume_domain %[[I0X]] in [%[[C0]], %arg5]
//       CHECK: sparse_pos.assume_domain %[[J0X]] in [%[[C0]], %arg6]
//       CHECK: %[[O1:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I1:.*]] = sparse_iter.sparse_fixed %[[O1]], %arg15 length %arg5 nnz_cols %arg19
//       CHECK: %[[J1:.*]] = sparse_iter.sparse_fixed %[[I1]], %arg16 length %arg6 nnz_cols %arg20
//       CHECK: %[[A1:.*]] = sparse_iter.match_buffer %arg18[%[[O1]], %[[I1]], %[[J1]]]
//       CHECK: %[[M1:.*]] = sparse_iter.match_buffer %arg17[%[[O1]], %[[I1]], %[[J1]]]
//       CHECK: %[[I1X:.*]] = sparse_iter.match_buffer %arg15
//       CHECK: %[[J1X:.*]] = sparse_iter.match_buffer %arg16
//
// copy_ell0: the column's position in A's row is a binary search.
//       CHECK: sparse_pos.for "copy_ell0_o" spatial %[[C0]] to %[[ONE]] attributes {preprocess} {
//  CHECK-NEXT: ^bb0(%[[CO:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "copy_ell0_i" spatial %[[C0]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[CI:[^:]*]]: index):
//  CHECK-NEXT: %[[ROW32:.*]] = sparse_pos.load %[[I0X]][%[[CO]], %[[CI]]]
//  CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[ROW32]]
//  CHECK-NEXT: sparse_pos.for "copy_ell0_j" spatial %[[C0]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[CJ:[^:]*]]: index):
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[J0X]][%[[CO]], %[[CI]], %[[CJ]]]
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]]
//  CHECK-NEXT: %[[MV:.*]] = sparse_pos.load %[[M0]][%[[CO]], %[[CI]], %[[CJ]]] : <3, i32>
//       CHECK: %[[REAL:.*]] = arith.cmpi ne, %[[MV]]
//  CHECK-NEXT: %[[POS:.*]], %[[FOUND:.*]] = sparse_pos.find %[[J]][%[[ROW]]], %[[COL]]
//  CHECK-NEXT: %[[TAKE:.*]] = arith.andi %[[REAL]], %[[FOUND]] : i1
//  CHECK-NEXT: %[[V:.*]] = scf.if %[[TAKE]] -> (f32) {
//  CHECK-NEXT: %[[AV:.*]] = sparse_pos.load %[[A]][%[[ROW]], %[[POS]]] : <2, f32>
//  CHECK-NEXT: scf.yield %[[AV]] : f32
//  CHECK-NEXT: } else {
//       CHECK: sparse_pos.store %[[V]], %[[A0]][%[[CO]], %[[CI]], %[[CJ]]] : <3, f32>
//       CHECK: sparse_pos.for "copy_ell1_o" spatial %[[C0]] to %[[ONE]] attributes {preprocess} {
//       CHECK: sparse_pos.find %[[J]][%{{.*}}], %{{.*}}
//       CHECK: sparse_pos.store %{{.*}}, %[[A1]]
//
//       CHECK: sparse_pos.for "zero_i" spatial %[[C0]] to %arg5 {
//       CHECK: sparse_pos.for "zero_k" spatial %[[C0]] to %arg8 {
//
//       CHECK: sparse_pos.for "spmm_ell0_o" spatial %[[C0]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[VO:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "spmm_ell0_i" spatial %[[C0]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: %[[SROW32:.*]] = sparse_pos.load %[[I0X]][%[[VO]], %[[VI]]]
//  CHECK-NEXT: %[[SROW:.*]] = arith.index_cast %[[SROW32]]
//  CHECK-NEXT: sparse_pos.for "spmm_ell0_j" reduction %[[C0]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: %[[SCOL32:.*]] = sparse_pos.load %[[J0X]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[SCOL:.*]] = arith.index_cast %[[SCOL32]]
//  CHECK-NEXT: sparse_pos.for "spmm_ell0_k" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[C]][%[[SROW]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A0]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[SCOL]], %[[VK]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[SROW]], %[[VK]]]
//       CHECK: sparse_pos.for "spmm_ell1_o" spatial %[[C0]] to %[[ONE]] {
//       CHECK: sparse_pos.for "spmm_ell1_i" reduction %[[C0]] to %arg19 {
//       CHECK: sparse_pos.load %[[I1X]]
//       CHECK: sparse_pos.for "spmm_ell1_j" reduction %[[C0]] to %arg20 {
//       CHECK: sparse_pos.load %[[J1X]]
//       CHECK: sparse_pos.load %[[A1]]
