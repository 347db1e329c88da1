// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(gpu.module(lower-row-barriers))' | FileCheck %s

// Rows of 8 threads: the 8 lanes from the row's first (lane & -8) meet;
// a row of a whole warp uses the full mask; a row of one thread needs no
// barrier; a block-wide barrier stays.
// CHECK-LABEL: gpu.func @rows
//       CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
//       CHECK: %[[NEG:.*]] = arith.constant -8 : i32
//       CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %[[NEG]] : i32
//       CHECK: %[[BITS:.*]] = arith.constant 255 : i32
//       CHECK: %[[MASK:.*]] = arith.shli %[[BITS]], %[[FIRST]] : i32
//       CHECK: nvvm.bar.warp.sync %[[MASK]] : i32
//       CHECK: %[[ALL:.*]] = arith.constant -1 : i32
//       CHECK: nvvm.bar.warp.sync %[[ALL]] : i32
//   CHECK-NOT: nvvm.bar.warp.sync
//       CHECK: gpu.barrier
//   CHECK-NOT: gpu.barrier
//       CHECK: gpu.return
gpu.module @kernels {
  gpu.func @rows() kernel {
    gpu.barrier {sptir.row = 8 : i64}
    gpu.barrier {sptir.row = 32 : i64}
    gpu.barrier {sptir.row = 1 : i64}
    gpu.barrier
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @unsized() kernel {
    // expected-error@+1 {{lower-row-barriers: a row barrier needs its row's thread count (sptir.row = N, N dividing 32)}}
    gpu.barrier {sptir.row}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @wide() kernel {
    // expected-error@+1 {{lower-row-barriers: a row barrier needs its row's thread count}}
    gpu.barrier {sptir.row = 64 : i64}
    gpu.return
  }
}
