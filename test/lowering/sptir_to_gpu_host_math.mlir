// RUN: sptir-opt %s --sptir-to-gpu | FileCheck %s

// Powers in host code are lowered as on the CPU (widened, then
// convert-math-to-funcs): a vector exponent used to reach LLVM's powi,
// which takes a scalar one, and fail to verify.
// CHECK-LABEL: llvm.func @powers
//   CHECK-NOT: llvm.intr.powi
//       CHECK: llvm.call @__mlir_math_fpowi_f64_i32
//   CHECK-NOT: llvm.intr.powi
func.func @powers(%v: vector<4xf32>, %ns: vector<4xi32>) -> vector<4xf32> {
  %c = math.fpowi %v, %ns : vector<4xf32>, vector<4xi32>
  return %c : vector<4xf32>
}
