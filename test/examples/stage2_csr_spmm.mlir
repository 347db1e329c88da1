// Round trip of the stage II program stage2/csr_spmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/csr_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csr_spmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg6 nnz %arg7 : memref<?xi32>
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1 : memref<?xi32> -> <1, i32>
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JD]]] : memref<?xi32> -> <2, i32>
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0:.*]], %arg7] : <1, i32>
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg6] : <2, i32>
//       CHECK: sparse_pos.for "csrmm_i" spatial %[[C0]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "csrmm_init_k" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[IK:[^:]*]]: index):
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[VI]], %[[IK]]]
//       CHECK: %[[LEN_LO:.*]] = sparse_pos.load %[[JP]][%[[VI]]] : <1, i32>
//  CHECK-NEXT: %[[LEN_HI:.*]] = sparse_pos.load %[[JP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[LEN_LOX:.*]] = arith.index_cast %[[LEN_LO]] : i32 to index
//  CHECK-NEXT: %[[LEN_HIX:.*]] = arith.index_cast %[[LEN_HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[LEN_HIX]], %[[LEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "csrmm_j" reduction %[[C0]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[JX]][%[[VI]], %[[VJ]]] : <2, i32>
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]] : i32 to index
//  CHECK-NEXT: sparse_pos.for "csrmm_k" spatial %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[C]][%[[VI]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[COL]], %[[VK]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[VI]], %[[VK]]]
