// lower-sparse-iter + lower-sparse-buffer on dcsr_spmm: each level of
// (O, I, J) replaces the offset with its indptr at the offset so far: row
// offsets are indptr_i[o] + i, non-zero offsets indptr_j[indptr_i[o] + i] + j;
// J's extent reads indptr_j at indptr_i[o] + i and indptr_i[o] + (i + 1).
// RUN: sptir-opt %examples/dcsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/dcsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr_i, %arg1 indices_i, %arg2 indptr_j, %arg3 indices_j,
// %arg4 a, %arg5 b, %arg6 c, %arg7 m, %arg8 n, %arg9 nnz_rows, %arg10 nnz,
// %arg11 feat.
// CHECK-LABEL: func.func @dcsr_spmm
//       CHECK: scf.for %[[ZI:[^ ]+]] = %{{[^ ]+}} to %arg7 step %{{[^ ]+}} {
//       CHECK: scf.for %[[ZK:[^ ]+]] = %{{[^ ]+}} to %arg11 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[ZI]], %arg11 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[ZK]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg6[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.0"}

// O has one position and no binding: its loop goes, o being its start.
//  CHECK-NEXT: %[[O:[^ ]+]] = arith.constant 0 : index
//       CHECK: %[[NEXT1:[^ ]+]] = arith.addi %[[O]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO1:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO1X:[^ ]+]] = arith.index_cast %[[LO1]] : i32 to index
//  CHECK-NEXT: %[[HI1:[^ ]+]] = memref.load %arg0[%[[NEXT1]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI1X:[^ ]+]] = arith.index_cast %[[HI1]] : i32 to index
//  CHECK-NEXT: %[[LEN1:[^ ]+]] = arith.subi %[[HI1X]], %[[LO1X]] : index
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %[[LEN1]] step %{{[^ ]+}} {
// Row coordinate: indices_i[indptr_i[o] + i].
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S0X]], %[[I]] : index
//  CHECK-NEXT: %[[ROW:[^ ]+]] = memref.load %arg1[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
// J's extent.
//       CHECK: %[[NEXT2:[^ ]+]] = arith.addi %[[I]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S1X]], %[[I]] : index
//  CHECK-NEXT: %[[LO2:[^ ]+]] = memref.load %arg2[%[[O2]]] : memref<?xi32>
//  CHECK-NEXT: %[[LO2X:[^ ]+]] = arith.index_cast %[[LO2]] : i32 to index
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S2X]], %[[NEXT2]] : index
//  CHECK-NEXT: %[[HI2:[^ ]+]] = memref.load %arg2[%[[O3]]] : memref<?xi32>
//  CHECK-NEXT: %[[HI2X:[^ ]+]] = arith.index_cast %[[HI2]] : i32 to index
//  CHECK-NEXT: %[[LEN2:[^ ]+]] = arith.subi %[[HI2X]], %[[LO2X]] : index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %[[LEN2]] step %{{[^ ]+}} {
// Column coordinate: indices_j[indptr_j[indptr_i[o] + i] + j].
//  CHECK-NEXT: %[[S3:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[S3X:[^ ]+]] = arith.index_cast %[[S3]] : i32 to index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[S3X]], %[[I]] : index
//  CHECK-NEXT: %[[S4:[^ ]+]] = memref.load %arg2[%[[O4]]] : memref<?xi32>
//  CHECK-NEXT: %[[S4X:[^ ]+]] = arith.index_cast %[[S4]] : i32 to index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[S4X]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg3[%[[O5]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg11 step %{{[^ ]+}} {
// C[row * feat + k]
//  CHECK-NEXT: %[[R6:[^ ]+]] = arith.muli %[[ROWX]], %arg11 : index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[R6]], %[[K]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg6[%[[O6]]] : memref<?xf32>
// A[indptr_j[indptr_i[o] + i] + j]
//  CHECK-NEXT: %[[S7:[^ ]+]] = memref.load %arg0[%[[O]]] : memref<?xi32>
//  CHECK-NEXT: %[[S7X:[^ ]+]] = arith.index_cast %[[S7]] : i32 to index
//  CHECK-NEXT: %[[O7:[^ ]+]] = arith.addi %[[S7X]], %[[I]] : index
//  CHECK-NEXT: %[[S8:[^ ]+]] = memref.load %arg2[%[[O7]]] : memref<?xi32>
//  CHECK-NEXT: %[[S8X:[^ ]+]] = arith.index_cast %[[S8]] : i32 to index
//  CHECK-NEXT: %[[O8:[^ ]+]] = arith.addi %[[S8X]], %[[J]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg4[%[[O8]]] : memref<?xf32>
// B[col * feat + k]
//  CHECK-NEXT: %[[R9:[^ ]+]] = arith.muli %[[COLX]], %arg11 : index
//  CHECK-NEXT: %[[O9:[^ ]+]] = arith.addi %[[R9]], %[[K]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg5[%[[O9]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[R10:[^ ]+]] = arith.muli %[[ROWX]], %arg11 : index
//  CHECK-NEXT: %[[O10:[^ ]+]] = arith.addi %[[R10]], %[[K]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg6[%[[O10]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "dcsrmm.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "dcsrmm.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "dcsrmm.1"}
//  CHECK-NEXT: return
