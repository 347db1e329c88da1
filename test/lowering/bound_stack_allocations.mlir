// RUN: sptir-opt %s --split-input-file -p 'builtin.module(bound-stack-allocations)' | FileCheck %s

// In a loop: a buffer of a run-time size and one over 64 KiB go to the
// heap, each freed where its iteration ends; a small one moves to the
// entry, where one buffer serves every iteration.
// CHECK-LABEL: func.func @in_a_loop
//  CHECK-NEXT:   %[[SMALL:.*]] = memref.alloca() : memref<16xf32>
//       CHECK:   scf.for
//  CHECK-NEXT:     %[[SIZED:.*]] = memref.alloc(%arg0) : memref<?xf32>
//  CHECK-NEXT:     %[[BIG:.*]] = memref.alloc() : memref<32768xf32>
//       CHECK:     memref.load %[[SMALL]]
//       CHECK:     memref.dealloc %[[SIZED]]
//  CHECK-NEXT:     memref.dealloc %[[BIG]]
//  CHECK-NEXT:   }
//   CHECK-NOT:   memref.alloca(
func.func @in_a_loop(%n: index, %m: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    %sized = memref.alloca(%n) : memref<?xf32>
    %small = memref.alloca() : memref<16xf32>
    %big = memref.alloca() : memref<32768xf32>
    %v = memref.load %small[%c0] : memref<16xf32>
    memref.store %v, %sized[%c0] : memref<?xf32>
    memref.store %v, %big[%c0] : memref<32768xf32>
    %w = memref.load %sized[%c0] : memref<?xf32>
    memref.store %w, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// Outside loops a small buffer stays where it is; a run-sized one is freed
// before the return, its alignment kept.
// CHECK-LABEL: func.func @outside_loops
//  CHECK-NEXT:   arith.constant
//  CHECK-NEXT:   %[[SMALL:.*]] = memref.alloca() : memref<4xf32>
//  CHECK-NEXT:   %[[SIZED:.*]] = memref.alloc(%arg0) {alignment = 64 : i64} : memref<?xf32>
//       CHECK:   memref.dealloc %[[SIZED]]
//  CHECK-NEXT:   return
func.func @outside_loops(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %small = memref.alloca() : memref<4xf32>
  %sized = memref.alloca(%n) {alignment = 64} : memref<?xf32>
  %v = memref.load %small[%c0] : memref<4xf32>
  memref.store %v, %sized[%c0] : memref<?xf32>
  %w = memref.load %sized[%c0] : memref<?xf32>
  memref.store %w, %out[%c0] : memref<?xf32>
  return
}

// -----

// A buffer its block hands on (here, out of an scf.if) would be freed too
// early at the block's end: it stays on the stack.
// CHECK-LABEL: func.func @handed_on
//       CHECK:   memref.alloca(%arg0)
//   CHECK-NOT:   memref.dealloc
func.func @handed_on(%n: index, %flag: i1, %other: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %chosen = scf.if %flag -> memref<?xf32> {
    %sized = memref.alloca(%n) : memref<?xf32>
    scf.yield %sized : memref<?xf32>
  } else {
    scf.yield %other : memref<?xf32>
  }
  %v = memref.load %chosen[%c0] : memref<?xf32>
  return %v : f32
}

// -----

// A GPU thread's buffers are its local memory, which PTX sizes: untouched.
// CHECK-LABEL: func.func @in_a_launch
//       CHECK:   gpu.launch
//       CHECK:     memref.alloca(%arg0) : memref<?xf32>
//       CHECK:     memref.alloca() : memref<16xf32>
//   CHECK-NOT:   memref.alloc(
func.func @in_a_launch(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %sized = memref.alloca(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %small = memref.alloca() : memref<16xf32>
      %v = memref.load %small[%c0] : memref<16xf32>
      memref.store %v, %sized[%i] : memref<?xf32>
    }
    %w = memref.load %sized[%c0] : memref<?xf32>
    memref.store %w, %out[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Buffers that outlive their iteration stay where they are: one rotated
// through a loop's carried values (hoisted, it would be its own
// predecessor), one that a select may hand on (freed at the block's end,
// it would be used after), and one whose layout symbol the iteration
// defines.
// CHECK-LABEL: func.func @outliving
//       CHECK:   scf.for
//  CHECK-NEXT:     %[[NEXT:.*]] = memref.alloca() : memref<4xf32>
//       CHECK:     scf.yield %[[NEXT]]
//       CHECK:   scf.for
//  CHECK-NEXT:     memref.alloca(%arg0) : memref<?xf32>
//       CHECK:     arith.select
//       CHECK:   scf.for
//  CHECK-NEXT:     memref.alloca()[%{{.*}}] : memref<4xf32, strided<[1], offset: ?>>
//   CHECK-NOT:   memref.dealloc
func.func @outliving(%n: index, %first: memref<4xf32>, %other: memref<?xf32>, %flag: i1, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%previous = %first) -> memref<4xf32> {
    %next = memref.alloca() : memref<4xf32>
    %v = memref.load %previous[%c1] : memref<4xf32>
    memref.store %v, %next[%c0] : memref<4xf32>
    scf.yield %next : memref<4xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %sized = memref.alloca(%n) : memref<?xf32>
    %chosen = arith.select %flag, %sized, %other : memref<?xf32>
    %v = memref.load %chosen[%c0] : memref<?xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %shifted = memref.alloca()[%i] : memref<4xf32, strided<[1], offset: ?>>
    %v = memref.load %shifted[%c0] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}
