// RUN: sptir-opt %s --split-input-file -p 'builtin.module(fuse-launches)' | FileCheck %s

// Two launches that read x and write different outputs run as one: blocks
// [0, g0) run the first, [g0, g0 + g1) the second with its x id and grid
// size shifted back. The index arithmetic between them moves in front.
// CHECK-LABEL: func.func @independent
//       CHECK: %[[G1:.*]] = arith.addi %arg3, %arg3
//       CHECK: %[[END0:.*]] = arith.addi %c0{{.*}}, %arg2
//       CHECK: %[[TOTAL:.*]] = arith.addi %[[END0]], %[[G1]]
//       CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[TOTAL]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32
//       CHECK:   %[[L0:.*]] = arith.subi %[[BX]], %c0
//       CHECK:   %[[IN0:.*]] = arith.cmpi ult, %[[L0]], %arg2
//       CHECK:   scf.if %[[IN0]] {
//       CHECK:     memref.store %{{.*}}, %arg1
//       CHECK:   %[[L1:.*]] = arith.subi %[[BX]], %[[END0]]
//       CHECK:   %[[IN1:.*]] = arith.cmpi ult, %[[L1]], %[[G1]]
//       CHECK:   scf.if %[[IN1]] {
//       CHECK:     arith.muli %[[L1]], %[[G1]]
//       CHECK:     memref.store %{{.*}}, %arg4
//   CHECK-NOT: gpu.launch
func.func @independent(%x: memref<?xf32>, %y: memref<?xf32>, %g0: index, %n: index, %z: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g0, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    memref.store %v, %y[%bx] : memref<?xf32>
    gpu.terminator
  }
  %g1 = arith.addi %n, %n : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %gx : index
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %z[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Atomic additions to one output commute: fused.
// CHECK-LABEL: func.func @atomics
//       CHECK: gpu.launch
//   CHECK-NOT: gpu.launch
func.func @atomics(%x: memref<?xf32>, %y: memref<?xf32>, %g: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<?xf32>
    %old = memref.atomic_rmw addf %v, %y[%tx] : (f32, memref<?xf32>) -> f32
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %old = memref.atomic_rmw addf %v, %y[%bx] : (f32, memref<?xf32>) -> f32
    gpu.terminator
  }
  return
}

// -----

// The second launch reads what the first writes, the third adds
// atomically to what the second reads, and the fourth has other blocks:
// all stay apart.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-4: gpu.launch
func.func @dependent(%x: memref<?xf32>, %y: memref<?xf32>, %g: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<?xf32>
    memref.store %v, %y[%bx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %y[%bx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<?xf32>
    %old = memref.atomic_rmw addf %v, %y[%tx] : (f32, memref<?xf32>) -> f32
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A store between launches keeps them apart.
// CHECK-LABEL: func.func @barrier
// CHECK-COUNT-2: gpu.launch
func.func @barrier(%x: memref<?xf32>, %y: memref<?xf32>, %g: index, %v: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %w = memref.load %x[%bx] : memref<?xf32>
    gpu.terminator
  }
  memref.store %v, %x[%c1] : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %w = memref.load %x[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}
