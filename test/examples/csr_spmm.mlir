// Round trip of csr_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/csr_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csr_spmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]] : memref<?xf32> -> <2, f32>
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[K]]]
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4[%[[I]], %[[K]]]
//       CHECK: sparse_iter.iterate "csrmm" [%[[I]], %[[J]], %[[K]]] "SRS" init {
//  CHECK-NEXT: ^bb0(%[[II:[^:]*]]: index, %[[IK:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[II]], %[[IK]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
