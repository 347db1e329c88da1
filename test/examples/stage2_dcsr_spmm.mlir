// Round trip of the stage II program stage2/dcsr_spmm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/dcsr_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @dcsr_spmm
//       CHECK: %[[ONE:.*]] = arith.constant 1 : index
//       CHECK: %[[O:.*]] = sparse_iter.dense_fixed %[[ONE]]
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[O]], %arg0, %arg1 length %arg7 nnz %arg9 sorted
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg8 nnz %arg10 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg6
//       CHECK: %[[ID:.*]] = sparse_iter.dense_variable %[[O]], %arg0 length %arg7 nnz %arg9
//       CHECK: %[[IP:.*]] = sparse_iter.match_buffer %arg0[%[[O]]] extra 1 : memref<?xi32> -> <1, i32>
//       CHECK: %[[IX:.*]] = sparse_iter.match_buffer %arg1[%[[O]], %[[ID]]] : memref<?xi32> -> <2, i32>
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[ID]], %arg2 length %arg8 nnz %arg10
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg2[%[[O]], %[[ID]]] extra 1 : memref<?xi32> -> <2, i32>
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg3[%[[O]], %[[ID]], %[[JD]]] : memref<?xi32> -> <3, i32>
//       CHECK: sparse_pos.assume_domain %[[IP]] in [%[[C0:.*]], %arg9]
//       CHECK: sparse_pos.assume_domain %[[IX]] in [%[[C0]], %arg7]
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0]], %arg10]
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg8]
//       CHECK: sparse_pos.for "zero_i" spatial %[[C0]] to %arg7 {
//       CHECK: sparse_pos.for "zero_k" spatial %[[C0]] to %arg11 {
//       CHECK: sparse_pos.for "dcsrmm_o" spatial %[[C0]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[VO:[^:]*]]: index):
//       CHECK: %[[ILEN_LO:.*]] = sparse_pos.load %[[IP]][%[[VO]]] : <1, i32>
//  CHECK-NEXT: %[[ILEN_HI:.*]] = sparse_pos.load %[[IP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[ILEN_LOX:.*]] = arith.index_cast %[[ILEN_LO]] : i32 to index
//  CHECK-NEXT: %[[ILEN_HIX:.*]] = arith.index_cast %[[ILEN_HI]] : i32 to index
//  CHECK-NEXT: %[[ILEN:.*]] = arith.subi %[[ILEN_HIX]], %[[ILEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "dcsrmm_i" spatial %[[C0]] to %[[ILEN]] {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: %[[ROW32:.*]] = sparse_pos.load %[[IX]][%[[VO]], %[[VI]]]
//  CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[ROW32]]
//       CHECK: %[[JLEN_LO:.*]] = sparse_pos.load %[[JP]][%[[VO]], %[[VI]]] : <2, i32>
//  CHECK-NEXT: %[[JLEN_HI:.*]] = sparse_pos.load %[[JP]][%[[VO]], %{{.*}}] : <2, i32>
//  CHECK-NEXT: %[[JLEN_LOX:.*]] = arith.index_cast %[[JLEN_LO]] : i32 to index
//  CHECK-NEXT: %[[JLEN_HIX:.*]] = arith.index_cast %[[JLEN_HI]] : i32 to index
//  CHECK-NEXT: %[[JLEN:.*]] = arith.subi %[[JLEN_HIX]], %[[JLEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "dcsrmm_j" reduction %[[C0]] to %[[JLEN]] {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[JX]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]]
//  CHECK-NEXT: sparse_pos.for "dcsrmm_k" spatial %[[C0]] to %arg11 {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[C]][%[[ROW]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VO]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[COL]], %[[VK]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[C]][%[[ROW]], %[[VK]]]
