// RUN: sptir-opt %s --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.x})'
// RUN: not sptir-opt %S/Inputs/bind_bad_dimension.mlir -p 'builtin.module(sparse-pos-bind{loop=r to=warp.x})' 2>&1 | FileCheck %S/Inputs/bind_bad_dimension.mlir
// RUN: sptir-opt %S/Inputs/bind_missing_loop.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=nope to=blockIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_on_y.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.y shuffle=true})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_atomic.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.x shuffle=true atomic=true})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_spatial.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=threadIdx.x shuffle=true})'
// RUN: sptir-opt %S/Inputs/bind_marked.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=v to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_twice.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=blockIdx.x},sparse-pos-bind{loop=s to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_carried.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=rows to=blockIdx.x atomic=true})'

// Threads of one reduction would race on %out.
func.func @reduction_without_atomics(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: loop "r" is a reduction; binding it to threadIdx.x makes threads race on its outputs (pass atomic=true to make its writes atomic, or shuffle=true on threadIdx.x to add the threads' sums in a warp shuffle)}}
  sparse_pos.for "r" reduction %c0 to %n {
  ^bb0(%p: index):
  }
  return
}
