// Round trip of the stage II program stage2/rgms.mlir: it parses and verifies,
// printing is a fixed point, and the printed form keeps its loop structure.
// RUN: sptir-opt %examples/stage2/rgms.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @rgms
//       CHECK: %[[R:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: %[[I:.*]] = sparse_iter.sparse_variable %[[R]], %arg0, %arg1 length %arg9 nnz %arg11 sorted
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %arg2, %arg3 length %arg10 nnz %arg12 sorted
//       CHECK: %[[A:.*]] = sparse_iter.match_buffer %arg4
//       CHECK: %[[W:.*]] = sparse_iter.match_buffer %arg5
//       CHECK: %[[X:.*]] = sparse_iter.match_buffer %arg6
//       CHECK: %[[Y:.*]] = sparse_iter.match_buffer %arg7
//       CHECK: %[[ID:.*]] = sparse_iter.dense_variable %[[R]], %arg0 length %arg9 nnz %arg11
//       CHECK: %[[IP:.*]] = sparse_iter.match_buffer %arg0[%[[R]]] extra 1
//       CHECK: %[[IX:.*]] = sparse_iter.match_buffer %arg1[%[[R]], %[[ID]]]
//       CHECK: %[[JD:.*]] = sparse_iter.dense_variable %[[ID]], %arg2 length %arg10 nnz %arg12
//       CHECK: %[[JP:.*]] = sparse_iter.match_buffer %arg2[%[[R]], %[[ID]]] extra 1
//       CHECK: %[[JX:.*]] = sparse_iter.match_buffer %arg3[%[[R]], %[[ID]], %[[JD]]]
//       CHECK: sparse_pos.assume_domain %[[IP]] in [%[[C0:.*]], %arg11]
//       CHECK: sparse_pos.assume_domain %[[IX]] in [%[[C0]], %arg9]
//       CHECK: sparse_pos.assume_domain %[[JP]] in [%[[C0]], %arg12]
//       CHECK: sparse_pos.assume_domain %[[JX]] in [%[[C0]], %arg10]
//       CHECK: sparse_pos.for "zero_i" spatial %[[C0]] to %arg9 {
//       CHECK: sparse_pos.for "zero_fo" spatial %[[C0]] to %arg14 {
//       CHECK: sparse_pos.for "rgms_r" reduction %[[C0]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[VR:[^:]*]]: index):
//       CHECK: %[[ILEN_LO:.*]] = sparse_pos.load %[[IP]][%[[VR]]] : <1, i32>
//  CHECK-NEXT: %[[ILEN_HI:.*]] = sparse_pos.load %[[IP]][%{{.*}}] : <1, i32>
//  CHECK-NEXT: %[[ILEN_LOX:.*]] = arith.index_cast %[[ILEN_LO]] : i32 to index
//  CHECK-NEXT: %[[ILEN_HIX:.*]] = arith.index_cast %[[ILEN_HI]] : i32 to index
//  CHECK-NEXT: %[[ILEN:.*]] = arith.subi %[[ILEN_HIX]], %[[ILEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "rgms_i" spatial %[[C0]] to %[[ILEN]] {
//  CHECK-NEXT: ^bb0(%[[VI:[^:]*]]: index):
//  CHECK-NEXT: %[[ROW32:.*]] = sparse_pos.load %[[IX]][%[[VR]], %[[VI]]]
//  CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[ROW32]]
//       CHECK: %[[JLEN_LO:.*]] = sparse_pos.load %[[JP]][%[[VR]], %[[VI]]] : <2, i32>
//  CHECK-NEXT: %[[JLEN_HI:.*]] = sparse_pos.load %[[JP]][%[[VR]], %{{.*}}] : <2, i32>
//  CHECK-NEXT: %[[JLEN_LOX:.*]] = arith.index_cast %[[JLEN_LO]] : i32 to index
//  CHECK-NEXT: %[[JLEN_HIX:.*]] = arith.index_cast %[[JLEN_HI]] : i32 to index
//  CHECK-NEXT: %[[JLEN:.*]] = arith.subi %[[JLEN_HIX]], %[[JLEN_LOX]] : index

//  CHECK-NEXT: sparse_pos.for "rgms_j" reduction %[[C0]] to %[[JLEN]] {
//  CHECK-NEXT: ^bb0(%[[VJ:[^:]*]]: index):
//  CHECK-NEXT: %[[COL32:.*]] = sparse_pos.load %[[JX]][%[[VR]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[COL32]]
//  CHECK-NEXT: sparse_pos.for "rgms_fo" spatial %[[C0]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[VFO:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.for "rgms_fi" reduction %[[C0]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[VFI:[^:]*]]: index):
//  CHECK-NEXT: sparse_pos.load %[[Y]][%[[ROW]], %[[VFO]]]
//  CHECK-NEXT: sparse_pos.load %[[A]][%[[VR]], %[[VI]], %[[VJ]]]
//  CHECK-NEXT: sparse_pos.load %[[W]][%[[VR]], %[[VFO]], %[[VFI]]]
//  CHECK-NEXT: sparse_pos.load %[[X]][%[[COL]], %[[VFI]]]
//       CHECK: sparse_pos.store %{{.*}}, %[[Y]][%[[ROW]], %[[VFO]]]
