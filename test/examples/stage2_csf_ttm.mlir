// Round trip of the stage II program stage2/csf_ttm.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/csf_ttm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @csf_ttm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg7
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg8 nnz %arg10 sorted
//       CHECK: %[[K:.*]] = sparse_iter.sparse_variable %[[J]], %arg2, %arg3 length %arg9 nnz %arg11 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg5
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg6
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg8 nnz %arg10
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JD]]]
//       CHECK: %[[KD:.*]] = sparse_iter.dense_variable %[[JD]], %arg2 length %arg9 nnz %arg11
//       CHECK: %[[KP:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[JD]]] extra 1 : memref<?xi32> -> <2, i32>
//       CHECK: %[[KX:.*]] = sparse_iter.match_buffer %arg3[%[[I]], %[[JD]], %[[KD]]] : memref<?xi32> -> <3, i32>
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0:.*]], %arg10]
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg8]
//       CHECK: sparse_pos.assume_domain %[[KP]] in [%[[C0]], %arg11]
//       CHECK: sparse_pos.assume_domain %[[KX]] in [%[[C0]], %arg9]
//       CHECK: sparse_pos.for "ttm_i" spatial %[[C0]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//       CHECK: %[[JLEN_LO:.*]] = sparse_pos.load %[[JP]][%[[VI]]] : <1, i32>
//  CHECK-NEXT: %[[JLEN_HI:.*]] = sparse_pos.load %[[JP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[JLEN_LOX:.*]] = arith.index_cast %[[JLEN_LO]] : i32 to index
//  CHECK-NEXT: %[[JLEN_HIX:.*]] = arith.index_cast %[[JLEN_HI]] : i32 to index
//  CHECK-NEXT: %[[JLEN:.*]] = arith.subi %[[JLEN_HIX]], %[[JLEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "ttm_j" spatial %[[C0]] to %[[JLEN]] {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "ttm_init_l" spatial %[[C0]] to %arg12 {
//  CHECK-NEXT: ^bb0(%[[IL:[^:]*]]: index):
//       CHECK: sparse_pos.store %{{.*}}, %[[Y]][%[[VI]], %[[VJ]], %[[IL]]]
//       CHECK: %[[KLEN_LO:.*]] = sparse_pos.load %[[KP]][%[[VI]], %[[VJ]]] : <2, i32>
//  CHECK-NEXT: %[[KLEN_HI:.*]] = sparse_pos.load %[[KP]][%[[VI]], %{{.*}}] : <2, i32>
//  CHECK-NEXT: %[[KLEN_LOX:.*]] = arith.index_cast %[[KLEN_LO]] : i32 to index
//  CHECK-NEXT: %[[KLEN_HIX:.*]] = arith.index_cast %[[KLEN_HI]] : i32 to index
//  CHECK-NEXT: %[[KLEN:.*]] = arith.subi %[[KLEN_HIX]], %[[KLEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "ttm_k" reduction %[[C0]] to %[[KLEN]] {
//  CHECK-NEXT: ^bb0(%[[VK:[^:]*]]: index):
//  CHECK-NEXT: %[[KC32:.*]] = sparse_pos.load %[[KX]][%[[VI]], %[[VJ]], %[[VK]]]
//  CHECK-NEXT: %[[KC:.*]] = arith.index_cast %[[KC32]]
//  CHECK-NEXT: sparse_pos.for "ttm_l" spatial %[[C0]] to %arg12 {
//  CHECK-NEXT: ^bb0(%[[VL:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[Y]][%[[VI]], %[[VJ]], %[[VL]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VI]], %[[VJ]], %[[VK]]]
//  CHECK-NEXT: sparse_pos.load %[[B]][%[[KC]], %[[VL]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[Y]][%[[VI]], %[[VJ]], %[[VL]]]
