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
    // expected-error@+1 {{lower-row-barriers: a row barrier needs its row's thread count (sptir.row = N, N dividing 32 or a multiple of 32)}}
    gpu.barrier {sptir.row}
    gpu.return
  }
}

// -----

// Rows of two warps, 3 rows on y and 2 on z: row (y, z) meets at named
// barrier 1 + y + 3 z, with its 64 threads.
// CHECK-LABEL: gpu.func @warps
//       CHECK: %[[Y:.*]] = nvvm.read.ptx.sreg.tid.y : i32
//       CHECK: %[[Z:.*]] = nvvm.read.ptx.sreg.tid.z : i32
//       CHECK: %[[THREE:.*]] = arith.constant 3 : i32
//       CHECK: %[[ZS:.*]] = arith.muli %[[Z]], %[[THREE]] : i32
//       CHECK: %[[ROW:.*]] = arith.addi %[[Y]], %[[ZS]] : i32
//       CHECK: %[[ONE:.*]] = arith.constant 1 : i32
//       CHECK: %[[ID:.*]] = arith.addi %[[ROW]], %[[ONE]] : i32
//       CHECK: %[[COUNT:.*]] = arith.constant 64 : i32
//       CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
//   CHECK-NOT: gpu.barrier
gpu.module @kernels {
  gpu.func @warps() kernel attributes {known_block_size = array<i32: 64, 3, 2>} {
    gpu.barrier {sptir.row = 64 : i64}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @odd() kernel {
    // expected-error@+1 {{lower-row-barriers: a row barrier needs its row's thread count (sptir.row = N, N dividing 32 or a multiple of 32)}}
    gpu.barrier {sptir.row = 48 : i64}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @too_many_rows() kernel attributes {known_block_size = array<i32: 64, 4, 4>} {
    // expected-error@+1 {{lower-row-barriers: a row of 64 threads (whole warps) takes a named barrier of its own, so its gpu.func needs a known_block_size of x size 64 and at most 15 rows (y * z), got [64, 4, 4]}}
    gpu.barrier {sptir.row = 64 : i64}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @unknown_block() kernel {
    // expected-error@+1 {{got none}}
    gpu.barrier {sptir.row = 64 : i64}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @other_width() kernel attributes {known_block_size = array<i32: 128, 2, 1>} {
    // expected-error@+1 {{needs a known_block_size of x size 64}}
    gpu.barrier {sptir.row = 64 : i64}
    gpu.return
  }
}
