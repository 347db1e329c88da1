// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter)' | FileCheck %s
// RUN: sptir-opt %s --sptir-to-cpu | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT

// Y and Z are two buffers over one array. The sum into Y[i + 1] reads the
// element before Z's store overwrites it: the load stays in front of that
// store instead of moving into the guard of the store to Y (where an
// accumulation's load goes when nothing between writes the element).
// CHECK-LABEL: func.func @shifted_sum
//       CHECK:   sparse_pos.for "sum.0"
//       CHECK:     sparse_pos.load %[[Y:.*]][%{{.*}}] : <1, f32>
//       CHECK:     sparse_pos.store %cst, %[[Z:.*]][%{{.*}}] : <1, f32>
//       CHECK:     sparse_pos.store %{{.*}}, %[[Y]][%{{.*}}] : <1, f32>
// y[i + 1] = y[i + 1] + x[i], where y[i + 1] holds 20, 30, 40, 50.
// RESULT: [10,  21,  32,  43,  54]
func.func @shifted_sum(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "sum" [%I] "S" body {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %next = arith.addi %i, %c1 : index
    %old = sparse_iter.load %Y[%next] : !sparse_iter.buffer<1, f32>
    %c100 = arith.constant 100.0 : f32
    sparse_iter.store %c100, %Z[%next] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %s = arith.addf %old, %v : f32
    sparse_iter.store %s, %Y[%next] : !sparse_iter.buffer<1, f32>
  }
  return
}

memref.global "private" constant @xs : memref<5xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>
memref.global "private" constant @ys : memref<5xf32> = dense<[10.0, 20.0, 30.0, 40.0, 50.0]>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %gx = memref.get_global @xs : memref<5xf32>
  %gy = memref.get_global @ys : memref<5xf32>
  %y = memref.alloc() : memref<5xf32>
  memref.copy %gy, %y : memref<5xf32> to memref<5xf32>
  %x = memref.cast %gx : memref<5xf32> to memref<?xf32>
  %yd = memref.cast %y : memref<5xf32> to memref<?xf32>
  %n = arith.constant 5 : index
  call @shifted_sum(%x, %yd, %n) : (memref<?xf32>, memref<?xf32>, index) -> ()
  %u = memref.cast %y : memref<5xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
