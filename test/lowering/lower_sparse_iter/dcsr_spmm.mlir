// lower-sparse-iter on dcsr_spmm: three levels O (dense, length 1),
// I = sparse_variable(O), J = sparse_variable(I). J's auxiliary buffers are
// over both ancestors (O, I), and every extent and coordinate load uses the
// positions of the enclosing loops. C is over the detached row axis, so it
// is addressed by the row coordinate.
// RUN: sptir-opt %examples/dcsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/dcsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr_i, %arg1 indices_i, %arg2 indptr_j, %arg3 indices_j,
// %arg4 a, %arg5 b, %arg6 c, %arg7 m, %arg8 n, %arg9 nnz_rows, %arg10 nnz,
// %arg11 feat.
// CHECK-LABEL: func.func @dcsr_spmm
//       CHECK: %[[ONE0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[O:[^ ]+]] = sparse_iter.dense_fixed %[[ONE0]]
//  CHECK-NEXT: %[[I:[^ ]+]] = sparse_iter.sparse_variable %[[O]], %arg0, %arg1 length %arg7 nnz %arg9 sorted
//  CHECK-NEXT: %[[IV:[^ ]+]] = sparse_iter.dense_variable %[[O]], %arg0 length %arg7 nnz %arg9 : memref<?xi32>
//  CHECK-NEXT: %[[IIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[O]], %[[IV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg7, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[IPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[O]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IPTR]] in [%[[Z1]], %arg9] : <1, i32>
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg8 nnz %arg10 sorted
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_variable %[[I]], %arg2 length %arg8 nnz %arg10 : memref<?xi32>
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[O]], %[[I]], %[[JV]]] : memref<?xi32> -> <3, i32>
//  CHECK-NEXT: %[[ONE_Z2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z2:[^ ]+]] = arith.subi %arg8, %[[ONE_Z2]] : index
//  CHECK-NEXT: %[[Z2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z2]], %[[HI_Z2]]] : <3, i32>
//  CHECK-NEXT: %[[JPTR:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[O]], %[[I]]] extra 1 : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[Z3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JPTR]] in [%[[Z3]], %arg10] : <2, i32>
//  CHECK-NEXT: %[[ID:[^ ]+]] = sparse_iter.dense_fixed %arg7
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg11
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[O]], %[[I]], %[[J]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg5[%[[JD]], %[[K]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg6[%[[ID]], %[[K]]]

// "zero" over (I_detach, K).
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.0" spatial %[[L0]] to %arg7 {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.1" spatial %[[L1]] to %arg11 {
//  CHECK-NEXT: ^bb0(%[[ZK:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[ZI]], %[[ZK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// "dcsrmm": O has the fixed length 1.
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "dcsrmm.0" spatial %[[L2]] to %[[ONE0]] {
//  CHECK-NEXT: ^bb0(%[[PO:[^:]+]]: index):
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE1:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT1:[^ ]+]] = arith.addi %[[PO]], %[[ONE1]] : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[PO]]] : <1, i32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[NEXT1]]] : <1, i32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//  CHECK-NEXT: sparse_pos.for "dcsrmm.1" spatial %[[L3]] to %[[LEN1]] {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[ROW:[^ ]+]] = sparse_pos.load %[[IIDX]][%[[PO]], %[[PI]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index

// J's extent: indptr_j at (o, i + 1) and (o, i).
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT2:[^ ]+]] = arith.addi %[[PI]], %[[ONE2]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PO]], %[[PI]]] : <2, i32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PO]], %[[NEXT2]]] : <2, i32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//  CHECK-NEXT: sparse_pos.for "dcsrmm.2" reduction %[[L4]] to %[[LEN2]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PO]], %[[PI]], %[[PJ]]] : <3, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//  CHECK-NEXT: %[[L5:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "dcsrmm.3" spatial %[[L5]] to %arg11 {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[ROWX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PO]], %[[PI]], %[[PJ]]] : <3, f32>
//  CHECK-NEXT: %[[BV:[^ ]+]] = sparse_pos.load %[[B]][%[[COLX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[C]][%[[ROWX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
