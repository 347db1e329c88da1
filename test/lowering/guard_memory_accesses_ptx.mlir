// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses,sptir-launches-to-gpu)' | FileCheck %s

// On the GPU a failed check counts with global atomics in the kernel,
// where the access is.
// CHECK: gpu.binary @launch_kernel
// CHECK: .entry launch_kernel
// CHECK-DAG: atom.global.add.u32
// CHECK-DAG: atom.global.max.s32
// CHECK-DAG: st.global.b32
func.func @launch(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}
