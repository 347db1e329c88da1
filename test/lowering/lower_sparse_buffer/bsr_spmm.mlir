// lower-sparse-iter + lower-sparse-buffer on bsr_spmm: A over (I, J, BI, BJ)
// is flattened as ((indptr[i] + j) * blk + bi) * blk + bj; B over
// (J_detach, BJ, F) as (col * blk + bj) * feat + f; C over (I, BI, F) as
// (i * blk + bi) * feat + f.
// RUN: sptir-opt %examples/bsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %examples/bsr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s --check-prefix=GONE

// GONE-NOT: sparse_iter.
// GONE-NOT: sparse_pos.
// GONE-NOT: scf.while

// Arguments: %arg0 indptr, %arg1 indices, %arg2 a, %arg3 b, %arg4 c,
// %arg5 nb, %arg6 mb, %arg7 nnzb, %arg8 blk, %arg9 feat.
// CHECK-LABEL: func.func @bsr_spmm
//       CHECK: scf.for %[[I:[^ ]+]] = %{{[^ ]+}} to %arg5 step %{{[^ ]+}} {
//       CHECK: scf.for %[[BI:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {

// Init nest over F: C[(i * blk + bi) * feat + f] = 0.
//       CHECK: scf.for %[[IF:[^ ]+]] = %{{[^ ]+}} to %arg9 step %{{[^ ]+}} {
//  CHECK-NEXT: %[[ZERO:[^ ]+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %[[T0:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[T1:[^ ]+]] = arith.addi %[[T0]], %[[BI]] : index
//  CHECK-NEXT: %[[T2:[^ ]+]] = arith.muli %[[T1]], %arg9 : index
//  CHECK-NEXT: %[[T3:[^ ]+]] = arith.addi %[[T2]], %[[IF]] : index
//  CHECK-NEXT: memref.store %[[ZERO]], %arg4[%[[T3]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "bsrmm.init.1"}

//       CHECK: scf.for %[[BJ:[^ ]+]] = %{{[^ ]+}} to %arg8 step %{{[^ ]+}} {
//       CHECK: scf.for %[[F:[^ ]+]] = %{{[^ ]+}} to %arg9 step %{{[^ ]+}} {
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
// C
//  CHECK-NEXT: %[[C0:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[C1:[^ ]+]] = arith.addi %[[C0]], %[[BI]] : index
//  CHECK-NEXT: %[[C2:[^ ]+]] = arith.muli %[[C1]], %arg9 : index
//  CHECK-NEXT: %[[C3:[^ ]+]] = arith.addi %[[C2]], %[[F]] : index
//  CHECK-NEXT: %[[ACC:[^ ]+]] = memref.load %arg4[%[[C3]]] : memref<?xf32>
// A
//  CHECK-NEXT: %[[S1:[^ ]+]] = memref.load %arg0[%[[I]]] : memref<?xi32>
//  CHECK-NEXT: %[[S1X:[^ ]+]] = arith.index_cast %[[S1]] : i32 to index
//  CHECK-NEXT: %[[A0:[^ ]+]] = arith.addi %[[S1X]], %[[J]] : index
//  CHECK-NEXT: %[[A1:[^ ]+]] = arith.muli %[[A0]], %arg8 : index
//  CHECK-NEXT: %[[A2:[^ ]+]] = arith.addi %[[A1]], %[[BI]] : index
//  CHECK-NEXT: %[[A3:[^ ]+]] = arith.muli %[[A2]], %arg8 : index
//  CHECK-NEXT: %[[A4:[^ ]+]] = arith.addi %[[A3]], %[[BJ]] : index
//  CHECK-NEXT: %[[AV:[^ ]+]] = memref.load %arg2[%[[A4]]] : memref<?xf32>
// B
//  CHECK-NEXT: %[[B0:[^ ]+]] = arith.muli %[[COLX]], %arg8 : index
//  CHECK-NEXT: %[[B1:[^ ]+]] = arith.addi %[[B0]], %[[BJ]] : index
//  CHECK-NEXT: %[[B2:[^ ]+]] = arith.muli %[[B1]], %arg9 : index
//  CHECK-NEXT: %[[B3:[^ ]+]] = arith.addi %[[B2]], %[[F]] : index
//  CHECK-NEXT: %[[BV:[^ ]+]] = memref.load %arg3[%[[B3]]] : memref<?xf32>
//  CHECK-NEXT: %[[PROD:[^ ]+]] = arith.mulf %[[AV]], %[[BV]] : f32
//  CHECK-NEXT: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
//  CHECK-NEXT: %[[D0:[^ ]+]] = arith.muli %[[I]], %arg8 : index
//  CHECK-NEXT: %[[D1:[^ ]+]] = arith.addi %[[D0]], %[[BI]] : index
//  CHECK-NEXT: %[[D2:[^ ]+]] = arith.muli %[[D1]], %arg9 : index
//  CHECK-NEXT: %[[D3:[^ ]+]] = arith.addi %[[D2]], %[[F]] : index
//  CHECK-NEXT: memref.store %[[SUM]], %arg4[%[[D3]]] : memref<?xf32>
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "bsrmm.4"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "bsrmm.3"}
//  CHECK-NEXT: } {sptir.kind = "reduction", sptir.label = "bsrmm.2"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "bsrmm.1"}
//  CHECK-NEXT: } {sptir.kind = "spatial", sptir.label = "bsrmm.0"}
//  CHECK-NEXT: return
