// lower-sparse-iter + lower-sparse-buffer on sddmm_fused: one scf.for over
// the nnz non-zeros; parent_position becomes a binary search (scf.while)
// over indptr[0..m] for the last row whose start is at or before the flat
// position, and every (I, J) access lands back on indptr[row] + (flat -
// indptr[row]).
// RUN: sptir-opt %examples/sddmm_fused.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/sddmm_fused.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 x, %arg4 y, %arg5 b,
// %arg6 m, %arg7 n, %arg8 nnz, %arg9 feat.
// CHECK-LABEL: func.func @sddmm_fused
//       CHECK: scf.for %[[FLAT:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {

// parent_position: lower bound over [0, m + 1) of indptr[mid] <= flat.
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[END:[^ ]+]] = arith.addi %arg6, %[[ONE]] : index
//  CHECK-NEXT: %[[SEARCH:[^ ]+]]:2 = scf.while (%[[LB:[^ ]+]] = %[[ZERO]], %[[UB:[^ ]+]] = %[[END]]) : (index, index) -> (index, index) {
//  CHECK-NEXT: %[[GO:[^ ]+]] = arith.cmpi ult, %[[LB]], %[[UB]] : index
//  CHECK-NEXT: scf.condition(%[[GO]]) %[[LB]], %[[UB]] : index, index
//  CHECK-NEXT: } do {
//  CHECK-NEXT: ^bb0(%[[LO:[^:]+]]: index, %[[HI:[^:]+]]: index):
//  CHECK-NEXT: %[[TWO:[^ ]+]] = arith.constant 2 : index
//  CHECK-NEXT: %[[SPAN:[^ ]+]] = arith.subi %[[HI]], %[[LO]] : index
//  CHECK-NEXT: %[[HALF:[^ ]+]] = arith.divui %[[SPAN]], %[[TWO]] : index
//  CHECK-NEXT: %[[MID:[^ ]+]] = arith.addi %[[LO]], %[[HALF]] : index
//  CHECK-NEXT: %[[ROWSTART:[^ ]+]] = memref.load %arg0[%[[MID]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWSTARTX:[^ ]+]] = arith.index_cast %[[ROWSTART]] : i32 to index
//  CHECK-NEXT: %[[BEFORE:[^ ]+]] = arith.cmpi ule, %[[ROWSTARTX]], %[[FLAT]] : index
//  CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: %[[MID1:[^ ]+]] = arith.addi %[[MID]], %[[ONE2]] : index
//  CHECK-NEXT: %[[NLO:[^ ]+]] = arith.select %[[BEFORE]], %[[MID1]], %[[LO]] : index
//  CHECK-NEXT: %[[NHI:[^ ]+]] = arith.select %[[BEFORE]], %[[HI]], %[[MID]] : index
//  CHECK-NEXT: scf.yield %[[NLO]], %[[NHI]] : index, index
//  CHECK-NEXT: }
//  CHECK-NEXT: %[[ROW:[^ ]+]] = arith.subi %[[SEARCH]]#0, %[[ONE]] : index

// The position within the row: flat - indptr[row].
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[PJ:[^ ]+]] = arith.subi %[[FLAT]], %[[S0X]] : index
// The column coordinate: indices[indptr[row] + pj].
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S1X]], %[[PJ]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg1[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
// Init: B[indptr[row] + pj] = 0.
//  CHECK-NEXT: %[[FZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S2X]], %[[PJ]] : index
//  CHECK-NEXT: memref.store %[[FZERO]], %arg5[%[[O2]]] : memref<?xf32>

//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg9 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S3:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S3X:[^ ]+]] = arith.index_cast %[[S3]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S3X]], %[[PJ]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg5[%[[O3]]] : memref<?xf32>
// X[row * feat + k]: I is dense, so its position is the row.
//  CHECK-NEXT: %[[R4:[^ ]+]] = arith.muli %[[ROW]], %arg9 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R4]], %[[K]] : index
//  CHECK-NEXT: %[[XV:[^ ]+]] = memref.load %arg3[%[[O4]]] : memref<?xf32>
// Y[col * feat + k]
//  CHECK-NEXT: %[[R5:[^ ]+]] = arith.muli %[[COLX]], %arg9 : index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[R5]], %[[K]] : index
//  CHECK-NEXT: %[[YV:[^ ]+]] = memref.load %arg4[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: %[[S6:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S6X:[^ ]+]] = arith.index_cast %[[S6]] : i32 to index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[S6X]], %[[PJ]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg2[%[[O6]]] : memref<?xf32>
//  CHECK-NEXT: %[[XY:[^ ]+]] = arith.mulf %[[XV]], %[[YV]] : f32
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[XY]], %[[AV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[S7:[^ ]+]] = memref.load %arg0[%[[ROW]]] : memref<?xi32>
//  CHECK-NEXT: %[[S7X:[^ ]+]] = arith.index_cast %[[S7]] : i32 to index
//  CHECK-NEXT: %[[O7:[^ ]+]] = arith.addi %[[S7X]], %[[PJ]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg5[%[[O7]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "sddmm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "sddmm.0"}
//  CHECK-NEXT: return
