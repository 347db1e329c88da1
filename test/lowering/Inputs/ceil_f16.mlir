// A math op on a type without a lowering is named where it is written.
gpu.module @kernels {
  gpu.func @f16_ceil(%x: vector<4xf16>) -> vector<4xf16> {
    // expected-error@+1 {{'math.ceil' is lowered on the GPU for f32 and f64 only, scalars or vectors}}
    %c = math.ceil %x : vector<4xf16>
    gpu.return %c : vector<4xf16>
  }
}
