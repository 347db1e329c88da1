// Round trip of the stage II program stage2/sddmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/sddmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @sddmm
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
//       CHECK: sparse_pos.for "sddmm_i" spatial %[[C0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//       CHECK: %[[LEN_LO:.*]] = sparse_pos.load %[[JP]][%[[VI]]] : <1, i32>
//  CHECK-NEXT: %[[LEN_HI:.*]] = sparse_pos.load %[[JP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[LEN_LOX:.*]] = arith.index_cast %[[LEN_LO]] : i32 to index
//  CHECK-NEXT: %[[LEN_HIX:.*]] = arith.index_cast %[[LEN_HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[LEN_HIX]], %[[LEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "sddmm_j" spatial %[[C0]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
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
