// lower-sparse-iter on csr_spmm: "csrmm" [I, J, K] "SRS" becomes three
// position loops; the init nest (over K) sits inside the I loop, before the
// reduction loop over J.
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 m, %arg6 n, %arg7 nnz, %arg8 feat.
// CHECK-LABEL: func.func @csr_spmm
//       CHECK: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg5
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted

// Auxiliary buffers of J, right after its definition: indices over (I, a
// dense_variable view of J), indptr over (I) with one extra slot.
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
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[K]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[I]], %[[K]]]

// Loop over I: fixed length m.
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "csrmm.0" spatial %[[L0]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):

// Init nest over K before the reduction loop; C is stored at (I, K).
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "csrmm.init.1" spatial %[[L1]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[PIK:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[PI]], %[[PIK]]] : <2, f32>
//  CHECK-NEXT: }

// Loop over J: extent indptr[i + 1] - indptr[i].
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT:[^ ]+]] = arith.addi %[[PI]], %[[ONE]] : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PI]]] : <1, i32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[NEXT]]] : <1, i32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//  CHECK-NEXT: sparse_pos.for "csrmm.1" reduction %[[L2]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
// The column coordinate of J, read from indices at (i, j).
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] : <2, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index

// Loop over K, then the body: C and A use loop positions, B (over the
// detached J) uses the column coordinate.
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "csrmm.2" spatial %[[L3]] to %arg8 {
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
