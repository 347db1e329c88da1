// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(gpu.module(lower-subgroup-reductions))' | FileCheck %s

// Clusters of 8 lanes: three butterfly steps under the cluster's member
// mask (8 bits from its first lane) and segment (24 << 8 | 31), then a
// warp barrier on the same lanes.
// CHECK-LABEL: gpu.func @eight
//       CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
//       CHECK: %[[NEG:.*]] = arith.constant -8 : i32
//       CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %[[NEG]] : i32
//       CHECK: %[[BITS:.*]] = arith.constant 255 : i32
//       CHECK: %[[MASK:.*]] = arith.shli %[[BITS]], %[[FIRST]] : i32
//       CHECK: %[[SEG:.*]] = arith.constant 6175 : i32
//       CHECK: %[[O4:.*]] = arith.constant 4 : i32
//       CHECK: %[[S4:.*]] = nvvm.shfl.sync bfly %[[MASK]], %arg0, %[[O4]], %[[SEG]] : f32 -> f32
//       CHECK: %[[A4:.*]] = arith.addf %arg0, %[[S4]] : f32
//       CHECK: nvvm.shfl.sync bfly %[[MASK]], %[[A4]], %{{.*}}, %[[SEG]] : f32 -> f32
//       CHECK: arith.addf
//       CHECK: nvvm.shfl.sync bfly %[[MASK]]
//       CHECK: %[[SUM:.*]] = arith.addf
//       CHECK: nvvm.bar.warp.sync %[[MASK]] : i32
//       CHECK: memref.store %[[SUM]]
//   CHECK-NOT: gpu.subgroup_reduce
gpu.module @kernels {
  gpu.func @eight(%v: f32, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = gpu.subgroup_reduce add %v cluster(size = 8) : (f32) -> f32
    memref.store %s, %out[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// A whole warp (no cluster size): all lanes, five steps, on integers. A
// cluster of one lane is the value itself.
// CHECK-LABEL: gpu.func @warp
//       CHECK: %[[ALL:.*]] = arith.constant -1 : i32
//       CHECK: %[[SEG:.*]] = arith.constant 31 : i32
//       CHECK: nvvm.shfl.sync bfly %[[ALL]], %arg0, %{{.*}}, %[[SEG]] : i32 -> i32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %[[ALL]]
//       CHECK: nvvm.bar.warp.sync %[[ALL]]
//       CHECK: memref.store %arg0
gpu.module @kernels {
  gpu.func @warp(%v: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = gpu.subgroup_reduce add %v : (i32) -> i32
    memref.store %s, %out[%c0] : memref<?xi32>
    %t = gpu.subgroup_reduce add %v cluster(size = 1) : (i32) -> i32
    memref.store %t, %out[%c1] : memref<?xi32>
    gpu.return
  }
}

// -----

// Maxima and minima shuffle the same way, each step combining by the
// reduction's own op.
// CHECK-LABEL: gpu.func @extrema
//       CHECK: nvvm.shfl.sync bfly %{{.*}}, %arg0, {{.*}} : f32 -> f32
//       CHECK: arith.maximumf %arg0
//       CHECK: nvvm.shfl.sync bfly
//       CHECK: %[[MAX:.*]] = arith.maximumf
//       CHECK: nvvm.bar.warp.sync
//       CHECK: memref.store %[[MAX]]
//       CHECK: nvvm.shfl.sync bfly %{{.*}}, %arg1, {{.*}} : i32 -> i32
// CHECK-COUNT-4: arith.minui
//       CHECK: nvvm.bar.warp.sync
//   CHECK-NOT: gpu.subgroup_reduce
gpu.module @kernels {
  gpu.func @extrema(%v: f32, %w: i32, %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = gpu.subgroup_reduce maximumf %v cluster(size = 4) : (f32) -> f32
    memref.store %s, %out[%c0] : memref<?xf32>
    %t = gpu.subgroup_reduce minui %w cluster(size = 16) : (i32) -> i32
    memref.store %t, %iout[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @product(%v: f32, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{lower-subgroup-reductions: only sums, maxima and minima of 32-bit scalars}}
    %s = gpu.subgroup_reduce mul %v cluster(size = 8) : (f32) -> f32
    memref.store %s, %out[%c0] : memref<?xf32>
    gpu.return
  }
}
