// Math on vectors in CPU code (a vectorized loop run on the CPU, as the
// emulated GPU does): erf has no LLVM intrinsic and goes to libm lane by
// lane, fpowi to a generated power function (LLVM's powi takes a scalar
// exponent only), computed in f64 (widen-power-bases).
// CHECK-LABEL: llvm.func @ew(
//   CHECK-COUNT-4: llvm.call @erff(
//   CHECK-COUNT-4: llvm.call @__mlir_math_fpowi_f64_i32(
// CHECK-LABEL: llvm.func linkonce_odr @__mlir_math_fpowi_f64_i32(
func.func @ew(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c8 = arith.constant 8 : index
  %K = sparse_iter.dense_fixed %c8
  %X = sparse_iter.match_buffer %x [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "e" [%K] "S" body {
  ^bb0(%k: index):
    %v = sparse_iter.load %X[%k] : !sparse_iter.buffer<1, f32>
    %r = math.erf %v : f32
    %three = arith.constant 3 : i32
    %p = math.fpowi %r, %three : f32, i32
    sparse_iter.store %p, %Y[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}
