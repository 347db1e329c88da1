// lower-sparse-iter on bsr_spmm: "bsrmm" [I, BI, BJ, F, J] "SSRSR" becomes
// five loops; the init nest over F sits inside I and BI, before the first
// reduction loop (BJ). J's extent is read under I's position, which an outer
// loop walks.
// RUN: sptir-opt %examples/bsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/bsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 nb, %arg6 mb, %arg7 nnzb, %arg8 blk, %arg9 feat.
// CHECK-LABEL: func.func @bsr_spmm
//       CHECK: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg5
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg6 nnz %arg7 : memref<?xi32>
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg6, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[JPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JPTR]] in [%[[Z1]], %arg7] : <1, i32>
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[BI:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[BJ:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[F:[^ ]+]] = sparse_iter.dense_fixed %arg9
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]], %[[BI]], %[[BJ]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[BJ]], %[[F]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[I]], %[[BI]], %[[F]]]

//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.0" spatial %[[L0]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.1" spatial %[[L1]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[PBI:[^:]+]]: index):

// Init nest over F, before the reduction loop over BJ.
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.init.1" spatial %[[L2]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[PIF:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[PI]], %[[PBI]], %[[PIF]]] : <3, f32>
//  CHECK-NEXT: }

//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.2" reduction %[[L3]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[PBJ:[^:]+]]: index):
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.3" spatial %[[L4]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[PF:[^:]+]]: index):

// J, innermost: extent under I's position.
//  CHECK-NEXT: %[[L5:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT:[^ ]+]] = arith.addi %[[PI]], %[[ONE]] : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PI]]] : <1, i32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[NEXT]]] : <1, i32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//  CHECK-NEXT: sparse_pos.for "bsrmm.4" reduction %[[L5]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] : <2, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index

// A's positions follow its axes (I, J, BI, BJ); B is over the detached J.
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[PI]], %[[PBI]], %[[PF]]] : <3, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PI]], %[[PJ]], %[[PBI]], %[[PBJ]]] : <4, f32>
//  CHECK-NEXT: %[[BV:[^ ]+]] = sparse_pos.load %[[B]][%[[COLX]], %[[PBJ]], %[[PF]]] : <3, f32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[C]][%[[PI]], %[[PBI]], %[[PF]]] : <3, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
