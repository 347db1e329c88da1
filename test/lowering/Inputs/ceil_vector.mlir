// math-expand-ops writes a vector ceil with copysign at the ceil's own
// location: the error names both.
gpu.module @kernels {
  gpu.func @vector_ceil(%x: vector<4xf32>) -> vector<4xf32> {
    // expected-error@+1 {{'math.copysign' is lowered on the GPU for f32 and f64 scalars only (the op here, or the ceil, round or roundeven that math-expand-ops writes with it)}}
    %c = math.ceil %x : vector<4xf32>
    gpu.return %c : vector<4xf32>
  }
}
