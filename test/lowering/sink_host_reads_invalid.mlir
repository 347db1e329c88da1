// RUN: sptir-opt %s --pass-pipeline='builtin.module(sptir-to-gpu)' --verify-diagnostics

// y[i] -= y[0] in place: the value read first is one the kernel then
// overwrites, so its threads cannot each read it again; sink-host-reads
// leaves it on the host and place-device-memory says why. (The CPU runs
// it in order.)
func.func @recenter(%y: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{place-device-memory: 'memref.load' would read or write GPU memory on the host, which only launches kernels; only kernels use the value it reads, but it was not moved into them: sink-host-reads moves such a read only where nothing writes the memory it reads before the last of them reads it}}
  %first = sparse_iter.load %Y[%c0] : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "recenter" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %r = arith.subf %v, %first : f32
    sparse_iter.store %r, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
