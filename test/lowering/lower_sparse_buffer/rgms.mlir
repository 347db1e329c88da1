// lower-sparse-iter + lower-sparse-buffer on rgms: A over (R, I, J) is read at
// indptr_j[indptr_i[r] + i] + j, W over (R, FO, FI) at (r * feat_out + fo) *
// feat_in + fi, X at col * feat_in + fi, Y at row * feat_out + fo.
// RUN: sptir-opt %examples/rgms.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/rgms.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr_i, %arg1 indices_i, %arg2 indptr_j, %arg3 indices_j,
// %arg4 a, %arg5 w, %arg6 x, %arg7 y, %arg8 num_rel, %arg9 m, %arg10 n,
// %arg11 nnz_rows, %arg12 nnz, %arg13 feat_in, %arg14 feat_out.
// CHECK-LABEL: func.func @rgms
//       CHECK: scf.for %[[ZI:[^ ]+]] = %{{[^ ]+}} to %arg9 step %{{[^ ]+}} {
//       CHECK: scf.for %[[ZO:[^ ]+]] = %{{[^ ]+}} to %arg14 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[ZI]], %arg14 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[ZO]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg7[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.0"}

//       CHECK: scf.for %[[R:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//       CHECK: %[[NEXT1:[^ ]+]] = arith.addi %[[R]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = memref.load %arg0[%[[NEXT1]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %[[LEN1]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S0X]], %[[I]] : index
//  CHECK-NEXT: %[[ROW:[^ ]+]] = memref.load %arg1[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
//       CHECK: %[[NEXT2:[^ ]+]] = arith.addi %[[I]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S1X]], %[[I]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = memref.load %arg2[%[[O2]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S2X]], %[[NEXT2]] : index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = memref.load %arg2[%[[O3]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %[[LEN2]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S3:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[S3X:[^ ]+]] = arith.index_cast %[[S3]] : i32 to index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[S3X]], %[[I]] : index
//  CHECK-NEXT: %[[S4:[^ ]+]] = memref.load %arg2[%[[O4]]] : memref<?xi32>
//  CHECK-NEXT: %[[S4X:[^ ]+]] = arith.index_cast %[[S4]] : i32 to index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[S4X]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg3[%[[O5]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//       CHECK: scf.for %[[FO:[^ ]+]] = %{{[^ ]+}} to %arg14 step %{{[^ ]+}} {
//       CHECK: scf.for %[[FI:[^ ]+]] = %{{[^ ]+}} to %arg13 step %{{[^ ]+}} {
// Y
//  CHECK-NEXT: %[[R6:[^ ]+]] = arith.muli %[[ROWX]], %arg14 : index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[R6]], %[[FO]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg7[%[[O6]]] : memref<?xf32>
// A
//  CHECK-NEXT: %[[S7:[^ ]+]] = memref.load %arg0[%[[R]]] : memref<?xi32>
//  CHECK-NEXT: %[[S7X:[^ ]+]] = arith.index_cast %[[S7]] : i32 to index
//  CHECK-NEXT: %[[O7:[^ ]+]] = arith.addi %[[S7X]], %[[I]] : index
//  CHECK-NEXT: %[[S8:[^ ]+]] = memref.load %arg2[%[[O7]]] : memref<?xi32>
//  CHECK-NEXT: %[[S8X:[^ ]+]] = arith.index_cast %[[S8]] : i32 to index
//  CHECK-NEXT: %[[O8:[^ ]+]] = arith.addi %[[S8X]], %[[J]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg4[%[[O8]]] : memref<?xf32>
// W
//  CHECK-NEXT: %[[W0:[^ ]+]] = arith.muli %[[R]], %arg14 : index
//  CHECK-NEXT: %[[W1:[^ ]+]] = arith.addi %[[W0]], %[[FO]] : index
//  CHECK-NEXT: %[[W2:[^ ]+]] = arith.muli %[[W1]], %arg13 : index
//  CHECK-NEXT: %[[W3:[^ ]+]] = arith.addi %[[W2]], %[[FI]] : index
//  CHECK-NEXT: %[[WV:[^ ]+]] = memref.load %arg5[%[[W3]]] : memref<?xf32>
// X
//  CHECK-NEXT: %[[X0:[^ ]+]] = arith.muli %[[COLX]], %arg13 : index
//  CHECK-NEXT: %[[X1:[^ ]+]] = arith.addi %[[X0]], %[[FI]] : index
//  CHECK-NEXT: %[[XV:[^ ]+]] = memref.load %arg6[%[[X1]]] : memref<?xf32>
//  CHECK-NEXT: %[[AW:[^ ]+]] = arith.mulf %[[AV]], %[[WV]] : f32
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AW]], %[[XV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[R9:[^ ]+]] = arith.muli %[[ROWX]], %arg14 : index
//  CHECK-NEXT: %[[O9:[^ ]+]] = arith.addi %[[R9]], %[[FO]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg7[%[[O9]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "rgms.4"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "rgms.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "rgms.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "rgms.1"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "rgms.0"}
//  CHECK-NEXT: return
