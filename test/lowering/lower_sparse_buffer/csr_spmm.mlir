// lower-sparse-iter + lower-sparse-buffer on csr_spmm: stage III is scf.for
// loops (label and kind kept as sptir.label / sptir.kind) over 1-D memref
// accesses at flattened offsets: a dense axis scales by its length, the
// variable axis J replaces the offset with indptr[offset].
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 m, %arg6 n, %arg7 nnz, %arg8 feat.
// CHECK-LABEL: func.func @csr_spmm
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg5 step %{{[^ ]+}} {

// Init nest: C[i * feat + k] = 0.
//       CHECK: scf.for %[[IK:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[IK]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg4[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "csrmm.init.1"}

// J's extent: indptr[i + 1] - indptr[i].
//       CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[I]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = memref.load %arg0[%[[NEXT]]] : memref<?xi32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %[[LEN]] step %{{[^ ]+}} {

// The column coordinate: indices[indptr[i] + j].
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S0X]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg1[%[[O1]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
// C[i * feat + k]
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[R1]], %[[K]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg4[%[[O2]]] : memref<?xf32>
// A[indptr[i] + j]
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[S1X]], %[[J]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg2[%[[O3]]] : memref<?xf32>
// B[col * feat + k]
//  CHECK-NEXT: %[[R2:[^ ]+]] = arith.muli %[[COLX]], %arg8 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R2]], %[[K]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg3[%[[O4]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[R3]], %[[K]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg4[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "csrmm.2"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "csrmm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "csrmm.0"}
//  CHECK-NEXT: return
