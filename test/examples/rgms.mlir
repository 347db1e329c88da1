// Round trip of rgms.mlir: it parses and verifies, printing is a fixed point,
// and the printed form keeps the program's structure.
// RUN: sptir-opt %examples/rgms.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @rgms
//       CHECK: %[[R:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[R]], %arg0, %arg1 length %arg9 nnz %arg11 sorted
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg10 nnz %arg12 sorted
//       CHECK: %[[ID:.*]] = sparse_iter.dense_fixed %arg9
//       CHECK: %[[JD:.*]] = sparse_iter.dense_fixed %arg10
//       CHECK: %[[FI:.*]] = sparse_iter.dense_fixed %arg13
//       CHECK: %[[FO:.*]] = sparse_iter.dense_fixed %arg14
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4[%[[R]], %[[I]], %[[J]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[W:.*]] = sparse_iter.match_buffer %arg5[%[[R]], %[[FO]], %[[FI]]] : memref<?xf32> -> <3, f32>
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg6[%[[JD]], %[[FI]]]
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg7[%[[ID]], %[[FO]]]
//       CHECK: sparse_iter.iterate "zero" [%[[ID]], %[[FO]]] "SS" body {
//       CHECK: sparse_iter.iterate "rgms" [%[[R]], %[[I]], %[[J]], %[[FO]], %[[FI]]] "RSRSR" body {
//  CHECK-NEXT: ^bb0(%[[VR:[^:]*]]: index, %[[VI:[^:]*]]: index, %[[VJ:[^:]*]]: index, %[[VFO:[^:]*]]: index, %[[VFI:[^:]*]]: index):
//  CHECK-NEXT: sparse_iter.load %[[Y]][%[[VI]], %[[VFO]]]
//  CHECK-NEXT: sparse_iter.load %[[A]][%[[VR]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_iter.load %[[W]][%[[VR]], %[[VFO]], %[[VFI]]]
//  CHECK-NEXT: sparse_iter.load %[[X]][%[[VJ]], %[[VFI]]]
//       CHECK: sparse_iter.store %{{.*}}, %[[Y]][%[[VI]], %[[VFO]]]
