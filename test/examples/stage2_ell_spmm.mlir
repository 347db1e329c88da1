// Round trip of the stage II program stage2/ell_spmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/ell_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @ell_spmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg4
//       CHECK: %[[J:.*]] = sparse_iter.sparse_fixed %[[I]], %arg0 length %arg5 nnz_cols %arg6
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg1
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg2
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg3
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg0[%[[I]], %[[JD]]] : memref<?xi32> -> <2, i32>
//   CHECK-NOT: extra
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0:.*]], %arg5]
//       CHECK: sparse_pos.for "ellmm_i" spatial %[[C0]] to %arg4 {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "ellmm_init_k" spatial %[[C0]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[IK:[^:]*]]: index):
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[VI]], %[[IK]]]
//       CHECK: sparse_pos.for "ellmm_j" reduction %[[C0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[JX]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]]
//  CHECK-NEXT: sparse_pos.for "ellmm_k" spatial %[[C0]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[COL]], %[[VK]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
