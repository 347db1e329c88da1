// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sparse-pos-bind{loop=csrmm.2 to=threadIdx.x},sparse-pos-bind{loop=csrmm.1 to=threadIdx.y atomic=true})' | FileCheck %s

// RUN: sptir-opt %examples/sddmm_fused.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=sddmm.1 factor=8},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true})' | FileCheck %s --check-prefix=SHUFFLE

// RUN: sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=prop.1 to=blockIdx.x})' | FileCheck %s --check-prefix=STEP

// The rows of one propagation step read only the row the step before
// wrote; the steps stay outside the launch, on the host.
// STEP: sparse_pos.for "prop.0" spatial %{{[^ ]*}} to %{{[^ ]*}} {
// STEP: sparse_pos.for "prop.1" spatial {{.*}} attributes {bind = "blockIdx.x"}

// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-bind{loop=a to=threadIdx.x})' | FileCheck %s --check-prefix=WAVE

// A wavefront row reads the row before it, one column over: the columns
// of one row are independent (the rows stay outside the launch).
// WAVE: sparse_pos.for "b" spatial %{{[^ ]*}} to %{{[^ ]*}} {
// WAVE: sparse_pos.for "a" spatial {{.*}} attributes {bind = "threadIdx.x"}
func.func @wavefront(%n: index, %y: !sparse_iter.buffer<2, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.for "b" spatial %c1 to %n {
  ^bb0(%i: index):
    sparse_pos.for "a" spatial %c0 to %n {
    ^bb0(%k: index):
      %im = arith.subi %i, %c1 : index
      %kp = arith.addi %k, %c1 : index
      %up = sparse_pos.load %y[%im, %kp] : !sparse_iter.buffer<2, f32>
      sparse_pos.store %up, %y[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4 clamp=true},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x})' | FileCheck %s --check-prefix=CLAMPED

// A clamped split's chunks: each chunk's rows are chunk * 4 plus an offset
// below min(4, rows left), so chunks never share a row.
// CLAMPED: sparse_pos.for "csrmm.0.o" spatial {{.*}} attributes {bind = "blockIdx.x"}

// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x})' | FileCheck %s --check-prefix=INNERFIRST

// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=48},sparse-pos-split{loop=csrmm.0.i factor=5},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x})' | FileCheck %s --check-prefix=UNEVEN

// Blocks of 48 rows split by 5: the inner split's tail guard (offset < 48)
// keeps each block to its rows, which the chunks' span (50) alone would not.
// UNEVEN: sparse_pos.for "csrmm.0.o" spatial {{.*}} attributes {bind = "blockIdx.x"}

// The rows of a split bound inner part first: binding the chunks rechecks
// the row loop with the chunks bound (row chunk * 4 + offset), as binding
// them first would have checked it.
// INNERFIRST: sparse_pos.for "csrmm.0.o" spatial {{.*}} attributes {bind = "blockIdx.x"}
// INNERFIRST: sparse_pos.for "csrmm.0.i" spatial {{.*}} attributes {bind = "threadIdx.y"}

// SHUFFLE: sparse_pos.for "sddmm.1.i" reduction {{.*}} attributes {bind = "threadIdx.x", shuffle}

// CHECK: sparse_pos.for "csrmm.0" spatial {{.*}} attributes {bind = "blockIdx.x"}
// CHECK: sparse_pos.for "csrmm.init.1" spatial
// CHECK-NOT: bind
// CHECK: sparse_pos.for "csrmm.1" reduction {{.*}} attributes {atomic, bind = "threadIdx.y"}
// CHECK: sparse_pos.for "csrmm.2" spatial {{.*}} attributes {bind = "threadIdx.x"}
