// lower-sparse-iter + lower-sparse-buffer on sddmm: A and B share (I, J) and
// are read at indptr[i] + j; X is (I, K) row-major, Y is (J_detach, K)
// row-major and read at col * feat + k.
// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 x, %arg4 y, %arg5 b,
// %arg6 m, %arg7 n, %arg8 nnz, %arg9 feat.
// CHECK-LABEL: func.func @sddmm
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg6 step %{{[^ ]+}} {
//       CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[I]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = memref.load %arg0[%[[NEXT]]] : memref<?xi32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//       CHECK: scf.for %[[J:[^ ]+]] = %{{[^ ]+}} to %[[LEN]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[S0:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S0X:[^ ]+]] = arith.index_cast %[[S0]] : i32 to index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[S0X]], %[[J]] : index
//  CHECK-NEXT: %[[COL:[^ ]+]] = memref.load %arg1[%[[O0]]] : memref<?xi32>
//  CHECK-NEXT: %[[COLX:[^ ]+]] = arith.index_cast %[[COL]] : i32 to index
// Init: B[indptr[i] + j] = 0, before the reduction loop.
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[S1X]], %[[J]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg5[%[[O1]]] : memref<?xf32>
//       CHECK: scf.for %[[K:[^ ]+]] = %{{[^ ]+}} to %arg9 step %{{[^ ]+}} {
// B[indptr[i] + j]
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S2X]], %[[J]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg5[%[[O2]]] : memref<?xf32>
// X[i * feat + k]
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[I]], %arg9 : index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[R3]], %[[K]] : index
//  CHECK-NEXT: %[[XV:[^ ]+]] = memref.load %arg3[%[[O3]]] : memref<?xf32>
// Y[col * feat + k]
//  CHECK-NEXT: %[[R4:[^ ]+]] = arith.muli %[[COLX]], %arg9 : index
//  CHECK-NEXT: %[[O4:[^ ]+]] = arith.addi %[[R4]], %[[K]] : index
//  CHECK-NEXT: %[[YV:[^ ]+]] = memref.load %arg4[%[[O4]]] : memref<?xf32>
// A[indptr[i] + j]
//  CHECK-NEXT: %[[S5:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S5X:[^ ]+]] = arith.index_cast %[[S5]] : i32 to index
//  CHECK-NEXT: %[[O5:[^ ]+]] = arith.addi %[[S5X]], %[[J]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg2[%[[O5]]] : memref<?xf32>
//  CHECK-NEXT: %[[XY:[^ ]+]] = arith.mulf %[[XV]], %[[YV]] : f32
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[XY]], %[[AV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[S6:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S6X:[^ ]+]] = arith.index_cast %[[S6]] : i32 to index
//  CHECK-NEXT: %[[O6:[^ ]+]] = arith.addi %[[S6X]], %[[J]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg5[%[[O6]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "sddmm.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "sddmm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "sddmm.0"}
//  CHECK-NEXT: return
