// The GPU pipeline leaves ceil, round, roundeven, exp2 and fma to
// lower-math-to-nvvm: each is one exact instruction a lane (what
// math-expand-ops writes for the roundings goes through i64, wrong from
// 2^63 up and for NaN; fma becomes two roundings).
// CHECK-LABEL: gpu.func @vector_ceil
//   CHECK-COUNT-4: llvm.call_intrinsic "llvm.ceil.f32"
//       CHECK:   vector.from_elements
//   CHECK-COUNT-2: llvm.call_intrinsic "llvm.round.f64"
//       CHECK:   llvm.call_intrinsic "llvm.roundeven.f32"
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   llvm.call_intrinsic "llvm.fma.f32"
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @vector_ceil(%x: vector<4xf32>, %d: vector<2xf64>, %s: f32) -> (vector<4xf32>, vector<2xf64>, f32) {
    %c = math.ceil %x : vector<4xf32>
    %r = math.round %d : vector<2xf64>
    %e = math.roundeven %s : f32
    %p = math.exp2 %e : f32
    %f = math.fma %p, %p, %p : f32
    gpu.return %c, %r, %f : vector<4xf32>, vector<2xf64>, f32
  }
}
