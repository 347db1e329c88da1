// Round trip of the stage II program stage2/ragged.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/ragged.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @ragged
//       CHECK: %[[B:.*]] = sparse_iter.dense_fixed %arg3
//       CHECK: %[[L:.*]] = sparse_iter.dense_variable %[[B]], %arg0 length %arg4 nnz %arg5
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg1[%[[B]], %[[L]], %{{.*}}]
//       CHECK: %[[S:.*]] = sparse_iter.match_buffer %arg2
//       CHECK: %[[LP:.*]] = sparse_iter.match_buffer %arg0[%[[B]]] extra 1 : memref<?xi32> -> <1, i32>
//       CHECK: sparse_pos.assume_domain %[[LP]] in [%[[C0:.*]], %arg5]
//       CHECK: sparse_pos.for "seqsum_b" spatial %[[C0]] to %arg3 {
//  CHECK-NEXT: ^bb0(%[[VB:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "seqsum_init_f" spatial %[[C0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[IF:[^:]*]]: index):
//       CHECK: sparse_pos.store %{{.*}}, %[[S]][%[[VB]], %[[IF]]]
//       CHECK: %[[LEN_LO:.*]] = sparse_pos.load %[[LP]][%[[VB]]] : <1, i32>
//  CHECK-NEXT: %[[LEN_HI:.*]] = sparse_pos.load %[[LP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[LEN_LOX:.*]] = arith.index_cast %[[LEN_LO]] : i32 to index
//  CHECK-NEXT: %[[LEN_HIX:.*]] = arith.index_cast %[[LEN_HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[LEN_HIX]], %[[LEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "seqsum_l" reduction %[[C0]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[VL:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "seqsum_f" spatial %[[C0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[VF:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[S]][%[[VB]], %[[VF]]]
//  CHECK-NEXT: sparse_pos.load %[[X]][%[[VB]], %[[VL]], %[[VF]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[S]][%[[VB]], %[[VF]]]
