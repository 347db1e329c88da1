// RUN: sptir-opt %s --sptir-to-cpu | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter)' | FileCheck %s

// A[i, j] at a row i that may be outside A (read from data): J's row
// bounds and its search are read only where i < m. Before, they were read
// at any i (indptr[10^9], past the end) and only the final load was
// guarded.
// CHECK-LABEL: func.func @lookup
//       CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I:.*]], %arg6 : index
//  CHECK-NEXT: %[[AT:.*]]:2 = scf.if %[[IN]] -> (index, i1) {
//  CHECK-NEXT:   %[[P:.*]], %[[FOUND:.*]] = sparse_pos.find
//  CHECK-NEXT:   scf.yield %[[P]], %[[FOUND]] : index, i1
//  CHECK-NEXT: } else {
//       CHECK:   scf.yield %{{.*}}, %false : index, i1
// The nested lookup's flag is the whole lookup's.
//   CHECK-NOT: sparse_pos.find
//       CHECK: scf.if %[[AT]]#1 -> (f32) {
//  CHECK-NEXT:   sparse_pos.load %{{.*}}[%[[I]], %[[AT]]#0]
// Row 0 holds column 1 (1.0); row 10^9 does not exist: the default, -1.
// RESULT: [1,  -1]
func.func @lookup(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                  %row: memref<?xi32>, %col: memref<?xi32>, %out: memref<?xf32>,
                  %m: index, %n: index, %nnz: index, %nq: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Q = sparse_iter.dense_fixed %nq
  %A = sparse_iter.match_buffer %a [%I, %J] {default_value = -1.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %R = sparse_iter.match_buffer %row [%Q] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %C = sparse_iter.match_buffer %col [%Q] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %O = sparse_iter.match_buffer %out [%Q] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "q" [%Q] "S" body {
  ^bb0(%q: index):
    %r = sparse_iter.load %R[%q] : !sparse_iter.buffer<1, i32>
    %c = sparse_iter.load %C[%q] : !sparse_iter.buffer<1, i32>
    %i = arith.index_cast %r : i32 to index
    %j = arith.index_cast %c : i32 to index
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %O[%q] : !sparse_iter.buffer<1, f32>
  }
  return
}
memref.global "private" constant @indptr : memref<4xi32> = dense<[0, 2, 2, 4]>
memref.global "private" constant @indices : memref<4xi32> = dense<[1, 3, 0, 4]>
memref.global "private" constant @vals : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" constant @rows : memref<2xi32> = dense<[0, 1000000000]>
memref.global "private" constant @cols : memref<2xi32> = dense<[1, 1]>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %g0 = memref.get_global @indptr : memref<4xi32>
  %g1 = memref.get_global @indices : memref<4xi32>
  %g2 = memref.get_global @vals : memref<4xf32>
  %g3 = memref.get_global @rows : memref<2xi32>
  %g4 = memref.get_global @cols : memref<2xi32>
  %o = memref.alloc() : memref<2xf32>
  %x0 = memref.cast %g0 : memref<4xi32> to memref<?xi32>
  %x1 = memref.cast %g1 : memref<4xi32> to memref<?xi32>
  %x2 = memref.cast %g2 : memref<4xf32> to memref<?xf32>
  %x3 = memref.cast %g3 : memref<2xi32> to memref<?xi32>
  %x4 = memref.cast %g4 : memref<2xi32> to memref<?xi32>
  %x5 = memref.cast %o : memref<2xf32> to memref<?xf32>
  %m = arith.constant 3 : index
  %n = arith.constant 5 : index
  %nnz = arith.constant 4 : index
  %nq = arith.constant 2 : index
  call @lookup(%x0, %x1, %x2, %x3, %x4, %x5, %m, %n, %nnz, %nq) : (memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xi32>, memref<?xf32>, index, index, index, index) -> ()
  %u = memref.cast %o : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
