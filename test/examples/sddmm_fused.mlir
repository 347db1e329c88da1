// Round trip of sddmm_fused.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/sddmm_fused.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @sddmm_fused
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg7 nnz %arg8 sorted
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg7
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg9
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg3[%[[I]], %[[K]]]
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg4[%[[JD]], %[[K]]]
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]]
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5[%[[I]], %[[J]]]
//       CHECK: sparse_iter.iterate "sddmm" [fuse(%[[I]], %[[J]]), %[[K]]] "SSR" init {
//  CHECK-NEXT: ^bb0(%[[II:[^:]*]]: index, %[[IJ:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[B]][%[[II]], %[[IJ]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[X]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[Y]][%[[VJ]], %[[VK]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VI]], %[[VJ]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[B]][%[[VI]], %[[VJ]]]
