// lower-sparse-iter + lower-sparse-buffer on csf_ttm: fibers (I, J) are at
// indptr_j[i] + j, non-zeros (I, J, K) at indptr_k[indptr_j[i] + j] + k; Y
// over (I, J, L) is one dense row per fiber: (indptr_j[i] + j) * feat + l.
// RUN: sptir-opt %examples/csf_ttm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/csf_ttm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr_j, %arg1 indices_j, %arg2 indptr_k, %arg3 indices_k,
// %arg4 a, %arg5 b, %arg6 y, %arg7 m, %arg8 n, %arg9 p, %arg10 nnz_j,
// %arg11 nnz_k, %arg12 feat.
// CHECK-LABEL: func.func @csf_ttm
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg7 step %{{[^ ]+}} {
//       CHECK: %[[NEXT1:[^ ]+]] = arith.addi %[[I]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = memref.load %arg0[%[[NEXT1]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %[[LEN1]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[S0X]], %[[J]] : index
//  CHECK-NEXT: memref.load %arg1[%[[O0]]] : memref<?xi32>

// Init nest over L: Y[(indptr_j[i] + j) * feat + l] = 0.
//       CHECK: scf.for %[[IL:[^ ]+]] = %{{[^ ]+}} to %arg12 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S1X]], %[[J]] : index
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[O1]], %arg12 : index
//  CHECK-NEXT: %[[Y1:[^ ]+]] = arith.addi %[[R1]], %[[IL]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg6[%[[Y1]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ttm.init.1"}

// K's extent: indptr_k at indptr_j[i] + j and indptr_j[i] + (j + 1).
//       CHECK: %[[NEXT2:[^ ]+]] = arith.addi %[[J]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S2X]], %[[J]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = memref.load %arg2[%[[O2]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[S3:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S3X:[^ ]+]] = arith.index_cast %[[S3]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S3X]], %[[NEXT2]] : index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = memref.load %arg2[%[[O3]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %[[LEN2]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S4:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S4X:[^ ]+]] = arith.index_cast %[[S4]] : i32 to index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[S4X]], %[[J]] : index
//  CHECK-NEXT: %[[S5:[^ ]+]] = memref.load %arg2[%[[O4]]] : memref<?xi32>
//  CHECK-NEXT: %[[S5X:[^ ]+]] = arith.index_cast %[[S5]] : i32 to index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[S5X]], %[[K]] : index
//  CHECK-NEXT: %[[KC:[^ ]+]] = memref.load %arg3[%[[O5]]] : memref<?xi32>
//  CHECK-NEXT: %[[KCX:[^ ]+]] = arith.index_cast %[[KC]] : i32 to index
//       CHECK: scf.for %[[L:[^ ]+]] = %{{[^ ]+}} to %arg12 step %{{[^ ]+}} {
// Y
//  CHECK-NEXT: %[[S6:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S6X:[^ ]+]] = arith.index_cast %[[S6]] : i32 to index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[S6X]], %[[J]] : index
//  CHECK-NEXT: %[[R6:[^ ]+]] = arith.muli %[[O6]], %arg12 : index
//  CHECK-NEXT: %[[Y6:[^ ]+]] = arith.addi %[[R6]], %[[L]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg6[%[[Y6]]] : memref<?xf32>
// A
//  CHECK-NEXT: %[[S7:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S7X:[^ ]+]] = arith.index_cast %[[S7]] : i32 to index
//  CHECK-NEXT: %[[O7:[^ ]+]] = arith.addi %[[S7X]], %[[J]] : index
//  CHECK-NEXT: %[[S8:[^ ]+]] = memref.load %arg2[%[[O7]]] : memref<?xi32>
//  CHECK-NEXT: %[[S8X:[^ ]+]] = arith.index_cast %[[S8]] : i32 to index
//  CHECK-NEXT: %[[O8:[^ ]+]] = arith.addi %[[S8X]], %[[K]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg4[%[[O8]]] : memref<?xf32>
// B[kcoord * feat + l]
//  CHECK-NEXT: %[[R9:[^ ]+]] = arith.muli %[[KCX]], %arg12 : index
//  CHECK-NEXT: %[[O9:[^ ]+]] = arith.addi %[[R9]], %[[L]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg5[%[[O9]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[S10:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S10X:[^ ]+]] = arith.index_cast %[[S10]] : i32 to index
//  CHECK-NEXT: %[[O10:[^ ]+]] = arith.addi %[[S10X]], %[[J]] : index
//  CHECK-NEXT: %[[R10:[^ ]+]] = arith.muli %[[O10]], %arg12 : index
//  CHECK-NEXT: %[[Y10:[^ ]+]] = arith.addi %[[R10]], %[[L]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg6[%[[Y10]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ttm.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "ttm.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ttm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ttm.0"}
//  CHECK-NEXT: return
