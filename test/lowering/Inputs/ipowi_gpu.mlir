// math.ipowi in a kernel: NVPTX has no integer power, and upstream's
// software one (convert-math-to-funcs, as on the CPU) is copied into the
// kernel's module with it (and inlined there: squarings by mul.lo).
// CHECK: gpu.binary @f_kernel
// CHECK-SAME: __mlir_math_ipowi_i32
// CHECK-SAME: mul.lo.s32
func.func @f(%x: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "p" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, i32>
    %c3 = arith.constant 3 : i32
    %p = math.ipowi %v, %c3 : i32
    %q = math.ipowi %v, %v : i32
    %s = arith.addi %p, %q : i32
    sparse_iter.store %s, %X[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}
