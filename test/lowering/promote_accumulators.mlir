// RUN: sptir-opt %s --split-input-file -p 'builtin.module(promote-accumulators)' | FileCheck %s

// c[i] is read and written at the same place on every iteration: it is
// loaded once, carried in a register, stored once.
// CHECK-LABEL: func.func @accumulate
//       CHECK: %[[INIT:.*]] = memref.load %arg0[%arg2]
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
//       CHECK:   %[[X:.*]] = memref.load %arg1
//       CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]]
//       CHECK:   scf.yield %[[NEXT]]
//       CHECK: } {sptir.label = "r"}
//       CHECK: memref.store %[[SUM]], %arg0[%arg2]
func.func @accumulate(%c: memref<?xf32>, %x: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %acc = memref.load %c[%i] : memref<?xf32>
    %v = memref.load %x[%j] : memref<?xf32>
    %sum = arith.addf %acc, %v : f32
    memref.store %sum, %c[%i] : memref<?xf32>
  } {sptir.label = "r"}
  return
}

// -----

// Another read of the same memref in the loop could see the element: no
// promotion. Neither when the indices change with the loop.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT: iter_args
func.func @left_alone(%c: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %acc = memref.load %c[%i] : memref<?xf32>
    %other = memref.load %c[%j] : memref<?xf32>
    %sum = arith.addf %acc, %other : f32
    memref.store %sum, %c[%i] : memref<?xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %acc = memref.load %c[%j] : memref<?xf32>
    %sum = arith.addf %acc, %acc : f32
    memref.store %sum, %c[%j] : memref<?xf32>
  }
  return
}

// -----

// A vector accumulator: the vector load and store leave the loop with
// their alignment, the vector travels as the iteration argument.
// CHECK-LABEL: func.func @vector_accumulator
//       CHECK: %[[INIT:.*]] = vector.load %arg0[%arg2] {alignment = 16 : i64}
//       CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4xf32>)
//       CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<4xf32>
//       CHECK:   scf.yield %[[NEXT]]
//       CHECK: vector.store %[[SUM]], %arg0[%arg2] {alignment = 16 : i64}
func.func @vector_accumulator(%c: memref<?xf32>, %b: memref<?xf32>, %base: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %acc = vector.load %c[%base] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
    %v = vector.load %b[%j] : memref<?xf32>, vector<4xf32>
    %s = arith.addf %acc, %v : vector<4xf32>
    vector.store %s, %c[%base] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  }
  return
}

// -----

// A shuffle accumulation under lane guards (a feature tail on threadIdx.x
// inside a lane flag): each guard yields the sum where it ran and the
// carried value where not.
// CHECK-LABEL: func.func @guarded
//       CHECK: %[[INIT:.*]] = memref.load %arg0[%arg2]
//       CHECK: %[[SUM:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[F:.*]], %arg4
//       CHECK:   %[[OUTER:.*]] = scf.if %[[LANE:.*]] -> (f32) {
//       CHECK:     %[[INNER:.*]] = scf.if %[[IN]] -> (f32) {
//       CHECK:       %[[X:.*]] = memref.load %arg1[%[[F]]]
//       CHECK:       %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]]
//       CHECK:       scf.yield %[[NEXT]] : f32
//       CHECK:     } else {
//       CHECK:       memref.store %{{.*}}, %arg1[%[[F]]]
//       CHECK:       scf.yield %[[ACC]] : f32
//       CHECK:     scf.yield %[[INNER]] : f32
//       CHECK:   } else {
//       CHECK:     scf.yield %[[ACC]] : f32
//       CHECK:   scf.yield %[[OUTER]] : f32
//       CHECK: memref.store %[[SUM]], %arg0[%arg2] {sptir.shuffle = 8 : i64}
func.func @guarded(%c: memref<?xf32>, %x: memref<?xf32>, %i: index, %n: index, %feat: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %lane = arith.cmpi ult, %tx, %c4 : index
    scf.for %j = %c0 to %n step %c1 {
      %f0 = arith.muli %j, %c8 : index
      %f = arith.addi %f0, %tx : index
      %in = arith.cmpi ult, %f, %feat : index
      scf.if %lane {
        scf.if %in {
          %acc = memref.load %c[%i] : memref<?xf32>
          %v = memref.load %x[%f] : memref<?xf32>
          %sum = arith.addf %acc, %v : f32
          memref.store %sum, %c[%i] {sptir.shuffle = 8 : i64} : memref<?xf32>
        } else {
          memref.store %zero, %x[%f] : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The same accumulation unmarked, or under a guard that does not test the
// lane: the guard may protect the access itself, so it stays put.
// CHECK-LABEL: func.func @guard_kept
//   CHECK-NOT: iter_args
func.func @guard_kept(%c: memref<?xf32>, %x: memref<?xf32>, %i: index, %n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %n step %c1 {
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %acc = memref.load %c[%i] : memref<?xf32>
      %v = memref.load %x[%j] : memref<?xf32>
      %sum = arith.addf %acc, %v : f32
      memref.store %sum, %c[%i] : memref<?xf32>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    scf.for %j = %c0 to %n step %c1 {
      scf.if %flag {
        %acc = memref.load %c[%i] : memref<?xf32>
        %v = memref.load %x[%tx] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        memref.store %sum, %c[%i] {sptir.shuffle = 8 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The load outside the guard and the store inside it, or a guard that
// yields values: left alone.
// CHECK-LABEL: func.func @guard_left_alone
//   CHECK-NOT: -> (f32)
func.func @guard_left_alone(%c: memref<?xf32>, %i: index, %n: index, %flag: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %acc = memref.load %c[%i] : memref<?xf32>
    scf.if %flag {
      %sum = arith.addf %acc, %acc : f32
      memref.store %sum, %c[%i] : memref<?xf32>
    }
  }
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%k = %c0) -> (index) {
    %next = scf.if %flag -> (index) {
      %acc = memref.load %c[%i] : memref<?xf32>
      %sum = arith.addf %acc, %acc : f32
      memref.store %sum, %c[%i] : memref<?xf32>
      scf.yield %j : index
    } else {
      scf.yield %k : index
    }
    scf.yield %next : index
  }
  %last = memref.load %c[%r] : memref<?xf32>
  return %last : f32
}

// -----

// A shuffle accumulation that no loop carries (a lane's features fit in
// one step) leaves its lane guards, not the guard around them that does
// not test the lane: the element is read before the lane guards, they
// yield the sum or the old value, and every lane stores.
// CHECK-LABEL: func.func @lifted
//       CHECK: scf.if %arg4 {
//       CHECK:   %[[OLD:.*]] = memref.load %arg0[%arg2]
//       CHECK:   %[[SUM:.*]] = scf.if %{{.*}} -> (f32) {
//       CHECK:     %[[INNER:.*]] = scf.if %{{.*}} -> (f32) {
//       CHECK:       %[[V:.*]] = memref.load %arg1
//       CHECK:       %[[NEW:.*]] = arith.addf %[[OLD]], %[[V]]
//       CHECK:       scf.yield %[[NEW]] : f32
//       CHECK:     } else {
//       CHECK:       scf.yield %[[OLD]] : f32
//       CHECK:     scf.yield %[[INNER]] : f32
//       CHECK:   } else {
//       CHECK:     scf.yield %[[OLD]] : f32
//       CHECK:   memref.store %[[SUM]], %arg0[%arg2] {sptir.shuffle = 8 : i64}
// Under a lane guard that also reads another element of the memref, the
// accumulation stays.
//       CHECK: scf.if %{{.*}} {
//  CHECK-NEXT:   memref.load %arg0[%arg2]
//  CHECK-NEXT:   memref.load %arg0[%{{.*}}]
//  CHECK-NEXT:   arith.addf
//  CHECK-NEXT:   memref.store %{{.*}}, %arg0[%arg2] {sptir.shuffle = 8 : i64}
func.func @lifted(%c: memref<?xf32>, %x: memref<?xf32>, %i: index, %feat: index, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %lane = arith.cmpi ult, %tx, %c4 : index
    %f = arith.muli %tx, %c4 : index
    %in = arith.cmpi ult, %f, %feat : index
    scf.if %flag {
      scf.if %lane {
        scf.if %in {
          %acc = memref.load %c[%i] : memref<?xf32>
          %v = memref.load %x[%f] : memref<?xf32>
          %sum = arith.addf %acc, %v : f32
          memref.store %sum, %c[%i] {sptir.shuffle = 8 : i64} : memref<?xf32>
        }
      }
    }
    scf.if %in {
      %acc = memref.load %c[%i] : memref<?xf32>
      %other = memref.load %c[%f] : memref<?xf32>
      %sum = arith.addf %acc, %other : f32
      memref.store %sum, %c[%i] {sptir.shuffle = 8 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// The copies of an unrolled accumulation that threads share (marked
// atomic): the second reads what the first stored, so one load and one
// store of the element are left, one accumulation for the atomic lowering.
// The element's zeroing (unmarked) stays apart, and an access to another
// element of the memref in between keeps the stores apart.
// CHECK-LABEL: func.func @unrolled
//       CHECK: memref.store %{{.*}}, %arg0[%arg2] : memref<?xf32>
//       CHECK: %[[OLD:.*]] = memref.load %arg0[%arg2]
//       CHECK: %[[ONE:.*]] = arith.addf %[[OLD]], %{{.*}}
//       CHECK: %[[TWO:.*]] = arith.addf %[[ONE]], %{{.*}}
//  CHECK-NEXT: memref.store %[[TWO]], %arg0[%arg2] {sptir.atomic}
//       CHECK: memref.load %arg0[%arg3]
//       CHECK: memref.load %arg0[%arg2]
//       CHECK: memref.store %{{.*}}, %arg0[%arg2] {sptir.atomic}
//   CHECK-NOT: memref.load
//       CHECK: return
func.func @unrolled(%c: memref<?xf32>, %x: memref<?xf32>, %i: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %c[%i] : memref<?xf32>
  %a0 = memref.load %c[%i] : memref<?xf32>
  %v0 = memref.load %x[%c0] : memref<?xf32>
  %s0 = arith.addf %a0, %v0 : f32
  memref.store %s0, %c[%i] {sptir.atomic} : memref<?xf32>
  %a1 = memref.load %c[%i] : memref<?xf32>
  %v1 = memref.load %x[%c1] : memref<?xf32>
  %s1 = arith.addf %a1, %v1 : f32
  memref.store %s1, %c[%i] {sptir.atomic} : memref<?xf32>
  %other = memref.load %c[%k] : memref<?xf32>
  %a2 = memref.load %c[%i] : memref<?xf32>
  %s2 = arith.addf %a2, %other : f32
  memref.store %s2, %c[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

// A guard that tests the row and the lane together (canonicalization
// merges a row guard holding only a lane guard into one) may protect the
// element itself: the accumulation stays under it (and the shuffle
// lowering then refuses it, rather than the row's first lane reading past
// the end).
// CHECK-LABEL: func.func @row_and_lane
//       CHECK: scf.if %{{.*}} {
//  CHECK-NEXT:   memref.load %arg0
//       CHECK:   memref.store %{{.*}}, %arg0[%{{.*}}] {sptir.shuffle = 8 : i64}
func.func @row_and_lane(%c: memref<?xf32>, %x: memref<?xf32>, %nnz: index, %feat: index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    %b8 = arith.muli %bx, %c8 : index
    %i = arith.addi %b8, %ty : index
    %row = arith.cmpi ult, %i, %nnz : index
    %lane = arith.cmpi ult, %tx, %feat : index
    %both = arith.andi %row, %lane : i1
    scf.if %both {
      %acc = memref.load %c[%i] : memref<?xf32>
      %v = memref.load %x[%tx] : memref<?xf32>
      %sum = arith.addf %acc, %v : f32
      memref.store %sum, %c[%i] {sptir.shuffle = 8 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A CSR row split over lanes: the split's tail guard compares the loop's
// positions with the row's length, which indptr gives per row (so the
// guard also depends on blockIdx). It protects nothing that the unsplit
// loop's bound did not: the row's sum is carried through it. Unmarked,
// or with a bound the loop computes, the guard stays.
// CHECK-LABEL: func.func @split_tail
//       CHECK: %[[INIT:.*]] = memref.load %arg0[%[[ROW:.*]]] : memref<?xf32>
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
//       CHECK:   scf.if %{{.*}} -> (f32) {
//       CHECK:     arith.addf %[[ACC]]
//       CHECK:   } else {
//       CHECK:     scf.yield %[[ACC]] : f32
//       CHECK: memref.store %[[SUM]], %arg0[%[[ROW]]] {sptir.shuffle = 8 : i64}
//       CHECK: gpu.launch
//   CHECK-NOT: iter_args
//       CHECK: gpu.launch
//   CHECK-NOT: iter_args
//       CHECK: return
func.func @split_tail(%z: memref<?xf32>, %a: memref<?xf32>, %indptr: memref<?xi32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %m, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %next = arith.addi %bx, %c1 : index
    %s = memref.load %indptr[%bx] : memref<?xi32>
    %start = arith.index_cast %s : i32 to index
    %e = memref.load %indptr[%next] : memref<?xi32>
    %end = arith.index_cast %e : i32 to index
    %len = arith.subi %end, %start : index
    %chunks = arith.ceildivui %len, %c8 : index
    scf.for %o = %c0 to %chunks step %c1 {
      %o8 = arith.muli %o, %c8 : index
      %p = arith.addi %o8, %tx : index
      %in = arith.cmpi ult, %p, %len : index
      scf.if %in {
        %acc = memref.load %z[%bx] : memref<?xf32>
        %at = arith.addi %start, %p : index
        %v = memref.load %a[%at] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        memref.store %sum, %z[%bx] {sptir.shuffle = 8 : i64} : memref<?xf32>
      } {sptir.split_guard}
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %m, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %e = memref.load %indptr[%bx] : memref<?xi32>
    %len = arith.index_cast %e : i32 to index
    scf.for %o = %c0 to %len step %c1 {
      %o8 = arith.muli %o, %c8 : index
      %p = arith.addi %o8, %tx : index
      %in = arith.cmpi ult, %p, %len : index
      scf.if %in {
        %acc = memref.load %z[%bx] : memref<?xf32>
        %v = memref.load %a[%p] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        memref.store %sum, %z[%bx] {sptir.shuffle = 8 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %m, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    scf.for %o = %c0 to %m step %c1 {
      %o8 = arith.muli %o, %c8 : index
      %p = arith.addi %o8, %tx : index
      %row = arith.addi %o, %bx : index
      %e = memref.load %indptr[%row] : memref<?xi32>
      %len = arith.index_cast %e : i32 to index
      %in = arith.cmpi ult, %p, %len : index
      scf.if %in {
        %acc = memref.load %z[%bx] : memref<?xf32>
        %v = memref.load %a[%p] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        memref.store %sum, %z[%bx] {sptir.shuffle = 8 : i64} : memref<?xf32>
      } {sptir.split_guard}
    }
    gpu.terminator
  }
  return
}

// -----

// Several accumulators in one loop (the chunks of an unrolled feature
// loop): their indices share their terms and lie a constant apart by at
// least a vector, so none can see another's element; each is carried.
// The loop already carries a value, which stays first.
// CHECK-LABEL: func.func @chunks
//   CHECK-DAG: %[[I0:.*]] = arith.addi %arg2, %arg3
//   CHECK-DAG: %[[I1:.*]] = arith.addi %[[S1:.*]], %arg3
//   CHECK-DAG: %[[S1]] = arith.addi %arg2, %c8
//   CHECK-DAG: %[[I2:.*]] = arith.subi %[[I1]], %c4
//       CHECK: %[[R:.*]]:4 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, vector<4xf32>, vector<4xf32>, f32)
//   CHECK-NOT:   vector.load %arg0
//   CHECK-NOT:   memref.load %arg0
//       CHECK: }
//   CHECK-DAG: vector.store %[[R]]#1, %arg0
//   CHECK-DAG: vector.store %[[R]]#2, %arg0
//   CHECK-DAG: memref.store %[[R]]#3, %arg0
//       CHECK: return %[[R]]#0
func.func @chunks(%c: memref<?xf32>, %b: memref<?xf32>, %lane: index, %row: index, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %i0 = arith.addi %lane, %row : index
  %s1 = arith.addi %lane, %c8 : index
  %i1 = arith.addi %s1, %row : index
  %i2 = arith.subi %i1, %c4 : index
  %count = scf.for %j = %c0 to %n step %c1 iter_args(%k = %zero) -> (i32) {
    %x = vector.load %b[%j] : memref<?xf32>, vector<4xf32>
    %a0 = vector.load %c[%i0] : memref<?xf32>, vector<4xf32>
    %n0 = arith.addf %a0, %x : vector<4xf32>
    vector.store %n0, %c[%i0] : memref<?xf32>, vector<4xf32>
    %a1 = vector.load %c[%i1] : memref<?xf32>, vector<4xf32>
    %n1 = arith.addf %a1, %x : vector<4xf32>
    vector.store %n1, %c[%i1] : memref<?xf32>, vector<4xf32>
    %a2 = memref.load %c[%i2] : memref<?xf32>
    %e = vector.extract %x[0] : f32 from vector<4xf32>
    %n2 = arith.addf %a2, %e : f32
    memref.store %n2, %c[%i2] : memref<?xf32>
    %k1 = arith.addi %k, %one : i32
    scf.yield %k1 : i32
  }
  return %count : i32
}

// -----

// Chunks closer than a vector overlap: the element of one is in the
// other's vector, and neither moves to a register. Nor when the indices
// have different terms.
// CHECK-LABEL: func.func @overlapping_chunks
//   CHECK-NOT: iter_args
func.func @overlapping_chunks(%c: memref<?xf32>, %b: memref<?xf32>, %lane: index, %other: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i1 = arith.addi %lane, %c2 : index
  scf.for %j = %c0 to %n step %c1 {
    %x = vector.load %b[%j] : memref<?xf32>, vector<4xf32>
    %a0 = vector.load %c[%lane] : memref<?xf32>, vector<4xf32>
    %n0 = arith.addf %a0, %x : vector<4xf32>
    vector.store %n0, %c[%lane] : memref<?xf32>, vector<4xf32>
    %a1 = vector.load %c[%i1] : memref<?xf32>, vector<4xf32>
    %n1 = arith.addf %a1, %x : vector<4xf32>
    vector.store %n1, %c[%i1] : memref<?xf32>, vector<4xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %x = memref.load %b[%j] : memref<?xf32>
    %a0 = memref.load %c[%lane] : memref<?xf32>
    %n0 = arith.addf %a0, %x : f32
    memref.store %n0, %c[%lane] : memref<?xf32>
    %a1 = memref.load %c[%other] : memref<?xf32>
    %n1 = arith.addf %a1, %x : f32
    memref.store %n1, %c[%other] : memref<?xf32>
  }
  return
}

// -----

// The element was just zeroed in the same block: the sum starts from the
// stored zero instead of loading it back, and the zeroing store goes, as
// the store after the loop overwrites it before anything reads it. The
// other chunk's accesses in between cannot reach the element.
// CHECK-LABEL: func.func @zeroed_then_promoted
//   CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
//   CHECK-NOT: vector.store %[[ZERO]]
//   CHECK-NOT: vector.load %arg0
//       CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]])
//       CHECK: vector.store %[[R]]#1, %arg0
//       CHECK: vector.store %[[R]]#0, %arg0
func.func @zeroed_then_promoted(%c: memref<?xf32>, %b: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %i1 = arith.addi %i, %c4 : index
  vector.store %zero, %c[%i] : memref<?xf32>, vector<4xf32>
  vector.store %zero, %c[%i1] : memref<?xf32>, vector<4xf32>
  scf.for %j = %c0 to %n step %c1 {
    %x = vector.load %b[%j] : memref<?xf32>, vector<4xf32>
    %a0 = vector.load %c[%i] : memref<?xf32>, vector<4xf32>
    %n0 = arith.addf %a0, %x : vector<4xf32>
    vector.store %n0, %c[%i] : memref<?xf32>, vector<4xf32>
    %a1 = vector.load %c[%i1] : memref<?xf32>, vector<4xf32>
    %n1 = arith.addf %a1, %x : vector<4xf32>
    vector.store %n1, %c[%i1] : memref<?xf32>, vector<4xf32>
  }
  return
}

// -----

// Kept: a read through a view of the same memory between the zeroing
// and the load, and a zeroing that a call could observe.
// CHECK-LABEL: func.func @zeroed_but_observed
//       CHECK: memref.store %{{.*}}, %arg0[%arg1]
//       CHECK: memref.load %[[VIEW:.*]][
//       CHECK: memref.load %arg0[%arg1]
//       CHECK: memref.store %{{.*}}, %arg0[%arg1]
//       CHECK: call @observe
func.func private @observe(memref<?xf32>)
func.func @zeroed_but_observed(%c: memref<?xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f32
  %view = memref.subview %c[%c0] [%c2] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  memref.store %z, %c[%i] : memref<?xf32>
  %seen = memref.load %view[%c0] : memref<?xf32, strided<[1], offset: ?>>
  %again = memref.load %c[%i] : memref<?xf32>
  %sum = arith.addf %seen, %again : f32
  memref.store %z, %c[%i] : memref<?xf32>
  func.call @observe(%c) : (memref<?xf32>) -> ()
  memref.store %sum, %c[%i] : memref<?xf32>
  return %sum : f32
}

// -----

// The loop reads the accumulated element through a view of its memref:
// the element stays in memory.
// CHECK-LABEL: func.func @read_through_a_view
//   CHECK-NOT: iter_args
func.func @read_through_a_view(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %view = memref.subview %x[0] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1]>>
  scf.for %i = %c0 to %n step %c1 {
    %acc = memref.load %x[%c0] : memref<?xf32>
    %s = arith.addf %acc, %one : f32
    memref.store %s, %x[%c0] : memref<?xf32>
    %v = memref.load %view[%c0] : memref<1xf32, strided<[1]>>
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// The rows of a BSR block unrolled: each row's element is loaded and
// stored once per column of the block (the copies of the unrolled column
// loop), and the rows' indices are `128 i + t` and `(4 i + 1) * 32 + t`,
// one row apart whatever i and t are. The copies become one load and one
// store per row, and the loop over the blocks carries both rows.
// CHECK-LABEL: func.func @block_rows
//       CHECK: %[[R0:.*]] = memref.load %arg0[%[[ROW0:.*]]] : memref<?xf32>
//       CHECK: %[[R1:.*]] = memref.load %arg0[%[[ROW1:.*]]] : memref<?xf32>
//       CHECK: %[[SUMS:.*]]:2 = scf.for %{{.*}} iter_args(%[[A0:.*]] = %[[R0]], %[[A1:.*]] = %[[R1]]) -> (f32, f32) {
//   CHECK-NOT:   memref.store
//   CHECK-NOT:   memref.load %arg0
//       CHECK: } {sptir.label = "blocks"}
//   CHECK-DAG: memref.store %[[SUMS]]#0, %arg0[%[[ROW0]]]
//   CHECK-DAG: memref.store %[[SUMS]]#1, %arg0[%[[ROW1]]]
func.func @block_rows(%c: memref<?xf32>, %b: memref<?xf32>, %i: index, %t: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %base = arith.muli %i, %c128 : index
  %row0 = arith.addi %base, %t : index
  %i4 = arith.muli %i, %c4 : index
  %next = arith.addi %i4, %c1 : index
  %scaled = arith.muli %next, %c32 : index
  %row1 = arith.addi %scaled, %t : index
  scf.for %j = %c0 to %n step %c1 {
    %v0 = memref.load %b[%j] : memref<?xf32>
    %k = arith.addi %j, %c1 : index
    %v1 = memref.load %b[%k] : memref<?xf32>
    %a = memref.load %c[%row0] : memref<?xf32>
    %a1 = arith.addf %a, %v0 : f32
    memref.store %a1, %c[%row0] : memref<?xf32>
    %a2 = memref.load %c[%row0] : memref<?xf32>
    %a3 = arith.addf %a2, %v1 : f32
    memref.store %a3, %c[%row0] : memref<?xf32>
    %b0 = memref.load %c[%row1] : memref<?xf32>
    %b1 = arith.addf %b0, %v0 : f32
    memref.store %b1, %c[%row1] : memref<?xf32>
    %b2 = memref.load %c[%row1] : memref<?xf32>
    %b3 = arith.addf %b2, %v1 : f32
    memref.store %b3, %c[%row1] : memref<?xf32>
  } {sptir.label = "blocks"}
  return
}

// -----

// c[i] stored back as loaded: the loop carries the element unchanged (the
// new yield used the erased load, a crash from `C[i] = C[i]` at stage I).
// CHECK-LABEL: func.func @stored_as_loaded
//       CHECK:   %[[OLD:.*]] = memref.load %arg0[%arg1]
//       CHECK:   %[[LAST:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[OLD]]) -> (f32)
//  CHECK-NEXT:     scf.yield %[[ACC]] : f32
//       CHECK:   memref.store %[[LAST]], %arg0[%arg1]
func.func @stored_as_loaded(%c: memref<?xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %old = memref.load %c[%i] : memref<?xf32>
    memref.store %old, %c[%i] : memref<?xf32>
  }
  return
}
