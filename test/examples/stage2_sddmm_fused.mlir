// Round trip of the stage II program stage2/sddmm_fused.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/sddmm_fused.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @sddmm_fused
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg3
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg7 nnz %arg8
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JD]]]
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0:.*]], %arg8]
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg7]
//       CHECK: sparse_pos.for "sddmm_ij" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[VIJ:[^:]*]]: index):
//  CHECK-NEXT: %[[VI:.*]] = sparse_pos.parent_position %[[J]], %[[VIJ]]
//  CHECK-NEXT: %[[LO:.*]] = sparse_pos.load %[[JP]][%[[VI]]]
//  CHECK-NEXT: %[[LOX:.*]] = arith.index_cast %[[LO]]
//  CHECK-NEXT: %[[VJ:.*]] = arith.subi %[[VIJ]], %[[LOX]] : index
//       CHECK: sparse_pos.store %{{.*}}, %[[B]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[JX]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]]
//  CHECK-NEXT: sparse_pos.for "sddmm_k" reduction %[[C0]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[X]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[Y]][%[[COL]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VI]], %[[VJ]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[B]][%[[VI]], %[[VJ]]]
