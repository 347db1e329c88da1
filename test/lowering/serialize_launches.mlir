// RUN: sptir-opt %s --split-input-file -p 'builtin.module(serialize-launches)' | FileCheck %s

// Without a barrier: loops over the blocks, then over the threads, around
// the whole body.
// CHECK-LABEL: func.func @plain
//       CHECK: scf.for %[[BX:.*]] = %c0 to %arg1
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[TX:.*]] = %c0{{.*}} to %c4
//  CHECK-NEXT: memref.store %{{.*}}, %arg0[%[[TX]]]
//   CHECK-NOT: gpu
func.func @plain(%m: memref<?xf32>, %b: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %b, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----
// A barrier in a loop every thread runs alike: inside the loop, each
// side of the barrier gets its own loops over the threads; the trip count
// stays outside, computed once.
// CHECK-LABEL: func.func @fission
//       CHECK: %[[N:.*]] = arith.addi %arg2, %arg2
//       CHECK: scf.for %{{.*}} = %c0{{.*}} to %[[N]]
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[T1:.*]] = %c0{{.*}} to %c4
//  CHECK-NEXT: memref.store %{{.*}}, %arg1[%[[T1]]]
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[T2:.*]] = %c0{{.*}} to %c4
//  CHECK-NEXT: %[[E:.*]] = arith.subi %c3, %[[T2]]
//  CHECK-NEXT: memref.load %arg1[%[[E]]]
//   CHECK-NOT: gpu.barrier
func.func @fission(%out: memref<?xf32>, %tile: memref<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %twice = arith.addi %n, %n : index
    scf.for %i = %c0 to %twice step %c1 {
      memref.store %f, %tile[%tx] : memref<4xf32>
      gpu.barrier
      %e = arith.subi %c3, %tx : index
      %v = memref.load %tile[%e] : memref<4xf32>
      memref.store %v, %out[%tx] : memref<?xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}


// -----
// Workgroup memory becomes one plain buffer in front of the block loops; a
// thread's value used after a barrier goes through a scratch slot per
// thread (x + 4 * (y + 1 * z)); an accumulator carried by a loop that
// holds a barrier lives in scratch memory: stored before the loop and at
// the end of each iteration, loaded at its start and after it.
// CHECK-LABEL: func.func @carried
//       CHECK: %[[TILE:.*]] = memref.alloca() : memref<4xf32>
//       CHECK: %[[SUM:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: %[[V:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: %[[ACC:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: %[[NEXT:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: scf.for %[[T0:.*]] = %c0{{.*}} to %c4
//       CHECK: %[[LOADED:.*]] = memref.load %arg0[%[[T0]]]
//       CHECK: memref.store %[[LOADED]], %[[V]]
//       CHECK: memref.store %cst, %[[SUM]]
//       CHECK: scf.for %{{.*}} = %c0 to %arg1
//       CHECK: scf.for %[[T1:.*]] = %c0{{.*}} to %c4
//       CHECK: %[[A:.*]] = memref.load %[[SUM]]
//       CHECK: memref.store %[[A]], %[[ACC]]
//       CHECK: %[[W:.*]] = memref.load %[[V]]
//       CHECK: memref.store %[[W]], %[[TILE]][%[[T1]]]
//       CHECK: scf.for %[[T2:.*]] = %c0{{.*}} to %c4
//       CHECK: %[[X:.*]] = memref.load %[[TILE]]
//       CHECK: %[[B:.*]] = memref.load %[[ACC]]
//       CHECK: %[[ADDED:.*]] = arith.addf %[[B]], %[[X]]
//       CHECK: memref.store %[[ADDED]], %[[NEXT]]
//       CHECK: scf.for %[[T3:.*]] = %c0{{.*}} to %c4
//       CHECK: %[[C:.*]] = memref.load %[[NEXT]]
//       CHECK: memref.store %[[C]], %[[SUM]]
//       CHECK: scf.for %[[T4:.*]] = %c0{{.*}} to %c4
//       CHECK: %[[RESULT:.*]] = memref.load %[[SUM]]
//       CHECK: %[[OLD:.*]] = memref.load %[[V]]
//       CHECK: %[[TOTAL:.*]] = arith.addf %[[RESULT]], %[[OLD]]
//       CHECK: memref.store %[[TOTAL]], %arg0[%[[T4]]]
//   CHECK-NOT: gpu.barrier
func.func @carried(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %out[%tx] : memref<?xf32>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      memref.store %v, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %e = arith.subi %c3, %tx : index
      %x = memref.load %tile[%e] : memref<4xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %next : f32
    }
    %total = arith.addf %sum, %v : f32
    memref.store %total, %out[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----
// A yield that passes the carried value on stores what was loaded at the
// iteration's start.
// CHECK-LABEL: func.func @pass_through
//       CHECK: %[[SUM:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: memref.store %cst, %[[SUM]]
//       CHECK: scf.for %{{.*}} = %c0 to %arg1
//       CHECK: %[[A:.*]] = memref.load %[[SUM]]
//       CHECK: memref.store %[[A]], %{{.*}}
//       CHECK: %[[B:.*]] = memref.load %{{.*}}
//       CHECK: memref.store %[[B]], %[[SUM]]
func.func @pass_through(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
      gpu.barrier
      scf.yield %a : f32
    }
    memref.store %r, %out[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----
// A reduction over rows of 4 lanes, under a branch on the row (y): the
// rows become loops around the body, and only x is split. Each lane stores
// its value in scratch memory; after the split each adds up its row's four
// slots, starting at the first slot of its cluster (no further than the
// block's last thread: a cluster may be wider than the block).
// CHECK-LABEL: func.func @rows
//       CHECK: %[[SCRATCH:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: scf.for %[[BX:.*]] = %c0{{.*}} to %c1
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[Z:.*]] = %c0{{.*}} to %c1
//       CHECK: scf.for %[[Y:.*]] = %c0{{.*}} to %c2
//       CHECK: %[[ROW:.*]] = arith.cmpi ult, %[[Y]], %arg2
//       CHECK: scf.if %[[ROW]] {
//       CHECK:   scf.for %[[X1:.*]] = %c0{{.*}} to %c4
//       CHECK:     %[[V:.*]] = memref.load %arg1[%[[X1]]]
//       CHECK:     memref.store %[[V]], %[[SCRATCH]]
//       CHECK:   scf.for %[[X2:.*]] = %c0{{.*}} to %c4
//       CHECK:     %[[SLOT:.*]] = arith.addi %[[X2]],
//       CHECK:     %[[OFF:.*]] = arith.remui %[[SLOT]], %[[C4:.*]] : index
//       CHECK:     %[[FIRST:.*]] = arith.subi %[[SLOT]], %[[OFF]]
//       CHECK:     %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]]
//       CHECK:     %[[LANES:.*]] = arith.minui %[[C4]], %[[LEFT]]
//       CHECK:     %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[LANES]] step %{{.*}} iter_args
//       CHECK:       %[[AT:.*]] = arith.addi %[[FIRST]], %[[K]]
//       CHECK:       memref.load %[[SCRATCH]][%[[AT]]]
//       CHECK:     memref.store %[[SUM]], %arg0[%[[Y]]]
//   CHECK-NOT: gpu.
func.func @rows(%out: memref<?xf32>, %x: memref<?xf32>, %rows: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1) {
    %row = arith.cmpi ult, %ty, %rows : index
    scf.if %row {
      %v = memref.load %x[%tx] : memref<?xf32>
      %s = gpu.subgroup_reduce add %v cluster(size = 4) : (f32) -> f32
      memref.store %s, %out[%ty] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----
// A row barrier (rows of 4 threads, each row its own tile), under a branch
// on the row: the rows become loops around the body, and x alone is split
// at the barrier: every lane of a row copies, then every lane reads.
// CHECK-LABEL: func.func @row_barrier
//       CHECK: %[[TILE:.*]] = memref.alloca() : memref<2x4xf32>
//       CHECK: scf.for %[[Y:.*]] = %c0{{.*}} to %c2
//       CHECK: %[[ROW:.*]] = arith.cmpi ult, %[[Y]], %arg2
//       CHECK: scf.if %[[ROW]] {
//       CHECK:   scf.for %[[X1:.*]] = %c0{{.*}} to %c4
//       CHECK:     memref.store %{{.*}}, %[[TILE]][%[[Y]], %[[X1]]]
//       CHECK:   scf.for %[[X2:.*]] = %c0{{.*}} to %c4
//       CHECK:     memref.load %[[TILE]][%[[Y]], %{{.*}}]
//   CHECK-NOT: gpu.
func.func @row_barrier(%out: memref<?xf32>, %x: memref<?xf32>, %rows: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1) workgroup(%tile : memref<2x4xf32, #gpu.address_space<workgroup>>) {
    %row = arith.cmpi ult, %ty, %rows : index
    scf.if %row {
      %v = memref.load %x[%tx] : memref<?xf32>
      memref.store %v, %tile[%ty, %tx] : memref<2x4xf32, #gpu.address_space<workgroup>>
      gpu.barrier {sptir.row = 4 : i64}
      %other = arith.subi %c3, %tx : index
      %w = memref.load %tile[%ty, %other] : memref<2x4xf32, #gpu.address_space<workgroup>>
      %at = arith.muli %ty, %c4 : index
      %i = arith.addi %at, %tx : index
      memref.store %w, %out[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----
// With a block barrier as well, or clusters wider than a row, all threads
// are split at the reduction as at a barrier.
// CHECK-LABEL: func.func @with_barrier
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[X1:.*]] = %c0{{.*}} to %c4
//       CHECK:   memref.store
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[X2:.*]] = %c0{{.*}} to %c4
//       CHECK:   memref.store
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: scf.for %[[X3:.*]] = %c0{{.*}} to %c4
//       CHECK:   scf.for {{.*}} iter_args
//       CHECK:   memref.store
func.func @with_barrier(%out: memref<?xi32>, %x: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xi32>
    memref.store %v, %out[%tx] : memref<?xi32>
    gpu.barrier
    %s = gpu.subgroup_reduce add %v cluster(size = 8) : (i32) -> i32
    memref.store %s, %out[%ty] : memref<?xi32>
    gpu.terminator
  }
  return
}

// -----
// With a barrier, a reduction under a branch on the row: the branch's
// condition is kept per thread, and each run of threads inside it runs
// under it. A load and a division every thread computes alike stay under
// the guard (they could fault where the branch was not taken).
// CHECK-LABEL: func.func @guarded
//       CHECK: %[[VALUES:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: %[[CONDITIONS:.*]] = memref.alloca(%{{.*}}) : memref<?xi1>
//       CHECK: scf.for %[[X1:.*]] = %{{.*}} to %c4
//       CHECK:   %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %arg2
//       CHECK:   memref.store %[[ROW]], %[[CONDITIONS]]
//       CHECK: scf.for %[[X2:.*]] = %{{.*}} to %c4
//       CHECK:   %[[C2:.*]] = memref.load %[[CONDITIONS]]
//       CHECK:   scf.if %[[C2]] {
//       CHECK:     memref.load %arg1[%c0]
//       CHECK:     arith.divui
//       CHECK:     memref.store %{{.*}}, %[[VALUES]]
//       CHECK: scf.for %[[X3:.*]] = %{{.*}} to %c4
//       CHECK:   %[[C3:.*]] = memref.load %[[CONDITIONS]]
//       CHECK:   scf.if %[[C3]] {
//       CHECK:     scf.for {{.*}} iter_args
//       CHECK:       memref.load %[[VALUES]]
//       CHECK:     memref.store %{{.*}}, %arg0
//   CHECK-NOT: gpu.
func.func @guarded(%out: memref<?xf32>, %x: memref<?xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1) {
    %row = arith.cmpi ult, %ty, %rows : index
    scf.if %row {
      %first = memref.load %x[%c0] : memref<?xf32>
      %q = arith.divui %c8, %rows : index
      %v = memref.load %x[%tx] : memref<?xf32>
      %w = arith.addf %v, %first : f32
      %s = gpu.subgroup_reduce add %w cluster(size = 4) : (f32) -> f32
      memref.store %s, %out[%q] : memref<?xf32>
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A load at the same address for every thread leaves the thread loops,
// unless the thread itself wrote that memref earlier in the run: then it
// stays after the store (the value it reads is the one just stored).
// CHECK-LABEL: func.func @own_write
//   CHECK-NOT: memref.load
//       CHECK: scf.for
//       CHECK: memref.store %{{.*}}, %arg0[%{{.*}}]
//  CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%{{.*}}]
//  CHECK-NEXT: memref.store %[[V]], %arg1[%{{.*}}]
func.func @own_write(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %one, %x[%c0] : memref<?xf32>
    %v = memref.load %x[%c0] : memref<?xf32>
    memref.store %v, %y[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}
