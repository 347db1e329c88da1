// lower-sparse-iter + lower-sparse-buffer on ell_spmm: the sparse_fixed axis
// J scales the row offset by nnz_cols (no indptr): indices and A are read at
// i * nnz_cols + j, and the J loop runs to nnz_cols.
// RUN: sptir-opt %examples/ell_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/ell_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indices, %arg1 a, %arg2 b, %arg3 c, %arg4 m, %arg5 n,
// %arg6 nnz_cols, %arg7 feat.
// CHECK-LABEL: func.func @ell_spmm
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg4 step %{{[^ ]+}} {
//       CHECK: scf.for %[[IK:[^ ]+]] = %{{[^ ]+}} to %arg7 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[I]], %arg7 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[IK]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg3[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ellmm.init.1"}
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %arg6 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[I]], %arg6 : index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[R1]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg0[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg7 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[R2:[^ ]+]] = arith.muli %[[I]], %arg7 : index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[R2]], %[[K]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg3[%[[O2]]] : memref<?xf32>
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[I]], %arg6 : index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[R3]], %[[J]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg1[%[[O3]]] : memref<?xf32>
//  CHECK-NEXT: %[[R4:[^ ]+]] = arith.muli %[[COLX]], %arg7 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R4]], %[[K]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg2[%[[O4]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[R5:[^ ]+]] = arith.muli %[[I]], %arg7 : index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[R5]], %[[K]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg3[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ellmm.2"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "ellmm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "ellmm.0"}
//  CHECK-NEXT: return
