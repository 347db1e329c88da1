// lower-sparse-iter on csc_spmm: "zero" [I_detach, K] becomes two dense
// loops; "cscmm" [J, I, K] "RSS" (no init) walks the columns (reduction),
// then the rows of each column, then K. C is over the detached row axis, so
// it is addressed by the row coordinate read from indices.
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 m, %arg6 n, %arg7 nnz, %arg8 feat.
// CHECK-LABEL: func.func @csc_spmm
//       CHECK: %[[J:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[I:[^ ]+]] = sparse_iter.sparse_variable %[[J]], %arg0, %arg1 length %arg5 nnz %arg7 sorted
//  CHECK-NEXT: %[[IV:[^ ]+]] = sparse_iter.dense_variable %[[J]], %arg0 length %arg5 nnz %arg7 : memref<?xi32>
//  CHECK-NEXT: %[[IIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[J]], %[[IV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg5, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[IPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[J]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IPTR]] in [%[[Z1]], %arg7] : <1, i32>
//  CHECK-NEXT: %[[ID:[^ ]+]] = sparse_iter.dense_fixed %arg5
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[J]], %[[I]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[J]], %[[K]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[ID]], %[[K]]]

// "zero": dense loops over (I_detach, K).
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.0" spatial %[[L0]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.1" spatial %[[L1]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[ZK:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[ZI]], %[[ZK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// "cscmm": the column loop is the reduction.
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "cscmm.0" reduction %[[L2]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT:[^ ]+]] = arith.addi %[[PJ]], %[[ONE]] : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[PJ]]] : <1, i32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[NEXT]]] : <1, i32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//  CHECK-NEXT: sparse_pos.for "cscmm.1" spatial %[[L3]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[ROW:[^ ]+]] = sparse_pos.load %[[IIDX]][%[[PJ]], %[[PI]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "cscmm.2" spatial %[[L4]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[ROWX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PJ]], %[[PI]]] : <2, f32>
//  CHECK-NEXT: %[[BV:[^ ]+]] = sparse_pos.load %[[B]][%[[PJ]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[C]][%[[ROWX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
