// Round trip of bsr_spmm.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/bsr_spmm.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @bsr_spmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed %arg5
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg6
//       CHECK: %[[BI:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[BJ:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[F:.*]] = sparse_iter.dense_fixed %arg9
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]], %[[BI]], %[[BJ]]] : memref<?xf32> -> <4, f32>
//       CHECK: %[[B:.*]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[BJ]], %[[F]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[C:.*]] = sparse_iter.match_buffer %arg4[%[[I]], %[[BI]], %[[F]]] : memref<?xf32> -> <3, f32>
//       CHECK: sparse_iter.iterate "bsrmm" [%[[I]], %[[BI]], %[[BJ]], %[[F]], %[[J]]] "SSRSR" init {
//  CHECK-NEXT: ^bb0(%[[II:[^:]*]]: index, %[[IBI:[^:]*]]: index, %[[IF:[^:]*]]: index):
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[II]], %[[IBI]], %[[IF]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index, %[[VBI:[^:]*]]: index, %[[VBJ:[^:]*]]: index, %[[VF:[^:]*]]: index, %[[VJ:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[C]][%[[VI]], %[[VBI]], %[[VF]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VI]], %[[VJ]], %[[VBI]], %[[VBJ]]]
//  CHECK-NEXT: sparse_iter.load %[[B]][%[[VJ]], %[[VBJ]], %[[VF]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[C]][%[[VI]], %[[VBI]], %[[VF]]]
