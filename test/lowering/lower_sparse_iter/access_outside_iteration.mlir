// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %s --sptir-to-cpu | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=GPU

// A rank-0 scale read once, outside the iteration that uses it: the
// access walks no axis, so it becomes a load at its (here no) positions.
// CHECK-LABEL: func.func @scale
//       CHECK: %[[S:.*]] = sparse_pos.load %{{.*}}[] : <0, f32>
//       CHECK: sparse_pos.for "sc.0"
//       CHECK:   arith.mulf %{{.*}}, %[[S]] : f32
// On the GPU the launch reads the scale itself: the host reads no GPU
// memory.
//   GPU-LABEL: func.func @scale
//         GPU: gpu.launch
//    GPU-NEXT:   memref.load %arg1[%c0]
// RESULT: [2,  4,  6]
func.func @scale(%x: memref<?xf32>, %s: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %N = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%N] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%N] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %S = sparse_iter.match_buffer %s [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  %sv = sparse_iter.load %S[] : !sparse_iter.buffer<0, f32>
  sparse_iter.iterate "sc" [%N] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %v, %sv : f32
    sparse_iter.store %p, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

memref.global "private" constant @xs : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" constant @ss : memref<1xf32> = dense<[2.0]>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %gx = memref.get_global @xs : memref<3xf32>
  %gs = memref.get_global @ss : memref<1xf32>
  %y = memref.alloc() : memref<3xf32>
  %x = memref.cast %gx : memref<3xf32> to memref<?xf32>
  %s = memref.cast %gs : memref<1xf32> to memref<?xf32>
  %yd = memref.cast %y : memref<3xf32> to memref<?xf32>
  %n = arith.constant 3 : index
  call @scale(%x, %s, %yd, %n) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index) -> ()
  %u = memref.cast %y : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
