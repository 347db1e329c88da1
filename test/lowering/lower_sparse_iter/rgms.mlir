// lower-sparse-iter on rgms: "rgms" [R, I, J, FO, FI] "RSRSR" (no init) walks
// relations (reduction), the rows of each relation, their columns, then FO
// and FI. Y is over the detached row axis (row coordinate), X over the
// detached column axis (column coordinate), W over (R, FO, FI) (positions of
// dense axes).
// RUN: sptir-opt %examples/rgms.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/rgms.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr_i, %arg1 indices_i, %arg2 indptr_j, %arg3 indices_j,
// %arg4 a, %arg5 w, %arg6 x, %arg7 y, %arg8 num_rel, %arg9 m, %arg10 n,
// %arg11 nnz_rows, %arg12 nnz, %arg13 feat_in, %arg14 feat_out.
// CHECK-LABEL: func.func @rgms
//       CHECK: %[[R:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[I:[^ ]+]] = sparse_iter.sparse_variable %[[R]], %arg0, %arg1 length %arg9 nnz %arg11 sorted
//  CHECK-NEXT: %[[IV:[^ ]+]] = sparse_iter.dense_variable %[[R]], %arg0 length %arg9 nnz %arg11 : memref<?xi32>
//  CHECK-NEXT: %[[IIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[R]], %[[IV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg9, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[IPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[R]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[IPTR]] in [%[[Z1]], %arg11] : <1, i32>
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg10 nnz %arg12 sorted
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_variable %[[I]], %arg2 length %arg10 nnz %arg12 : memref<?xi32>
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[R]], %[[I]], %[[JV]]] : memref<?xi32> -> <3, i32>
//  CHECK-NEXT: %[[ONE_Z2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z2:[^ ]+]] = arith.subi %arg10, %[[ONE_Z2]] : index
//  CHECK-NEXT: %[[Z2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z2]], %[[HI_Z2]]] : <3, i32>
//  CHECK-NEXT: %[[JPTR:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[R]], %[[I]]] extra 1 : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[Z3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JPTR]] in [%[[Z3]], %arg12] : <2, i32>
//  CHECK-NEXT: %[[ID:[^ ]+]] = sparse_iter.dense_fixed %arg9
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg10
//  CHECK-NEXT: %[[FI:[^ ]+]] = sparse_iter.dense_fixed %arg13
//  CHECK-NEXT: %[[FO:[^ ]+]] = sparse_iter.dense_fixed %arg14
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[R]], %[[I]], %[[J]]]
//  CHECK-NEXT: %[[W:[^ ]+]] = sparse_iter.match_buffer %arg5[%[[R]], %[[FO]], %[[FI]]]
//  CHECK-NEXT: %[[X:[^ ]+]] = sparse_iter.match_buffer %arg6[%[[JD]], %[[FI]]]
//  CHECK-NEXT: %[[Y:[^ ]+]] = sparse_iter.match_buffer %arg7[%[[ID]], %[[FO]]]

// "zero" over (I_detach, FO).
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.0" spatial %[[L0]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.1" spatial %[[L1]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[ZO:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[Y]][%[[ZI]], %[[ZO]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }

//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "rgms.0" reduction %[[L2]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[PR:[^:]+]]: index):
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE1:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT1:[^ ]+]] = arith.addi %[[PR]], %[[ONE1]] : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[PR]]] : <1, i32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = sparse_pos.load %[[IPTR]][%[[NEXT1]]] : <1, i32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//  CHECK-NEXT: sparse_pos.for "rgms.1" spatial %[[L3]] to %[[LEN1]] {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[ROW:[^ ]+]] = sparse_pos.load %[[IIDX]][%[[PR]], %[[PI]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT2:[^ ]+]] = arith.addi %[[PI]], %[[ONE2]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PR]], %[[PI]]] : <2, i32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PR]], %[[NEXT2]]] : <2, i32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//  CHECK-NEXT: sparse_pos.for "rgms.2" reduction %[[L4]] to %[[LEN2]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PR]], %[[PI]], %[[PJ]]] : <3, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//  CHECK-NEXT: %[[L5:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "rgms.3" spatial %[[L5]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[PFO:[^:]+]]: index):
//  CHECK-NEXT: %[[L6:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "rgms.4" reduction %[[L6]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[PFI:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[Y]][%[[ROWX]], %[[PFO]]] : <2, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PR]], %[[PI]], %[[PJ]]] : <3, f32>
//  CHECK-NEXT: %[[WV:[^ ]+]] = sparse_pos.load %[[W]][%[[PR]], %[[PFO]], %[[PFI]]] : <3, f32>
//  CHECK-NEXT: %[[XV:[^ ]+]] = sparse_pos.load %[[X]][%[[COLX]], %[[PFI]]] : <2, f32>
//  CHECK-NEXT: %[[AW:[^ ]+]] = arith.mulf %[[AV]], %[[WV]] : f32
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AW]], %[[XV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[Y]][%[[ROWX]], %[[PFO]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
