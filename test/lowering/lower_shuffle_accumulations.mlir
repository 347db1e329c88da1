// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(lower-shuffle-accumulations)' | FileCheck %s

// A register sum under a row guard (threadIdx.y): it starts from zero,
// the row's 8 lanes add their sums, the first lane adds the total to the
// element it read before.
// CHECK-LABEL: func.func @row_of_lanes
//       CHECK: gpu.launch
//       CHECK:   scf.if
//       CHECK:     %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
//       CHECK:     %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
//       CHECK:     %[[TOTAL:.*]] = gpu.subgroup_reduce add %[[SUM]] cluster(size = 8) : (f32) -> f32
//       CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
//       CHECK:     scf.if %[[FIRST]] {
//  CHECK-NEXT:       %[[OLD:.*]] = memref.load %arg0[%{{.*}}]
//  CHECK-NEXT:       %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]]
//  CHECK-NEXT:       memref.store %[[NEW]], %arg0[%{{.*}}]
//   CHECK-NOT:     memref.store
//       CHECK:   gpu.terminator
func.func @row_of_lanes(%out: memref<?xf32>, %x: memref<?xf32>, %rows: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %row = arith.cmpi ult, %ty, %rows : index
    scf.if %row {
      %init = memref.load %out[%ty] : memref<?xf32>
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
        %f = arith.muli %k, %c8 : index
        %g = arith.addi %f, %tx : index
        %v = memref.load %x[%g] : memref<?xf32>
        %next = arith.addf %acc, %v : f32
        scf.yield %next : f32
      }
      memref.store %sum, %out[%ty] {sptir.shuffle = 8 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Every lane zeroes the element (SDDMM's output) before the accumulation:
// the first lane adds the total to that zero instead, so no lane stores
// the zero nor loads the element back.
// CHECK-LABEL: func.func @zeroed
//       CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-NOT: memref.store
//       CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add
//       CHECK: scf.if
//  CHECK-NEXT:   %[[NEW:.*]] = arith.addf %[[Z]], %[[TOTAL]]
//  CHECK-NEXT:   memref.store %[[NEW]], %arg0[%{{.*}}]
//   CHECK-NOT: memref.load %arg0
//       CHECK: gpu.terminator
func.func @zeroed(%out: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<?xf32>
    %v = memref.load %x[%tx] : memref<?xf32>
    %other = memref.load %y[%bx] : memref<?xf32>
    %old = memref.load %out[%bx] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// The zeroing sits before the alignment versions of a vectorized sum:
// each version's first lane adds its total to the zero, and as both write
// the element, no lane stores the zero any more.
// CHECK-LABEL: func.func @zeroed_before_versions
//       CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-NOT: memref.store
//       CHECK: scf.if %arg3 {
//       CHECK:   %[[T1:.*]] = gpu.subgroup_reduce add
//       CHECK:   scf.if
//  CHECK-NEXT:     arith.addf %[[Z]], %[[T1]]
//  CHECK-NEXT:     memref.store
//       CHECK: } else {
//       CHECK:   %[[T2:.*]] = gpu.subgroup_reduce add
//       CHECK:   scf.if
//  CHECK-NEXT:     arith.addf %[[Z]], %[[T2]]
//  CHECK-NEXT:     memref.store
//   CHECK-NOT: memref.load %arg0
//       CHECK: gpu.terminator
func.func @zeroed_before_versions(%out: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %aligned: i1) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<?xf32>
    scf.if %aligned {
      %v = memref.load %x[%tx] : memref<?xf32>
      %old = memref.load %out[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    } else {
      %v = memref.load %y[%tx] : memref<?xf32>
      %old = memref.load %out[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Two elements zeroed before the versions, both accumulated in each: the
// first sum's zeroing goes (once); the second sum comes after the first's
// shuffle, so its zeroing stays and its first lane reads it back.
// CHECK-LABEL: func.func @two_zeroed_before_versions
//   CHECK-NOT: memref.store %cst, %arg0
//       CHECK: memref.store %cst, %arg1
//       CHECK: scf.if %arg3 {
//       CHECK:   arith.addf %cst
//       CHECK:   memref.load %arg1
//       CHECK: } else {
//       CHECK:   arith.addf %cst
//       CHECK:   memref.load %arg1
//       CHECK: gpu.terminator
func.func @two_zeroed_before_versions(%out: memref<?xf32>, %out2: memref<?xf32>, %x: memref<?xf32>, %aligned: i1) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<?xf32>
    memref.store %zero, %out2[%bx] : memref<?xf32>
    scf.if %aligned {
      %v = memref.load %x[%tx] : memref<?xf32>
      %old = memref.load %out[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
      %old2 = memref.load %out2[%bx] : memref<?xf32>
      %new2 = arith.addf %old2, %v : f32
      memref.store %new2, %out2[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    } else {
      %v = memref.load %x[%tx] : memref<?xf32>
      %old = memref.load %out[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
      %old2 = memref.load %out2[%bx] : memref<?xf32>
      %new2 = arith.addf %old2, %v : f32
      memref.store %new2, %out2[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Only one branch accumulates: the first lane still adds to the zero, but
// the zeroing stays for the path that does not write the element. Around
// a loop, a later iteration must read the sum of an earlier one: the
// element is loaded back.
// CHECK-LABEL: func.func @zeroed_partly
//       CHECK: memref.store %{{.*}}, %arg0
//       CHECK: scf.if %arg3 {
//       CHECK:   scf.if
//  CHECK-NEXT:     arith.addf %cst, %{{.*}}
//  CHECK-NEXT:     memref.store
//       CHECK: memref.store %{{.*}}, %arg1
//       CHECK: scf.for
//       CHECK:   scf.if
//  CHECK-NEXT:     memref.load %arg1
func.func @zeroed_partly(%out: memref<?xf32>, %out2: memref<?xf32>, %x: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<?xf32>
    scf.if %c {
      %v = memref.load %x[%tx] : memref<?xf32>
      %old = memref.load %out[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    }
    memref.store %zero, %out2[%bx] : memref<?xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %x[%tx] : memref<?xf32>
      %old = memref.load %out2[%bx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out2[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// The stored value differs from lane to lane, and another element of the
// memref is read between the zeroing and the load: the stores stay and
// the first lane reads the element back.
// CHECK-LABEL: func.func @kept
//       CHECK: memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf32>
//       CHECK: gpu.subgroup_reduce add
//       CHECK: scf.if
//  CHECK-NEXT:   memref.load %arg0
//       CHECK: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<?xf32>
//       CHECK: gpu.subgroup_reduce add
//       CHECK: scf.if
//  CHECK-NEXT:   memref.load %arg1
func.func @kept(%out: memref<?xf32>, %out2: memref<?xf32>, %x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    memref.store %v, %out[%bx] : memref<?xf32>
    %old = memref.load %out[%bx] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %out[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    memref.store %zero, %out2[%bx] : memref<?xf32>
    %peek = memref.load %out2[%c1] : memref<?xf32>
    %old2 = memref.load %out2[%bx] : memref<?xf32>
    %new2 = arith.addf %old2, %peek : f32
    memref.store %new2, %out2[%bx] {sptir.shuffle = 32 : i64} : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Integers shuffle too; `old + v` directly is just `v`.
// CHECK-LABEL: func.func @integers
//       CHECK: %[[V:.*]] = memref.load %arg1
//       CHECK: gpu.subgroup_reduce add %[[V]] cluster(size = 32) : (i32) -> i32
//       CHECK: arith.addi
func.func @integers(%out: memref<?xi32>, %x: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %old = memref.load %out[%c0] : memref<?xi32>
    %v = memref.load %x[%tx] : memref<?xi32>
    %new = arith.addi %old, %v : i32
    memref.store %new, %out[%c0] {sptir.shuffle = 32 : i64} : memref<?xi32>
    gpu.terminator
  }
  return
}

// -----

// A buffer allocated on the host before the launch (a stage I
// alloc_buffer) is the same memref for every lane.
// CHECK-LABEL: func.func @host_buffer
//       CHECK: %[[BUF:.*]] = memref.alloc
//       CHECK: gpu.launch
//       CHECK:   gpu.subgroup_reduce add %{{.*}} cluster(size = 8)
//       CHECK:   scf.if
//  CHECK-NEXT:     memref.load %[[BUF]]
func.func @host_buffer(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %old = memref.load %buf[%bx] : memref<?xf32>
    %v = memref.load %x[%tx] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %buf[%bx] {sptir.shuffle = 8 : i64} : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A buffer allocated inside the launch is each thread's own.
func.func @thread_buffer(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %buf = memref.alloca() : memref<1xf32>
    %old = memref.load %buf[%c0] : memref<1xf32>
    %v = memref.load %x[%tx] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    // expected-error@+1 {{lower-shuffle-accumulations: the lanes of a row must all add to one element, but this store's place depends on threadIdx.x}}
    memref.store %new, %buf[%c0] {sptir.shuffle = 8 : i64} : memref<1xf32>
    gpu.terminator
  }
  return
}

// -----

// A branch on threadIdx.x around the shuffle: the lanes of a row would
// not all reach it.
func.func @divergent(%out: memref<?xf32>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %some = arith.cmpi ult, %tx, %c3 : index
    // expected-error@+1 {{lower-shuffle-accumulations: the threads of a row must all reach their warp shuffle, but this scf.if around it may send them different ways}}
    scf.if %some {
      %old = memref.load %out[%c0] : memref<?xf32>
      %v = memref.load %x[%tx] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%c0] {sptir.shuffle = 8 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A shuffle moves 32 bits.
func.func @doubles(%out: memref<?xf64>, %x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %old = memref.load %out[%c0] : memref<?xf64>
    %v = memref.load %x[%tx] : memref<?xf64>
    %new = arith.addf %old, %v : f64
    // expected-error@+1 {{lower-shuffle-accumulations: a warp shuffle moves 32-bit scalars; this sum is f64}}
    memref.store %new, %out[%c0] {sptir.shuffle = 8 : i64} : memref<?xf64>
    gpu.terminator
  }
  return
}

// -----

// Not an accumulation: the stored value is not the old one plus terms.
func.func @overwrite(%out: memref<?xf32>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %old = memref.load %out[%c0] : memref<?xf32>
    %v = memref.load %x[%tx] : memref<?xf32>
    %new = arith.mulf %old, %v : f32
    // expected-error@+1 {{lower-shuffle-accumulations: the stored value is not the element's old value plus other terms}}
    memref.store %new, %out[%c0] {sptir.shuffle = 8 : i64} : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Each lane adds to its own element: a shuffle would mix them.
func.func @own_elements(%out: memref<?xf32>, %x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %old = memref.load %out[%tx] : memref<?xf32>
    %v = memref.load %x[%tx] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    // expected-error@+1 {{lower-shuffle-accumulations: the lanes of a row must all add to one element, but this store's place depends on threadIdx.x}}
    memref.store %new, %out[%tx] {sptir.shuffle = 8 : i64} : memref<?xf32>
    gpu.terminator
  }
  return
}
