// lower-sparse-iter on sddmm: "sddmm" [I, J, K] "SSR" walks the rows, the
// stored columns of each row, then the reduction over K. Every axis before
// the reduction is spatial, so the init nest opens no loop: the init store
// sits directly in the J loop, before the K loop.
// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// GONE-NOT: sparse_pos.find

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 x, %arg4 y, %arg5 b,
// %arg6 m, %arg7 n, %arg8 nnz, %arg9 feat.
// CHECK-LABEL: func.func @sddmm
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

//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "sddmm.0" spatial %[[L0]] to %arg6 {
//  CHECK-NEXT: ^bb0(%[[PI:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[NEXT:[^ ]+]] = arith.addi %[[PI]], %[[ONE]] : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[PI]]] : <1, i32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = sparse_pos.load %[[JPTR]][%[[NEXT]]] : <1, i32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//  CHECK-NEXT: sparse_pos.for "sddmm.1" spatial %[[L1]] to %[[LEN]] {
//  CHECK-NEXT: ^bb0(%[[PJ:[^:]+]]: index):
//  CHECK-NEXT: %[[COL:[^ ]+]] = sparse_pos.load %[[JIDX]][%[[PI]], %[[PJ]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index

// The init region, once per (i, j), before the reduction loop.
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[B]][%[[PI]], %[[PJ]]] : <2, f32>
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "sddmm.2" reduction %[[L2]] to %arg9 {
//  CHECK-NEXT: ^bb0(%[[PK:[^:]+]]: index):
// B and A share (I, J) and use the loop positions; Y is over the detached J
// and uses the column coordinate.
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
//  CHECK-NEXT: }
//  CHECK-NEXT: return
