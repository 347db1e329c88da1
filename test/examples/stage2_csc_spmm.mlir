// Round trip of the stage II program stage2/csc_spmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/csc_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csc_spmm
//       CHECK: %[[J:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[J]], %arg0, %arg1 length %arg5 nnz %arg7 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[ID:.*]] = sparse_iter.dense_variable %[[J]], %arg0 length %arg5 nnz %arg7
//       CHECK: %[[IP:.*]] = sparse_iter.match_buffer %arg0[%[[J]]] extra 1
//       CHECK: %[[IX:.*]] = sparse_iter.match_buffer %arg1[%[[J]], %[[ID]]]
//       CHECK: sparse_pos.assume_domain %[[IP]] in [%[[C0:.*]], %arg7]
//       CHECK: sparse_pos.assume_domain %[[IX]] in [%[[C0]], %arg5]
//       CHECK: sparse_pos.for "zero_i" spatial %[[C0]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "zero_k" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[ZK:[^:]*]]: index):
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[ZI]], %[[ZK]]]
//       CHECK: sparse_pos.for "cscmm_j" reduction %[[C0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//       CHECK: %[[LEN_LO:.*]] = sparse_pos.load %[[IP]][%[[VJ]]] : <1, i32>
//  CHECK-NEXT: %[[LEN_HI:.*]] = sparse_pos.load %[[IP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[LEN_LOX:.*]] = arith.index_cast %[[LEN_LO]] : i32 to index
//  CHECK-NEXT: %[[LEN_HIX:.*]] = arith.index_cast %[[LEN_HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[LEN_HIX]], %[[LEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "cscmm_i" spatial %[[C0]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: %[[ROW32:.*]] = sparse_pos.load %[[IX]][%[[VJ]], %[[VI]]] : <2, i32>
//  CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[ROW32]] : i32 to index
//  CHECK-NEXT: sparse_pos.for "cscmm_k" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[C]][%[[ROW]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VJ]], %[[VI]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[VJ]], %[[VK]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[ROW]], %[[VK]]]
