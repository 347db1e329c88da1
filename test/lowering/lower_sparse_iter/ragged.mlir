// lower-sparse-iter on ragged: the dense_variable sequence axis L has an
// indptr (extent indptr[b + 1] - indptr[b]) but no indices: its position is
// its coordinate and no indices buffer is made.
// RUN: sptir-opt %examples/ragged.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/ragged.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr, %arg1 x, %arg2 s, %arg3 batch, %arg4 maxlen,
// %arg5 total, %arg6 feat.
// CHECK-LABEL: func.func @ragged
//       CHECK: %[[B:[^ ]+]] = sparse_iter.dense_fixed %arg3
//  CHECK-NEXT: %[[L:[^ ]+]] = sparse_iter.dense_variable %[[B]], %arg0 length %arg4 nnz %arg5 : memref<?xi32>
//  CHECK-NEXT: %[[LPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[B]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[LPTR]] in [%[[Z0]], %arg5] : <1, i32>
//  CHECK-NEXT: %[[F:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[X:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[B]], %[[L]], %[[F]]]
//  CHECK-NEXT: %[[S:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[B]], %[[F]]]

//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "seqsum.0" spatial %[[L0]] to %arg3 {
//  CHECK-NEXT: ^bb0(%[[PB:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "seqsum.init.1" spatial %[[L1]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[PIF:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[S]][%[[PB]], %[[PIF]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT:[^ ]+]] = arith.addi %[[PB]], %[[ONE]] : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = sparse_pos.load %[[LPTR]][%[[PB]]] : <1, i32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = sparse_pos.load %[[LPTR]][%[[NEXT]]] : <1, i32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//  CHECK-NEXT: sparse_pos.for "seqsum.1" reduction %[[L2]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[PL:[^:]+]]: index):
// No indices load: the next op opens the F loop.
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "seqsum.2" spatial %[[L3]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[PF:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[S]][%[[PB]], %[[PF]]] : <2, f32>
//  CHECK-NEXT: %[[XV:[^ ]+]] = sparse_pos.load %[[X]][%[[PB]], %[[PL]], %[[PF]]] : <3, f32>
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[XV]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[S]][%[[PB]], %[[PF]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
