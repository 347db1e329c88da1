// lower-sparse-iter + lower-sparse-buffer on hyb_spmm: the bucket axes are
// sparse_fixed, so bucket offsets are ((o * num_rows) + i) * width + j, o
// being 0: the placeholder axis O has one position, and its unbound loop
// goes. Each
// coordinate lookup into A becomes a binary search (scf.while) for the first
// stored column not below the wanted one in [indptr[row], indptr[row + 1]),
// a found flag (in range and equal), and an scf.if that reads
// a[indptr[row] + (at - indptr[row])] or yields 0.0.
// RUN: sptir-opt %examples/hyb_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/hyb_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c, %arg5 m,
// %arg6 n, %arg7 nnz, %arg8 feat; bucket 0: %arg9 rows_0, %arg10 cols_0,
// %arg11 mask_0, %arg12 a_0, %arg13 num_rows_0, %arg14 width_0; bucket 1:
// %arg15 rows_1, %arg16 cols_1, %arg17 mask_1, %arg18 a_1, %arg19 num_rows_1,
// %arg20 width_1.
// CHECK-LABEL: func.func @hyb_spmm

// copy_ell0
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg13 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[O:[^,]+]], %arg13 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[I]] : index
//  CHECK-NEXT: %[[ROW:[^ ]+]] = memref.load %arg9[%[[O0]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %arg14 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[O]], %arg13 : index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[R1]], %[[I]] : index
//  CHECK-NEXT: %[[R2:[^ ]+]] = arith.muli %[[O1]], %arg14 : index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[R2]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg10[%[[O2]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[O]], %arg13 : index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[R3]], %[[I]] : index
//  CHECK-NEXT: %[[R4:[^ ]+]] = arith.muli %[[O3]], %arg14 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R4]], %[[J]] : index
//  CHECK-NEXT: %[[MV:[^ ]+]] = memref.load %arg11[%[[O4]]] : memref<?xi32>
// find: the row of A (I is dense, its position is the row coordinate).
//  CHECK-NEXT: %[[ONE1:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[START:[^ ]+]] = memref.load %arg0[%[[ROWX]]] : memref<?xi32>
//  CHECK-NEXT: %[[STARTX:[^ ]+]] = arith.index_cast %[[START]] : i32 to index
//  CHECK-NEXT: %[[ROW1:[^ ]+]] = arith.addi %[[ROWX]], %[[ONE1]] : index
//  CHECK-NEXT: %[[END:[^ ]+]] = memref.load %arg0[%[[ROW1]]] : memref<?xi32>
//  CHECK-NEXT: %[[ENDX:[^ ]+]] = arith.index_cast %[[END]] : i32 to index
//  CHECK-NEXT: %[[SEARCH:[^ ]+]]:2 = scf.while (%[[LB:[^ ]+]] = %[[STARTX]], %[[UB:[^ ]+]] = %[[ENDX]]) : (index, index) -> (index, index) {
//  CHECK-NEXT: %[[GO:[^ ]+]] = arith.cmpi ult, %[[LB]], %[[UB]] : index
//  CHECK-NEXT: scf.condition(%[[GO]]) %[[LB]], %[[UB]] : index, index
//  CHECK-NEXT: } do {
//  CHECK-NEXT: ^bb0(%[[LO:[^:]+]]: index, %[[HI:[^:]+]]: index):
//  CHECK-NEXT: %[[TWO:[^ ]+]] = arith.constant 2 : index
//  CHECK-NEXT: %[[SPAN:[^ ]+]] = arith.subi %[[HI]], %[[LO]] : index
//  CHECK-NEXT: %[[HALF:[^ ]+]] = arith.divui %[[SPAN]], %[[TWO]] : index
//  CHECK-NEXT: %[[MID:[^ ]+]] = arith.addi %[[LO]], %[[HALF]] : index
//  CHECK-NEXT: %[[STORED:[^ ]+]] = memref.load %arg1[%[[MID]]] : memref<?xi32>
//  CHECK-NEXT: %[[STOREDX:[^ ]+]] = arith.index_cast %[[STORED]] : i32 to index
//  CHECK-NEXT: %[[BELOW:[^ ]+]] = arith.cmpi slt, %[[STOREDX]], %[[COLX]] : index
//  CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[MID1:[^ ]+]] = arith.addi %[[MID]], %[[ONE2]] : index
//  CHECK-NEXT: %[[NLO:[^ ]+]] = arith.select %[[BELOW]], %[[MID1]], %[[LO]] : index
//  CHECK-NEXT: %[[NHI:[^ ]+]] = arith.select %[[BELOW]], %[[HI]], %[[MID]] : index
//  CHECK-NEXT: scf.yield %[[NLO]], %[[NHI]] : index, index
//  CHECK-NEXT: }
//  CHECK-NEXT: %[[INSIDE:[^ ]+]] = arith.cmpi ult, %[[SEARCH]]#0, %[[ENDX]] : index
//  CHECK-NEXT: %[[FOUND:[^ ]+]] = scf.if %[[INSIDE]] -> (i1) {
//  CHECK-NEXT: %[[AT:[^ ]+]] = memref.load %arg1[%[[SEARCH]]#0] : memref<?xi32>
//  CHECK-NEXT: %[[ATX:[^ ]+]] = arith.index_cast %[[AT]] : i32 to index
//  CHECK-NEXT: %[[EQ:[^ ]+]] = arith.cmpi eq, %[[ATX]], %[[COLX]] : index
//  CHECK-NEXT: scf.yield %[[EQ]] : i1
//  CHECK-NEXT: } else {
//  CHECK-NEXT: %[[FALSE:[^ ]+]] = arith.constant false
//  CHECK-NEXT: scf.yield %[[FALSE]] : i1
//  CHECK-NEXT: }
//  CHECK-NEXT: %[[POS:[^ ]+]] = arith.subi %[[SEARCH]]#0, %[[STARTX]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = scf.if %[[FOUND]] -> (f32) {
//  CHECK-NEXT: %[[S5:[^ ]+]] = memref.load %arg0[%[[ROWX]]] : memref<?xi32>
//  CHECK-NEXT: %[[S5X:[^ ]+]] = arith.index_cast %[[S5]] : i32 to index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[S5X]], %[[POS]] : index
//  CHECK-NEXT: %[[HIT:[^ ]+]] = memref.load %arg2[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: scf.yield %[[HIT]] : f32
//  CHECK-NEXT: } else {
//  CHECK-NEXT: %[[DEF:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: scf.yield %[[DEF]] : f32
//  CHECK-NEXT: }
//       CHECK: %[[REAL:[^ ]+]] = arith.cmpi ne, %[[MV]], %{{[^ ]+}} : i32
//  CHECK-NEXT: %[[V:[^ ]+]] = arith.select %[[REAL]], %[[AV]], %{{[^ ]+}} : f32
//  CHECK-NEXT: %[[R6:[^ ]+]] = arith.muli %[[O]], %arg13 : index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[R6]], %[[I]] : index
//  CHECK-NEXT: %[[R7:[^ ]+]] = arith.muli %[[O6]], %arg14 : index
//  CHECK-NEXT: %[[O7:[^ ]+]] = arith.addi %[[R7]], %[[J]] : index
//  CHECK-NEXT: memref.store %[[V]], %arg12[%[[O7]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "copy_ell0.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "copy_ell0.1"}

// copy_ell1: the same search, over bucket 1's arrays.
//       CHECK: scf.for %[[I_1:[^ ]+]] = %{{[^ ]+}} to %arg19 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[R10:[^ ]+]] = arith.muli %[[O_1:[^,]+]], %arg19 : index
//  CHECK-NEXT: %[[O10:[^ ]+]] = arith.addi %[[R10]], %[[I_1]] : index
//  CHECK-NEXT: %[[ROW_1:[^ ]+]] = memref.load %arg15[%[[O10]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWX_1:[^ ]+]] = arith.index_cast %[[ROW_1]] : i32 to index
//       CHECK: scf.for %[[J_1:[^ ]+]] = %{{[^ ]+}} to %arg20 step %{{[^ ]+}} {
//       CHECK: %[[COL_1:[^ ]+]] = memref.load %arg16[%{{[^ ]+}}] : memref<?xi32>
//  CHECK-NEXT: %[[COLX_1:[^ ]+]] = arith.index_cast %[[COL_1]] : i32 to index
//       CHECK: memref.load %arg17[%{{[^ ]+}}] : memref<?xi32>
//       CHECK: %[[START_1:[^ ]+]] = memref.load %arg0[%[[ROWX_1]]] : memref<?xi32>
//       CHECK: scf.while
//       CHECK: %[[STORED_1:[^ ]+]] = memref.load %arg1[%{{[^ ]+}}] : memref<?xi32>
//  CHECK-NEXT: %[[STOREDX_1:[^ ]+]] = arith.index_cast %[[STORED_1]] : i32 to index
//  CHECK-NEXT: arith.cmpi slt, %[[STOREDX_1]], %[[COLX_1]] : index
//       CHECK: scf.if %{{[^ ]+}} -> (f32) {
//       CHECK: memref.load %arg2[%{{[^ ]+}}] : memref<?xf32>
//       CHECK: } else {
//  CHECK-NEXT: arith.constant 0.000000e+00 : f32
//       CHECK: memref.store %{{[^ ]+}}, %arg18[%{{[^ ]+}}] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "copy_ell1.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "copy_ell1.1"}

// zero
//       CHECK: scf.for %[[ZI:[^ ]+]] = %{{[^ ]+}} to %arg5 step %{{[^ ]+}} {
//       CHECK: scf.for %[[ZK:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[Z0:[^ ]+]] = arith.muli %[[ZI]], %arg8 : index
//  CHECK-NEXT: %[[Z1:[^ ]+]] = arith.addi %[[Z0]], %[[ZK]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg4[%[[Z1]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.0"}

// spmm_ell0: C[row * feat + k] += A_0[...] * B[col * feat + k].
//       CHECK: scf.for %[[SI:[^ ]+]] = %{{[^ ]+}} to %arg13 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[T0:[^ ]+]] = arith.muli %[[SO:[^,]+]], %arg13 : index
//  CHECK-NEXT: %[[T1:[^ ]+]] = arith.addi %[[T0]], %[[SI]] : index
//  CHECK-NEXT: %[[SROW:[^ ]+]] = memref.load %arg9[%[[T1]]] : memref<?xi32>
//  CHECK-NEXT: %[[SROWX:[^ ]+]] = arith.index_cast %[[SROW]] : i32 to index
//       CHECK: scf.for %[[SJ:[^ ]+]] = %{{[^ ]+}} to %arg14 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[T2:[^ ]+]] = arith.muli %[[SO]], %arg13 : index
//  CHECK-NEXT: %[[T3:[^ ]+]] = arith.addi %[[T2]], %[[SI]] : index
//  CHECK-NEXT: %[[T4:[^ ]+]] = arith.muli %[[T3]], %arg14 : index
//  CHECK-NEXT: %[[T5:[^ ]+]] = arith.addi %[[T4]], %[[SJ]] : index
//  CHECK-NEXT: %[[SCOL:[^ ]+]] = memref.load %arg10[%[[T5]]] : memref<?xi32>
//  CHECK-NEXT: %[[SCOLX:[^ ]+]] = arith.index_cast %[[SCOL]] : i32 to index
//       CHECK: scf.for %[[SK:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[C0:[^ ]+]] = arith.muli %[[SROWX]], %arg8 : index
//  CHECK-NEXT: %[[C1:[^ ]+]] = arith.addi %[[C0]], %[[SK]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg4[%[[C1]]] : memref<?xf32>
//  CHECK-NEXT: %[[A0:[^ ]+]] = arith.muli %[[SO]], %arg13 : index
//  CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[A0]], %[[SI]] : index
//  CHECK-NEXT: %[[A2:[^ ]+]] = arith.muli %[[A1]], %arg14 : index
//  CHECK-NEXT: %[[A3:[^ ]+]] = arith.addi %[[A2]], %[[SJ]] : index
//  CHECK-NEXT: %[[SAV:[^ ]+]] = memref.load %arg12[%[[A3]]] : memref<?xf32>
//  CHECK-NEXT: %[[B0:[^ ]+]] = arith.muli %[[SCOLX]], %arg8 : index
//  CHECK-NEXT: %[[B1:[^ ]+]] = arith.addi %[[B0]], %[[SK]] : index
//  CHECK-NEXT: %[[SBV:[^ ]+]] = memref.load %arg3[%[[B1]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[SAV]], %[[SBV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[D0:[^ ]+]] = arith.muli %[[SROWX]], %arg8 : index
//  CHECK-NEXT: %[[D1:[^ ]+]] = arith.addi %[[D0]], %[[SK]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg4[%[[D1]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "spmm_ell0.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "spmm_ell0.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "spmm_ell0.1"}

// spmm_ell1: the same over bucket 1, its row loop a reduction.
//       CHECK: scf.for %[[TI:[^ ]+]] = %{{[^ ]+}} to %arg19 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[U0:[^ ]+]] = arith.muli %[[TO:[^,]+]], %arg19 : index
//  CHECK-NEXT: %[[U1:[^ ]+]] = arith.addi %[[U0]], %[[TI]] : index
//  CHECK-NEXT: %[[TROW:[^ ]+]] = memref.load %arg15[%[[U1]]] : memref<?xi32>
//  CHECK-NEXT: %[[TROWX:[^ ]+]] = arith.index_cast %[[TROW]] : i32 to index
//       CHECK: scf.for %[[TJ:[^ ]+]] = %{{[^ ]+}} to %arg20 step %{{[^ ]+}} {
//       CHECK: %[[TCOL:[^ ]+]] = memref.load %arg16[%{{[^ ]+}}] : memref<?xi32>
//  CHECK-NEXT: %[[TCOLX:[^ ]+]] = arith.index_cast %[[TCOL]] : i32 to index
//       CHECK: scf.for %[[TK:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[E0:[^ ]+]] = arith.muli %[[TROWX]], %arg8 : index
//  CHECK-NEXT: %[[E1:[^ ]+]] = arith.addi %[[E0]], %[[TK]] : index
//  CHECK-NEXT: memref.load %arg4[%[[E1]]] : memref<?xf32>
//  CHECK-NEXT: %[[F0:[^ ]+]] = arith.muli %[[TO]], %arg19 : index
//  CHECK-NEXT: %[[F1:[^ ]+]] = arith.addi %[[F0]], %[[TI]] : index
//  CHECK-NEXT: %[[F2:[^ ]+]] = arith.muli %[[F1]], %arg20 : index
//  CHECK-NEXT: %[[F3:[^ ]+]] = arith.addi %[[F2]], %[[TJ]] : index
//  CHECK-NEXT: memref.load %arg18[%[[F3]]] : memref<?xf32>
//  CHECK-NEXT: %[[G0:[^ ]+]] = arith.muli %[[TCOLX]], %arg8 : index
//  CHECK-NEXT: %[[G1:[^ ]+]] = arith.addi %[[G0]], %[[TK]] : index
//  CHECK-NEXT: memref.load %arg3[%[[G1]]] : memref<?xf32>
//       CHECK: memref.store %{{[^ ]+}}, %arg4[%{{[^ ]+}}] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "spmm_ell1.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "spmm_ell1.2"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "spmm_ell1.1"}
//  CHECK-NEXT: return
