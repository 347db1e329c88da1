// tanh on f64 reaches lower-math-to-nvvm as exp (math-expand-ops): the
// refusal names exp and says where it may come from.
gpu.module @kernels {
  gpu.func @tanh_f64(%d: f64) -> f64 {
    // expected-error@+1 {{'math.exp' on f64 (the op here, or what math-expand-ops writes an op here with: tanh}}
    %t = math.tanh %d : f64
    gpu.return %t : f64
  }
}
