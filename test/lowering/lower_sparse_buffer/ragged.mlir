// lower-sparse-iter + lower-sparse-buffer on ragged: X over (B, L, F) is read
// at (indptr[b] + l) * feat + f; the dense_variable axis L has no indices,
// so no coordinate load precedes the F loop.
// RUN: sptir-opt %examples/ragged.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/ragged.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr, %arg1 x, %arg2 s, %arg3 batch, %arg4 maxlen,
// %arg5 total, %arg6 feat.
// CHECK-LABEL: func.func @ragged
//       CHECK: scf.for %[[B:[^ ]+]] = %{{[^ ]+}} to %arg3 step %{{[^ ]+}} {
//       CHECK: scf.for %[[IF:[^ ]+]] = %{{[^ ]+}} to %arg6 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[R0:[^ ]+]] = arith.muli %[[B]], %arg6 : index
//  CHECK-NEXT: %[[O0:[^ ]+]] = arith.addi %[[R0]], %[[IF]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg2[%[[O0]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "seqsum.init.1"}
//       CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[B]], %{{[^ ]+}} : index
//  CHECK-NEXT: %[[LO:[^ ]+]] = memref.load %arg0[%[[B]]] : memref<?xi32>
//  CHECK-NEXT: %[[LOX:[^ ]+]] = arith.index_cast %[[LO]] : i32 to index
//  CHECK-NEXT: %[[HI:[^ ]+]] = memref.load %arg0[%[[NEXT]]] : memref<?xi32>
//  CHECK-NEXT: %[[HIX:[^ ]+]] = arith.index_cast %[[HI]] : i32 to index
//  CHECK-NEXT: %[[LEN:[^ ]+]] = arith.subi %[[HIX]], %[[LOX]] : index
//       CHECK: scf.for %[[L:[^ ]+]] = %{{[^ ]+}} to %[[LEN]] step %{{[^ ]+}} {
//  CHECK-NEXT: %[[Z:[^ ]+]] = arith.constant 0 : index
//  CHECK-NEXT: %[[STEP:[^ ]+]] = arith.constant 1 : index
//  CHECK-NEXT: scf.for %[[F:[^ ]+]] = %[[Z]] to %arg6 step %[[STEP]] {
//  CHECK-NEXT: %[[R1:[^ ]+]] = arith.muli %[[B]], %arg6 : index
//  CHECK-NEXT: %[[O1:[^ ]+]] = arith.addi %[[R1]], %[[F]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg2[%[[O1]]] : memref<?xf32>
//  CHECK-NEXT: %[[S2:[^ ]+]] = memref.load %arg0[%[[B]]] : memref<?xi32>
//  CHECK-NEXT: %[[S2X:[^ ]+]] = arith.index_cast %[[S2]] : i32 to index
//  CHECK-NEXT: %[[O2:[^ ]+]] = arith.addi %[[S2X]], %[[L]] : index
//  CHECK-NEXT: %[[R2:[^ ]+]] = arith.muli %[[O2]], %arg6 : index
//  CHECK-NEXT: %[[X2:[^ ]+]] = arith.addi %[[R2]], %[[F]] : index
//  CHECK-NEXT: %[[XV:[^ ]+]] = memref.load %arg1[%[[X2]]] : memref<?xf32>
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[XV]] : f32
//  CHECK-NEXT: %[[R3:[^ ]+]] = arith.muli %[[B]], %arg6 : index
//  CHECK-NEXT: %[[O3:[^ ]+]] = arith.addi %[[R3]], %[[F]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg2[%[[O3]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "seqsum.2"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "seqsum.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "seqsum.0"}
//  CHECK-NEXT: return
