// lower-sparse-iter on hyb_spmm: the ELL buckets have sparse_fixed axes
// (fixed extents, indices buffers over dense_fixed views, no indptr). The
// copies read A at the bucket's (row, column) coordinates, which no loop
// walks in A's structure: each read is a sparse_pos.find in the row of A
// (the row coordinate is the position of the dense axis I) and an scf.if
// that reads A at the found position or yields A's default value 0.0.
// RUN: sptir-opt %examples/hyb_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %examples/hyb_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.iterate
// GONE-NOT: sparse_iter.load
// GONE-NOT: sparse_iter.store
// The CSR axis J of A is never walked: it gets no auxiliary buffers.
// GONE-NOT: extra 1
// GONE-NOT: sparse_iter.dense_variable

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c, %arg5 m,
// %arg6 n, %arg7 nnz, %arg8 feat; bucket 0: %arg9 rows_0, %arg10 cols_0,
// %arg11 mask_0, %arg12 a_0, %arg13 num_rows_0, %arg14 width_0; bucket 1:
// %arg15 rows_1, %arg16 cols_1, %arg17 mask_1, %arg18 a_1, %arg19 num_rows_1,
// %arg20 width_1.
// CHECK-LABEL: func.func @hyb_spmm
//       CHECK: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[I:[^ ]+]] = sparse_iter.dense_fixed %arg5
//  CHECK-NEXT: %[[J:[^ ]+]] = sparse_iter.sparse_variable %[[I]], %arg0, %arg1 length %arg6 nnz %arg7 sorted
//  CHECK-NEXT: %[[JD:[^ ]+]] = sparse_iter.dense_fixed %arg6
//  CHECK-NEXT: %[[K:[^ ]+]] = sparse_iter.dense_fixed %arg8
//  CHECK-NEXT: %[[A:[^ ]+]] = sparse_iter.match_buffer %arg2[%[[I]], %[[J]]] {default_value = 0.000000e+00 : f32}
//  CHECK-NEXT: %[[B:[^ ]+]] = sparse_iter.match_buffer %arg3[%[[JD]], %[[K]]]
//  CHECK-NEXT: %[[C:[^ ]+]] = sparse_iter.match_buffer %arg4[%[[I]], %[[K]]]

// Bucket 0 and the indices buffers of its sparse_fixed axes.
//  CHECK-NEXT: %[[O0:[^ ]+]] = sparse_iter.dense_fixed %[[ONE]]
//  CHECK-NEXT: %[[I0:[^ ]+]] = sparse_iter.sparse_fixed %[[O0]], %arg9 length %arg5 nnz_cols %arg13 : memref<?xi32>
//  CHECK-NEXT: %[[I0V:[^ ]+]] = sparse_iter.dense_fixed %arg13
//  CHECK-NEXT: %[[I0IDX:[^ ]+]] = sparse_iter.match_buffer %arg9[%[[O0]], %[[I0V]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z0:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z0:[^ ]+]] = arith.subi %arg5, %[[ONE_Z0]] : index
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[I0IDX]] in [%[[Z0]], %[[HI_Z0]]] : <2, i32>
//  CHECK-NEXT: %[[J0:[^ ]+]] = sparse_iter.sparse_fixed %[[I0]], %arg10 length %arg6 nnz_cols %arg14 : memref<?xi32>
//  CHECK-NEXT: %[[J0V:[^ ]+]] = sparse_iter.dense_fixed %arg14
//  CHECK-NEXT: %[[J0IDX:[^ ]+]] = sparse_iter.match_buffer %arg10[%[[O0]], %[[I0]], %[[J0V]]] : memref<?xi32> -> <3, i32>
//  CHECK-NEXT: %[[ONE_Z1:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z1:[^ ]+]] = arith.subi %arg6, %[[ONE_Z1]] : index
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[J0IDX]] in [%[[Z1]], %[[HI_Z1]]] : <3, i32>
//  CHECK-NEXT: %[[A0:[^ ]+]] = sparse_iter.match_buffer %arg12[%[[O0]], %[[I0]], %[[J0]]]
//  CHECK-NEXT: %[[M0:[^ ]+]] = sparse_iter.match_buffer %arg11[%[[O0]], %[[I0]], %[[J0]]]

// Bucket 1.
//  CHECK-NEXT: %[[O1:[^ ]+]] = sparse_iter.dense_fixed %[[ONE]]
//  CHECK-NEXT: %[[I1:[^ ]+]] = sparse_iter.sparse_fixed %[[O1]], %arg15 length %arg5 nnz_cols %arg19 : memref<?xi32>
//  CHECK-NEXT: %[[I1V:[^ ]+]] = sparse_iter.dense_fixed %arg19
//  CHECK-NEXT: %[[I1IDX:[^ ]+]] = sparse_iter.match_buffer %arg15[%[[O1]], %[[I1V]]] : memref<?xi32> -> <2, i32>
//  CHECK-NEXT: %[[ONE_Z2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z2:[^ ]+]] = arith.subi %arg5, %[[ONE_Z2]] : index
//  CHECK-NEXT: %[[Z2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[I1IDX]] in [%[[Z2]], %[[HI_Z2]]] : <2, i32>
//  CHECK-NEXT: %[[J1:[^ ]+]] = sparse_iter.sparse_fixed %[[I1]], %arg16 length %arg6 nnz_cols %arg20 : memref<?xi32>
//  CHECK-NEXT: %[[J1V:[^ ]+]] = sparse_iter.dense_fixed %arg20
//  CHECK-NEXT: %[[J1IDX:[^ ]+]] = sparse_iter.match_buffer %arg16[%[[O1]], %[[I1]], %[[J1V]]] : memref<?xi32> -> <3, i32>
//  CHECK-NEXT: %[[ONE_Z3:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[HI_Z3:[^ ]+]] = arith.subi %arg6, %[[ONE_Z3]] : index
//  CHECK-NEXT: %[[Z3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.assume_domain %[[J1IDX]] in [%[[Z3]], %[[HI_Z3]]] : <3, i32>
//  CHECK-NEXT: %[[A1:[^ ]+]] = sparse_iter.match_buffer %arg18[%[[O1]], %[[I1]], %[[J1]]]
//  CHECK-NEXT: %[[M1:[^ ]+]] = sparse_iter.match_buffer %arg17[%[[O1]], %[[I1]], %[[J1]]]

// copy_ell0: fixed extents 1, num_rows_0, width_0.
//  CHECK-NEXT: %[[L0:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell0.0" spatial %[[L0]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[C0O:[^:]+]]: index):
//  CHECK-NEXT: %[[L1:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell0.1" spatial %[[L1]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[C0I:[^:]+]]: index):
//  CHECK-NEXT: %[[C0ROW:[^ ]+]] = sparse_pos.load %[[I0IDX]][%[[C0O]], %[[C0I]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[C0ROWX:[^ ]+]] = arith.index_cast %[[C0ROW]] : i32 to index
//  CHECK-NEXT: %[[L2:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell0.2" spatial %[[L2]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[C0J:[^:]+]]: index):
//  CHECK-NEXT: %[[C0COL:[^ ]+]] = sparse_pos.load %[[J0IDX]][%[[C0O]], %[[C0I]], %[[C0J]]] {sptir.distinct} : <3, i32>
//  CHECK-NEXT: %[[C0COLX:[^ ]+]] = arith.index_cast %[[C0COL]] : i32 to index
//  CHECK-NEXT: %[[C0MV:[^ ]+]] = sparse_pos.load %[[M0]][%[[C0O]], %[[C0I]], %[[C0J]]] : <3, i32>
//  CHECK-NEXT: %[[C0POS:[^ ]+]], %[[C0FOUND:[^ ]+]] = sparse_pos.find %[[J]][%[[C0ROWX]]], %[[C0COLX]]
//  CHECK-NEXT: %[[C0AV:[^ ]+]] = scf.if %[[C0FOUND]] -> (f32) {
//  CHECK-NEXT: %[[C0HIT:[^ ]+]] = sparse_pos.load %[[A]][%[[C0ROWX]], %[[C0POS]]] : <2, f32>
//  CHECK-NEXT: scf.yield %[[C0HIT]] : f32
//  CHECK-NEXT: } else {
//  CHECK-NEXT: %[[C0DEF:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: scf.yield %[[C0DEF]] : f32
//  CHECK-NEXT: }
//       CHECK: %[[C0REAL:[^ ]+]] = arith.cmpi ne, %[[C0MV]], %{{[^ ]+}} : i32
//  CHECK-NEXT: %[[C0V:[^ ]+]] = arith.select %[[C0REAL]], %[[C0AV]], %{{[^ ]+}} : f32
//  CHECK-NEXT: sparse_pos.store %[[C0V]], %[[A0]][%[[C0O]], %[[C0I]], %[[C0J]]] : <3, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// copy_ell1, the same over bucket 1.
//  CHECK-NEXT: %[[L3:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell1.0" spatial %[[L3]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[C1O:[^:]+]]: index):
//  CHECK-NEXT: %[[L4:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell1.1" spatial %[[L4]] to %arg19 {
//  CHECK-NEXT: ^bb0(%[[C1I:[^:]+]]: index):
//  CHECK-NEXT: %[[C1ROW:[^ ]+]] = sparse_pos.load %[[I1IDX]][%[[C1O]], %[[C1I]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[C1ROWX:[^ ]+]] = arith.index_cast %[[C1ROW]] : i32 to index
//  CHECK-NEXT: %[[L5:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "copy_ell1.2" spatial %[[L5]] to %arg20 {
//  CHECK-NEXT: ^bb0(%[[C1J:[^:]+]]: index):
//  CHECK-NEXT: %[[C1COL:[^ ]+]] = sparse_pos.load %[[J1IDX]][%[[C1O]], %[[C1I]], %[[C1J]]] {sptir.distinct} : <3, i32>
//  CHECK-NEXT: %[[C1COLX:[^ ]+]] = arith.index_cast %[[C1COL]] : i32 to index
//  CHECK-NEXT: %[[C1MV:[^ ]+]] = sparse_pos.load %[[M1]][%[[C1O]], %[[C1I]], %[[C1J]]] : <3, i32>
//  CHECK-NEXT: %[[C1POS:[^ ]+]], %[[C1FOUND:[^ ]+]] = sparse_pos.find %[[J]][%[[C1ROWX]]], %[[C1COLX]]
//  CHECK-NEXT: %[[C1AV:[^ ]+]] = scf.if %[[C1FOUND]] -> (f32) {
//  CHECK-NEXT: %[[C1HIT:[^ ]+]] = sparse_pos.load %[[A]][%[[C1ROWX]], %[[C1POS]]] : <2, f32>
//  CHECK-NEXT: scf.yield %[[C1HIT]] : f32
//  CHECK-NEXT: } else {
//  CHECK-NEXT: %[[C1DEF:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: scf.yield %[[C1DEF]] : f32
//  CHECK-NEXT: }
//       CHECK: %[[C1REAL:[^ ]+]] = arith.cmpi ne, %[[C1MV]], %{{[^ ]+}} : i32
//  CHECK-NEXT: %[[C1V:[^ ]+]] = arith.select %[[C1REAL]], %[[C1AV]], %{{[^ ]+}} : f32
//  CHECK-NEXT: sparse_pos.store %[[C1V]], %[[A1]][%[[C1O]], %[[C1I]], %[[C1J]]] : <3, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// "zero" over (I, K).
//  CHECK-NEXT: %[[L6:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.0" spatial %[[L6]] to %arg5 {
//  CHECK-NEXT: ^bb0(%[[ZI:[^:]+]]: index):
//  CHECK-NEXT: %[[L7:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "zero.1" spatial %[[L7]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[ZK:[^:]+]]: index):
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: sparse_pos.store %[[ZERO]], %[[C]][%[[ZI]], %[[ZK]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// spmm_ell0 "SSRS": C is addressed by the bucket's row coordinate (I is
// dense), B by the column coordinate, A_0 by the loop positions.
//  CHECK-NEXT: %[[L8:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell0.0" spatial %[[L8]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[S0O:[^:]+]]: index):
//  CHECK-NEXT: %[[L9:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell0.1" spatial %[[L9]] to %arg13 {
//  CHECK-NEXT: ^bb0(%[[S0I:[^:]+]]: index):
//  CHECK-NEXT: %[[S0ROW:[^ ]+]] = sparse_pos.load %[[I0IDX]][%[[S0O]], %[[S0I]]] {sptir.distinct} : <2, i32>
//  CHECK-NEXT: %[[S0ROWX:[^ ]+]] = arith.index_cast %[[S0ROW]] : i32 to index
//  CHECK-NEXT: %[[L10:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell0.2" reduction %[[L10]] to %arg14 {
//  CHECK-NEXT: ^bb0(%[[S0J:[^:]+]]: index):
//  CHECK-NEXT: %[[S0COL:[^ ]+]] = sparse_pos.load %[[J0IDX]][%[[S0O]], %[[S0I]], %[[S0J]]] : <3, i32>
//  CHECK-NEXT: %[[S0COLX:[^ ]+]] = arith.index_cast %[[S0COL]] : i32 to index
//  CHECK-NEXT: %[[L11:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell0.3" spatial %[[L11]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[S0K:[^:]+]]: index):
//  CHECK-NEXT: %[[S0ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[S0ROWX]], %[[S0K]]] : <2, f32>
//  CHECK-NEXT: %[[S0AV:[^ ]+]] = sparse_pos.load %[[A0]][%[[S0O]], %[[S0I]], %[[S0J]]] : <3, f32>
//  CHECK-NEXT: %[[S0BV:[^ ]+]] = sparse_pos.load %[[B]][%[[S0COLX]], %[[S0K]]] : <2, f32>
//  CHECK-NEXT: %[[S0PROD:[^ ]+]] = arith.mulf %[[S0AV]], %[[S0BV]] : f32
//  CHECK-NEXT: %[[S0SUM:[^ ]+]] = arith.addf %[[S0ACC]], %[[S0PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[S0SUM]], %[[C]][%[[S0ROWX]], %[[S0K]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }

// spmm_ell1 "SRRS": the row loop of the last bucket is a reduction.
//  CHECK-NEXT: %[[L12:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell1.0" spatial %[[L12]] to %[[ONE]] {
//  CHECK-NEXT: ^bb0(%[[S1O:[^:]+]]: index):
//  CHECK-NEXT: %[[L13:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell1.1" reduction %[[L13]] to %arg19 {
//  CHECK-NEXT: ^bb0(%[[S1I:[^:]+]]: index):
//  CHECK-NEXT: %[[S1ROW:[^ ]+]] = sparse_pos.load %[[I1IDX]][%[[S1O]], %[[S1I]]] : <2, i32>
//  CHECK-NEXT: %[[S1ROWX:[^ ]+]] = arith.index_cast %[[S1ROW]] : i32 to index
//  CHECK-NEXT: %[[L14:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell1.2" reduction %[[L14]] to %arg20 {
//  CHECK-NEXT: ^bb0(%[[S1J:[^:]+]]: index):
//  CHECK-NEXT: %[[S1COL:[^ ]+]] = sparse_pos.load %[[J1IDX]][%[[S1O]], %[[S1I]], %[[S1J]]] : <3, i32>
//  CHECK-NEXT: %[[S1COLX:[^ ]+]] = arith.index_cast %[[S1COL]] : i32 to index
//  CHECK-NEXT: %[[L15:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: sparse_pos.for "spmm_ell1.3" spatial %[[L15]] to %arg8 {
//  CHECK-NEXT: ^bb0(%[[S1K:[^:]+]]: index):
//  CHECK-NEXT: %[[S1ACC:[^ ]+]] = sparse_pos.load %[[C]][%[[S1ROWX]], %[[S1K]]] : <2, f32>
//  CHECK-NEXT: %[[S1AV:[^ ]+]] = sparse_pos.load %[[A1]][%[[S1O]], %[[S1I]], %[[S1J]]] : <3, f32>
//  CHECK-NEXT: %[[S1BV:[^ ]+]] = sparse_pos.load %[[B]][%[[S1COLX]], %[[S1K]]] : <2, f32>
//  CHECK-NEXT: %[[S1PROD:[^ ]+]] = arith.mulf %[[S1AV]], %[[S1BV]] : f32
//  CHECK-NEXT: %[[S1SUM:[^ ]+]] = arith.addf %[[S1ACC]], %[[S1PROD]] : f32
//  CHECK-NEXT: sparse_pos.store %[[S1SUM]], %[[C]][%[[S1ROWX]], %[[S1K]]] : <2, f32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
