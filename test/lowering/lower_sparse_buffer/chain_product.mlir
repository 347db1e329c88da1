// RUN: sptir-opt %s --sptir-to-cpu | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,lower-sparse-buffer,canonicalize)' | FileCheck %s

// Y over [F, I, J], J under I: a dense axis, then CSR. Each chain of
// axes is flattened on its own and the chains laid out row-major: (f, i, j)
// is at f * nnz + indptr[i] + j, in the f * nnz elements alloc_buffer
// sizes such a buffer with. Before, J's indptr was read at f * m + i.
// CHECK-LABEL: func.func @rep
//   CHECK-NOT: arith.muli %{{.*}}, %arg4
//       CHECK: arith.mulf
//       CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[J:.*]] : index
//  CHECK-NEXT: %[[SLAB:.*]] = arith.muli %[[F:.*]], %arg6 : index
//  CHECK-NEXT: %[[AT:.*]] = arith.addi %[[SLAB]], %[[ROW]] : index
//  CHECK-NEXT: memref.store %{{.*}}, %arg3[%[[AT]]]
// RESULT: [1,  2,  3,  2,  4,  6]
func.func @rep(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %y: memref<?xf32>,
               %m: index, %n: index, %nnz: index, %f: index) {
  %F = sparse_iter.dense_fixed %f
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%F, %I, %J] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  sparse_iter.iterate "rep" [%F, %I, %J] "SSS" body {
  ^bb0(%ff: index, %i: index, %j: index):
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %c1 = arith.constant 1 : index
    %f1 = arith.addi %ff, %c1 : index
    %fi = arith.index_cast %f1 : index to i32
    %fv = arith.sitofp %fi : i32 to f32
    %p = arith.mulf %v, %fv : f32
    sparse_iter.store %p, %Y[%ff, %i, %j] : !sparse_iter.buffer<3, f32>
  }
  return
}
// m = 2, n = 3, nnz = 3: row 0 = {0: 1.0, 2: 2.0}, row 1 = {1: 3.0}; f = 2.
// indptr is a 3-entry view of [0, 2, 3, 3, 3]. Expected y = [1, 2, 3, 2, 4, 6].
memref.global "private" constant @indptr5 : memref<5xi32> = dense<[0, 2, 3, 3, 3]>
memref.global "private" constant @indices : memref<3xi32> = dense<[0, 2, 1]>
memref.global "private" constant @vals : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %g0 = memref.get_global @indptr5 : memref<5xi32>
  %g1 = memref.get_global @indices : memref<3xi32>
  %g2 = memref.get_global @vals : memref<3xf32>
  %sv = memref.subview %g0[0] [3] [1] : memref<5xi32> to memref<3xi32, strided<[1]>>
  %y = memref.alloc() : memref<6xf32>
  %nine = arith.constant 9.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %q = %c0 to %c6 step %c1 {
    memref.store %nine, %y[%q] : memref<6xf32>
  }
  %x0 = memref.cast %sv : memref<3xi32, strided<[1]>> to memref<?xi32>
  %x1 = memref.cast %g1 : memref<3xi32> to memref<?xi32>
  %x2 = memref.cast %g2 : memref<3xf32> to memref<?xf32>
  %x3 = memref.cast %y : memref<6xf32> to memref<?xf32>
  %m = arith.constant 2 : index
  %n = arith.constant 3 : index
  %nnz = arith.constant 3 : index
  %f = arith.constant 2 : index
  call @rep(%x0, %x1, %x2, %x3, %m, %n, %nnz, %f) : (memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xf32>, index, index, index, index) -> ()
  %u = memref.cast %y : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
