// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(check-element-types)'
// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sptir-launches-to-gpu)' -o /dev/null

// NVPTX has no f80 or f128 arithmetic (the backend aborted on it): refused
// in a kernel, with its op.
func.func @quad(%y: memref<?xf128>, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{check-element-types: the GPU has no f128 arithmetic; kernels compute integers, f8E4M3FN, f8E5M2, f16, bf16, f32 and f64}}
    %v = memref.load %y[%bx] : memref<?xf128>
    %w = arith.addf %v, %v : f128
    memref.store %w, %y[%bx] : memref<?xf128>
    gpu.terminator
  }
  return
}
