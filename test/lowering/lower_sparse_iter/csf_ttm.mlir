// lower-sparse-iter on csf_ttm: "ttm" [I, J, K, L] "SSRS" over a CSF tensor.
// The init nest over L sits inside the I and J loops, before the reduction
// loop over K; K's auxiliary buffers are over its ancestors (I, J). Y shares
// A's (I, J) and is addressed by the loop positions; B is over the detached
// K and uses K's coordinate.
// RUN: sptir-opt %examples/csf_ttm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/csf_ttm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr_j, %arg1 indices_j, %arg2 indptr_k, %arg3 indices_k,
// %arg4 a, %arg5 b, %arg6 y, %arg7 m, %arg8 n, %arg9 p, %arg10 nnz_j,
// %arg11 nnz_k, %arg12 feat.
// CHECK-LABEL: func.func @csf_ttm
//       CHECK: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg7
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg8 nnz %arg10 sorted
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg8 nnz %arg10 : memref<?xi32>
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg8, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[JPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JPTR]] in [%[[Z1]], %arg10] : <1, i32>
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.sparse_variable %[[J]], %arg2, %arg3 length %arg9 nnz %arg11 sorted
//  CHECK-NEXT: %[[KV:[^ ]+]] = sparse_iter.dense_variable %[[J]], %arg2 length %arg9 nnz %arg11 : memref<?xi32>
//  CHECK-NEXT: %[[KIDX:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[I]], %[[J]], %[[KV]]] : memref<?xi32> -> <3, i32>
//  CHECK-NEXT: %[[ONE_Z2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z2:[^ ]+]] = arith.subi %arg9, %[[ONE_Z2]] : index
//  CHECK-NEXT: %[[Z2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[KIDX]] in [%[[Z2]], %[[HI_Z2]]] : <3, i32>
//  CHECK-NEXT: %[[KPTR:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]] extra 1 : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[Z3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[KPTR]] in [%[[Z3]], %arg11] : <2, i32>
//  CHECK-NEXT: %[[KD:[^ ]+]] = sparse_iter.dense_fixed %arg9
//  CHECK-NEXT: %[[L:[^ ]+]] = sparse_iter.dense_fixed %arg12
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[I]], %[[J]], %[[K]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg5[%[[KD]], %[[L]]]
//  CHECK-NEXT: %[[Y:[^ ]+]] = sparse_iter.match_buffer %arg6[%[[I]], %[[J]], %[[L]]]

//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ttm.0" spatial %[[L0]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE1:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT1:[^ ]+]] = arith.addi %[[PI]], %[[ONE1]] : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PI]]] : <1, i32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[NEXT1]]] : <1, i32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//  CHECK-NEXT: sparse_pos.for "ttm.1" spatial %[[L1]] to %[[LEN1]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[JC:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: arith.index_cast %[[JC]] : i32 to index

// Init nest over L before the reduction loop.
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ttm.init.1" spatial %[[L2]] to %arg12 {
//  CHECK-NEXT: ^bb0(%[[PIL:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[Y]][%[[PI]], %[[PJ]], %[[PIL]]] : <3, f32>
//  CHECK-NEXT: }

// K's extent: indptr_k at (i, j + 1) and (i, j).
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT2:[^ ]+]] = arith.addi %[[PJ]], %[[ONE2]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = sparse_pos.load %[[KPTR]][%[[PI]], %[[PJ]]] : <2, i32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = sparse_pos.load %[[KPTR]][%[[PI]], %[[NEXT2]]] : <2, i32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//  CHECK-NEXT: sparse_pos.for "ttm.2" reduction %[[L3]] to %[[LEN2]] {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
//  CHECK-NEXT: %[[KC:[^ ]+]] = sparse_pos.load %[[KIDX]][%[[PI]], %[[PJ]], %[[PK]]] : <3, i32>
//  CHECK-NEXT: %[[KCX:[^ ]+]] = arith.index_cast %[[KC]] : i32 to index
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ttm.3" spatial %[[L4]] to %arg12 {
//  CHECK-NEXT: ^bb0(%[[PL:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[Y]][%[[PI]], %[[PJ]], %[[PL]]] : <3, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PI]], %[[PJ]], %[[PK]]] : <3, f32>
//  CHECK-NEXT: %[[BV:[^ ]+]] = sparse_pos.load %[[B]][%[[KCX]], %[[PL]]] : <2, f32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[Y]][%[[PI]], %[[PJ]], %[[PL]]] : <3, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
