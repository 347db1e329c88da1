// lower-sparse-iter + lower-sparse-buffer on csc_spmm: A is flattened along
// (J, I) as indptr[j] + i; C (over the detached row axis) and B are dense and
// row-major.
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 m, %arg6 n, %arg7 nnz, %arg8 feat.
// CHECK-LABEL: func.func @csc_spmm
//       CHECK: scf.for %[[ZI:[^ ]+]] = %{{[^ ]+}} to %arg5 step %{{[^ ]+}} {
//       CHECK: scf.for %[[ZK:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[ZI]], %arg8 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[ZK]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg4[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "zero.0"}

//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %arg6 step %{{[^ ]+}} {
//       CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[J]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = memref.load %arg0[%[[J]]] : memref<?xi32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = memref.load %arg0[%[[NEXT]]] : memref<?xi32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %[[LEN]] step %{{[^ ]+}} {
// The row coordinate: indices[indptr[j] + i].
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[J]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S0X]], %[[I]] : index
//  CHECK-NEXT: %[[ROW:[^ ]+]] = memref.load %arg1[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[ROWX:[^ ]+]] = arith.index_cast %[[ROW]] : i32 to index
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
// C[row * feat + k]
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[ROWX]], %arg8 : index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[R1]], %[[K]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg4[%[[O2]]] : memref<?xf32>
// A[indptr[j] + i]
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[J]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S1X]], %[[I]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg2[%[[O3]]] : memref<?xf32>
// B[j * feat + k]
//  CHECK-NEXT: %[[R2:[^ ]+]] = arith.muli %[[J]], %arg8 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R2]], %[[K]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg3[%[[O4]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[ROWX]], %arg8 : index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[R3]], %[[K]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg4[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "cscmm.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "cscmm.1"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "cscmm.0"}
//  CHECK-NEXT: return
