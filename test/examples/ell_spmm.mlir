// Round trip of ell_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/ell_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @ell_spmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg4
//       CHECK: %[[J:.*]] = sparse_iter.sparse_fixed %[[I]], %arg0 length %arg5 nnz_cols %arg6 : memref<?xi32>
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg7
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg1[%[[I]], %[[J]]]
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg2[%[[JD]], %[[K]]]
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg3[%[[I]], %[[K]]]
//       CHECK: sparse_iter.iterate "ellmm" [%[[I]], %[[J]], %[[K]]] "SRS" init {
//  CHECK-NEXT: ^bb0(%[[II:[^:]*]]: index, %[[IK:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[II]], %[[IK]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
