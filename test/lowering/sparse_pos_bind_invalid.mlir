// RUN: sptir-opt %s --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.x})'
// RUN: not sptir-opt %S/Inputs/bind_bad_dimension.mlir -p 'builtin.module(sparse-pos-bind{loop=r to=warp.x})' 2>&1 | FileCheck %S/Inputs/bind_bad_dimension.mlir
// RUN: sptir-opt %S/Inputs/bind_missing_loop.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=nope to=blockIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_on_y.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.y shuffle=true})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_atomic.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=r to=threadIdx.x shuffle=true atomic=true})'
// RUN: sptir-opt %S/Inputs/bind_shuffle_spatial.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=threadIdx.x shuffle=true})'
// RUN: sptir-opt %S/Inputs/bind_marked.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=v to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_twice.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=blockIdx.x},sparse-pos-bind{loop=s to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_carried.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=rows to=blockIdx.x atomic=true})'
// RUN: sptir-opt %S/Inputs/bind_owned_rows.mlir --split-input-file --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=own to=blockIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_shared_buffer.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_shared_buffer.mlir -p 'builtin.module(sparse-pos-bind{loop=s to=blockIdx.x})' -o /dev/null
// RUN: sptir-opt %S/Inputs/bind_guarded_rows.mlir --split-input-file --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=blk to=blockIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_recomputed_index.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_fixed_store.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=s to=threadIdx.x})'
// RUN: sptir-opt %S/Inputs/bind_steps.mlir --verify-diagnostics -p 'builtin.module(sparse-pos-bind{loop=row to=threadIdx.x},sparse-pos-bind{loop=batch to=blockIdx.x})'
// RUN: not sptir-opt %S/Inputs/bind_steps.mlir -p 'builtin.module(sparse-pos-bind{loop=batch to=blockIdx.x},sparse-pos-bind{loop=row to=threadIdx.x})' 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=prop.0 to=blockIdx.x})' 2>&1 | FileCheck %s --check-prefix=PROPAGATE
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-fuse{loops=csrmm.1,csrmm.2},sparse-pos-bind{loop=csrmm.1+csrmm.2 to=threadIdx.x shuffle=true})' 2>&1 | FileCheck %s --check-prefix=FUSED
// A reduction fused with the spatial loop inside it: its lanes would
// write different outputs, which a shuffle cannot add.
// FUSED: error: sparse-pos-bind: shuffle=true adds the lanes' sums of one output, but positions of loop "csrmm.1+csrmm.2" write different ones (the sparse_pos.store at line {{[0-9]+}}:{{[0-9]+}}: a spatial loop fused into it?)

// Bound after the batches, the rows share their launch with the steps
// (bound before, the batches' bind refuses, in bind_steps.mlir).
// STEPS: bind_steps.mlir:13:7: error: sparse-pos-bind: positions of loop "row" pass data to each other, so they cannot run at once on threadIdx.x
// Each propagation step reads what the one before wrote.
// PROPAGATE: propagate.mlir:15:3: error: sparse-pos-bind: positions of loop "prop.0" pass data to each other, so they cannot run at once on blockIdx.x

// Threads of one reduction would race on %out.
func.func @reduction_without_atomics(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: loop "r" is a reduction; binding it to threadIdx.x makes threads race on its outputs (pass atomic=true to make its writes atomic, or shuffle=true on threadIdx.x to add the threads' sums in a warp shuffle)}}
  sparse_pos.for "r" reduction %c0 to %n {
  ^bb0(%p: index):
  }
  return
}
