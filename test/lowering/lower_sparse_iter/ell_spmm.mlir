// lower-sparse-iter on ell_spmm: the sparse_fixed column axis J has a fixed
// extent (nnz_cols) and no indptr; its indices become a buffer over
// (I, dense_fixed(nnz_cols)).
// RUN: sptir-opt %examples/ell_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/ell_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: extra 1
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indices, %arg1 a, %arg2 b, %arg3 c, %arg4 m, %arg5 n,
// %arg6 nnz_cols, %arg7 feat.
// CHECK-LABEL: func.func @ell_spmm
//       CHECK: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg4
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_fixed %[[I]], %arg0 length %arg5 nnz_cols %arg6 : memref<?xi32>
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[I]], %[[JV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg5, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg5
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg7
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[I]], %[[J]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[JD]], %[[K]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[I]], %[[K]]]

//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ellmm.0" spatial %[[L0]] to %arg4 {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ellmm.init.1" spatial %[[L1]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[PIK:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[PI]], %[[PIK]]] : <2, f32>
//  CHECK-NEXT: }

// J: fixed extent nnz_cols, no indptr loads.
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ellmm.1" reduction %[[L2]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] : <2, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "ellmm.2" spatial %[[L3]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[PI]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: %[[BV:[^ ]+]] = sparse_pos.load %[[B]][%[[COLX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[C]][%[[PI]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
