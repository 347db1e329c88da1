// lower-sparse-iter on sddmm_fused: fuse(I, J) is one loop over the nnz
// non-zeros of (I, J). The row position comes back through
// sparse_pos.parent_position, the position within the row is the flat
// position minus indptr[row]; the init store sits in the fused loop, before
// the reduction loop over K.
// RUN: sptir-opt %examples/sddmm_fused.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/sddmm_fused.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 x, %arg4 y, %arg5 b,
// %arg6 m, %arg7 n, %arg8 nnz, %arg9 feat.
// CHECK-LABEL: func.func @sddmm_fused
//       CHECK: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg7 nnz %arg8 sorted
//  CHECK-NEXT: %[[JV:[^ ]+]] = sparse_iter.dense_variable %[[I]], %arg0 length %arg7 nnz %arg8 : memref<?xi32>
//  CHECK-NEXT: %[[JIDX:[^ ]+]] = sparse_iter.match_buffer %arg1[%[[I]], %[[JV]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg7, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JIDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[JPTR:[^ ]+]] = sparse_iter.match_buffer %arg0[%[[I]]] extra 1 : memref<?xi32> -> <1, i32>
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[JPTR]] in [%[[Z1]], %arg8] : <1, i32>
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg7
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg9
//  CHECK-NEXT: %[[X:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[I]], %[[K]]]
//  CHECK-NEXT: %[[Y:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[JD]], %[[K]]]
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]]
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg5[%[[I]], %[[J]]]

// One loop over the nnz positions of the fused space.
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "sddmm.0" spatial %[[L0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[FLAT:[^:]+]]: index):
//  CHECK-NEXT: %[[PI:[^ ]+]] = sparse_pos.parent_position %[[J]], %[[FLAT]]
//  CHECK-NEXT: %[[START:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PI]]] : <1, i32>
//  CHECK-NEXT: %[[STARTX:[^ ]+]] = arith.index_cast %[[START]] : i32 to index
//  CHECK-NEXT: %[[PJ:[^ ]+]] = arith.subi %[[FLAT]], %[[STARTX]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] : <2, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[B]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "sddmm.1" reduction %[[L1]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
//  CHECK-NEXT: %[[ACC:[^ ]+]] = sparse_pos.load %[[B]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: %[[XV:[^ ]+]] = sparse_pos.load %[[X]][%[[PI]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[YV:[^ ]+]] = sparse_pos.load %[[Y]][%[[COLX]], %[[PK]]] : <2, f32>
//  CHECK-NEXT: %[[AV:[^ ]+]] = sparse_pos.load %[[A]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: %[[XY:[^ ]+]] = arith.mulf %[[XV]], %[[YV]] : f32
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[XY]], %[[AV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[SUM]], %[[B]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
