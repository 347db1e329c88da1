// RUN: sptir-opt %s --split-input-file -p 'builtin.module(sink-shuffle-guards)' | FileCheck %s

// A row's non-zeros on the lanes, its features in turn inside each lane's
// non-zero: the lane's guard moves inside the feature loop, around the
// term (with the loads of the non-zero's column and value), so every lane
// reaches the shuffled accumulation; a lane out of the row adds zero.
// CHECK-LABEL: func.func @features_in_turn
//       CHECK: scf.for %[[O:.*]] = %c0 to %{{.*}} step %c1 {
//       CHECK:   %[[IN:.*]] = arith.cmpi ult
//       CHECK:   scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
//       CHECK:     %[[E:.*]] = arith.addi %{{.*}}, %[[K]] : index
//       CHECK:     %[[T:.*]] = scf.if %[[IN]] -> (f32) {
//       CHECK:       memref.load %arg1
//       CHECK:       memref.load %arg2
//       CHECK:       memref.load %arg3
//       CHECK:       %[[P:.*]] = arith.mulf
//       CHECK:       scf.yield %[[P]] : f32
//       CHECK:     } else {
//       CHECK:       %[[Z:.*]] = arith.constant -0.000000e+00 : f32
//       CHECK:       scf.yield %[[Z]] : f32
//       CHECK:     }
//       CHECK:     %[[OLD:.*]] = memref.load %arg4[%[[E]]]
//       CHECK:     %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]] : f32
//       CHECK:     memref.store %[[NEW]], %arg4[%[[E]]] {sptir.shuffle = 32 : i64}
//   CHECK-NOT: scf.if
//       CHECK: gpu.terminator
func.func @features_in_turn(%rowptr: memref<?xi32>, %col: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %start32 = memref.load %rowptr[%row] : memref<?xi32>
    %start = arith.index_cast %start32 : i32 to index
    %next = arith.addi %row, %c1 : index
    %end32 = memref.load %rowptr[%next] : memref<?xi32>
    %end = arith.index_cast %end32 : i32 to index
    %len = arith.subi %end, %start : index
    %chunks = arith.ceildivui %len, %c32 : index
    %base = arith.muli %row, %c8 : index
    scf.for %o = %c0 to %chunks step %c1 {
      %o32 = arith.muli %o, %c32 : index
      %j = arith.addi %o32, %tx : index
      %in = arith.cmpi ult, %j, %len : index
      scf.if %in {
        %p = arith.addi %start, %j : index
        %col32 = memref.load %col[%p] : memref<?xi32>
        %colx = arith.index_cast %col32 : i32 to index
        %av = memref.load %a[%p] : memref<?xf32>
        %brow = arith.muli %colx, %c8 : index
        scf.for %k = %c0 to %c8 step %c1 {
          %e = arith.addi %base, %k : index
          %old = memref.load %c[%e] : memref<?xf32>
          %bk = arith.addi %brow, %k : index
          %bv = memref.load %b[%bk] : memref<?xf32>
          %prod = arith.mulf %av, %bv : f32
          %new = arith.addf %old, %prod : f32
          memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The guard also writes memory: it stays where it is (lower-shuffle-
// accumulations refuses it later, with its location).
// CHECK-LABEL: func.func @guard_writes
//       CHECK: scf.if
//       CHECK:   memref.store %{{.*}}, %arg2
//       CHECK:   scf.for
func.func @guard_writes(%b: memref<?xf32>, %c: memref<?xf32>, %flags: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %c20 : index
    scf.if %in {
      memref.store %one, %flags[%tx] : memref<?xf32>
      scf.for %k = %c0 to %c8 step %c1 {
        %old = memref.load %c[%k] : memref<?xf32>
        %bv = memref.load %b[%k] : memref<?xf32>
        %new = arith.addf %old, %bv : f32
        memref.store %new, %c[%k] {sptir.shuffle = 32 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Steps unrolled in twos, each copy under its own feature tail guard (the
// same for every lane): each copy's block gets its own lane guard around
// its term.
// CHECK-LABEL: func.func @tail_guarded_copies
//       CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1 {
//       CHECK:   scf.if %{{.*}} {
//       CHECK:     scf.if %{{.*}} -> (f32) {
//       CHECK:       memref.load %arg1
//       CHECK:     memref.store {{.*}} {sptir.shuffle = 32 : i64}
//       CHECK:   scf.if %{{.*}} {
//       CHECK:     scf.if %{{.*}} -> (f32) {
//       CHECK:       memref.load %arg1
//       CHECK:     memref.store {{.*}} {sptir.shuffle = 32 : i64}
func.func @tail_guarded_copies(%b: memref<?xf32>, %col: memref<?xindex>, %c: memref<?xf32>, %len: index, %feat: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %len : index
    scf.if %in {
      scf.for %k = %c0 to %c4 step %c1 {
        %k0 = arith.muli %k, %c2 : index
        %t0 = arith.cmpi ult, %k0, %feat : index
        scf.if %t0 {
          %j = memref.load %col[%tx] : memref<?xindex>
          %row = arith.muli %j, %feat : index
          %bk = arith.addi %row, %k0 : index
          %bv = memref.load %b[%bk] : memref<?xf32>
          %old = memref.load %c[%k0] : memref<?xf32>
          %new = arith.addf %old, %bv : f32
          memref.store %new, %c[%k0] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
        %k1 = arith.addi %k0, %c1 : index
        %t1 = arith.cmpi ult, %k1, %feat : index
        scf.if %t1 {
          %j = memref.load %col[%tx] : memref<?xindex>
          %row = arith.muli %j, %feat : index
          %bk = arith.addi %row, %k1 : index
          %bv = memref.load %b[%bk] : memref<?xf32>
          %old = memref.load %c[%k1] : memref<?xf32>
          %new = arith.addf %bv, %old : f32
          memref.store %new, %c[%k1] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The feature loop unrolled whole: the lane guard becomes the guard of the
// terms, the elements' indices go before it and the accumulations after.
// CHECK-LABEL: func.func @unrolled_whole
//       CHECK: %[[E1:.*]] = arith.addi %arg3, %c1 : index
//       CHECK: %[[T:.*]]:2 = scf.if %{{.*}} -> (f32, f32) {
//       CHECK:   memref.load %arg1
//       CHECK: } else {
//       CHECK: memref.load %arg2[%arg3]
//       CHECK: arith.addf %{{.*}}, %[[T]]#0
//       CHECK: memref.store {{.*}}, %arg2[%arg3] {sptir.shuffle = 32 : i64}
//       CHECK: memref.load %arg2[%[[E1]]]
//       CHECK: arith.addf %{{.*}}, %[[T]]#1
//       CHECK: memref.store {{.*}}, %arg2[%[[E1]]] {sptir.shuffle = 32 : i64}
func.func @unrolled_whole(%b: memref<?xf32>, %col: memref<?xindex>, %c: memref<?xf32>, %base: index, %len: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %len : index
    scf.if %in {
      %j = memref.load %col[%tx] : memref<?xindex>
      %b0 = memref.load %b[%j] : memref<?xf32>
      %old0 = memref.load %c[%base] : memref<?xf32>
      %new0 = arith.addf %old0, %b0 : f32
      memref.store %new0, %c[%base] {sptir.shuffle = 32 : i64} : memref<?xf32>
      %e1 = arith.addi %base, %c1 : index
      %j1 = arith.addi %j, %c1 : index
      %b1 = memref.load %b[%j1] : memref<?xf32>
      %old1 = memref.load %c[%e1] : memref<?xf32>
      %new1 = arith.addf %old1, %b1 : f32
      memref.store %new1, %c[%e1] {sptir.shuffle = 32 : i64} : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Two sibling loops in the lane guard (a chunk loop unrolled whole), the
// element's index computed in the guard: the index and both loops leave
// the guard, each loop's block gets its own term guard, and the load in
// the guard is copied into both.
// CHECK-LABEL: func.func @sibling_loops
//       CHECK: %[[IN:.*]] = arith.cmpi ult
//       CHECK: %[[E:.*]] = arith.addi %arg2, %c1 : index
//       CHECK: scf.for
//       CHECK:   scf.if %[[IN]] -> (f32) {
//       CHECK:     memref.load %arg3
//       CHECK:   memref.store {{.*}}, %arg1[%[[E]]] {sptir.shuffle = 32 : i64}
//       CHECK: scf.for
//       CHECK:   scf.if %[[IN]] -> (f32) {
//       CHECK:     memref.load %arg3
//       CHECK:   memref.store {{.*}}, %arg1[%[[E]]] {sptir.shuffle = 32 : i64}
//   CHECK-NOT: scf.if
//       CHECK: gpu.terminator
func.func @sibling_loops(%b: memref<?xf32>, %c: memref<?xf32>, %base: index, %scale: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %c20 : index
    scf.if %in {
      %e = arith.addi %base, %c1 : index
      %s = memref.load %scale[%tx] : memref<?xf32>
      scf.for %k = %c0 to %c4 step %c1 {
        %bk = arith.addi %tx, %k : index
        %bv = memref.load %b[%bk] : memref<?xf32>
        %t = arith.mulf %bv, %s : f32
        %old = memref.load %c[%e] : memref<?xf32>
        %new = arith.addf %old, %t : f32
        memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
      }
      scf.for %k = %c4 to %c8 step %c1 {
        %bk = arith.addi %tx, %k : index
        %bv = memref.load %b[%bk] : memref<?xf32>
        %t = arith.mulf %bv, %s : f32
        %old = memref.load %c[%e] : memref<?xf32>
        %new = arith.addf %old, %t : f32
        memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// A term reads the memory an accumulation writes: under its own guard it
// would read before the write. The guard stays.
// CHECK-LABEL: func.func @reads_what_it_writes
//       CHECK: scf.if
//  CHECK-NEXT:   scf.for
func.func @reads_what_it_writes(%b: memref<?xf32>, %c: memref<?xf32>, %d: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %c20 : index
    scf.if %in {
      scf.for %k = %c0 to %c8 step %c1 {
        %bk = arith.addi %tx, %k : index
        %bv = memref.load %b[%bk] : memref<?xf32>
        %old = memref.load %c[%k] : memref<?xf32>
        %new = arith.addf %old, %bv : f32
        memref.store %new, %c[%k] {sptir.shuffle = 32 : i64} : memref<?xf32>
        %x = memref.load %c[%k] : memref<?xf32>
        %old2 = memref.load %d[%k] : memref<?xf32>
        %new2 = arith.addf %old2, %x : f32
        memref.store %new2, %d[%k] {sptir.shuffle = 32 : i64} : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// B's row gathered through a range-checked column (a value an scf.if
// chooses, as a column read from a buffer gets): the choice is part of
// the term and moves under the lane guard with it, its column check too.
// CHECK-LABEL: func.func @checked_gather
//       CHECK: scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
//       CHECK:   %[[T:.*]] = scf.if %{{.*}} -> (f32) {
//       CHECK:     %[[COL:.*]] = memref.load %arg1
//       CHECK:     %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %arg5
//       CHECK:     %[[B:.*]] = scf.if %[[OK]] -> (f32) {
//       CHECK:       memref.load %arg3
//       CHECK:     arith.mulf %{{.*}}, %[[B]]
//       CHECK:   } else {
//       CHECK:   memref.store %{{.*}}, %arg4[%{{.*}}] {sptir.shuffle = 32 : i64}
func.func @checked_gather(%rowptr: memref<?xi32>, %col: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %start32 = memref.load %rowptr[%row] : memref<?xi32>
    %start = arith.index_cast %start32 : i32 to index
    %next = arith.addi %row, %c1 : index
    %end32 = memref.load %rowptr[%next] : memref<?xi32>
    %end = arith.index_cast %end32 : i32 to index
    %len = arith.subi %end, %start : index
    %chunks = arith.ceildivui %len, %c32 : index
    %base = arith.muli %row, %c8 : index
    scf.for %o = %c0 to %chunks step %c1 {
      %o32 = arith.muli %o, %c32 : index
      %j = arith.addi %o32, %tx : index
      %in = arith.cmpi ult, %j, %len : index
      scf.if %in {
        %p = arith.addi %start, %j : index
        %col32 = memref.load %col[%p] : memref<?xi32>
        %colx = arith.index_cast %col32 : i32 to index
        %av = memref.load %a[%p] : memref<?xf32>
        %ok = arith.cmpi ult, %colx, %n : index
        scf.for %k = %c0 to %c8 step %c1 {
          %e = arith.addi %base, %k : index
          %old = memref.load %c[%e] : memref<?xf32>
          %bv = scf.if %ok -> (f32) {
            %brow = arith.muli %colx, %c8 : index
            %bk = arith.addi %brow, %k : index
            %v = memref.load %b[%bk] : memref<?xf32>
            scf.yield %v : f32
          } else {
            scf.yield %zero : f32
          }
          %prod = arith.mulf %av, %bv : f32
          %new = arith.addf %old, %prod : f32
          memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// A choice inside the term that reads the accumulated memory would move
// past the writes: the lane guard stays where it is.
// CHECK-LABEL: func.func @choice_reads_the_sum
//       CHECK: scf.if %{{.*}} {
//       CHECK:   scf.for
//       CHECK:     scf.if %{{.*}} -> (f32)
//       CHECK:       memref.load %arg4
//       CHECK:     memref.store %{{.*}}, %arg4[%{{.*}}] {sptir.shuffle = 32 : i64}
func.func @choice_reads_the_sum(%rowptr: memref<?xi32>, %col: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %start32 = memref.load %rowptr[%row] : memref<?xi32>
    %start = arith.index_cast %start32 : i32 to index
    %next = arith.addi %row, %c1 : index
    %end32 = memref.load %rowptr[%next] : memref<?xi32>
    %end = arith.index_cast %end32 : i32 to index
    %len = arith.subi %end, %start : index
    %chunks = arith.ceildivui %len, %c32 : index
    %base = arith.muli %row, %c8 : index
    scf.for %o = %c0 to %chunks step %c1 {
      %o32 = arith.muli %o, %c32 : index
      %j = arith.addi %o32, %tx : index
      %in = arith.cmpi ult, %j, %len : index
      scf.if %in {
        %p = arith.addi %start, %j : index
        %col32 = memref.load %col[%p] : memref<?xi32>
        %colx = arith.index_cast %col32 : i32 to index
        %av = memref.load %a[%p] : memref<?xf32>
        %ok = arith.cmpi ult, %colx, %n : index
        scf.for %k = %c0 to %c8 step %c1 {
          %e = arith.addi %base, %k : index
          %old = memref.load %c[%e] : memref<?xf32>
          %bv = scf.if %ok -> (f32) {
            %seen = memref.load %c[%e] : memref<?xf32>
            scf.yield %seen : f32
          } else {
            scf.yield %zero : f32
          }
          %prod = arith.mulf %av, %bv : f32
          %new = arith.addf %old, %prod : f32
          memref.store %new, %c[%e] {sptir.shuffle = 32 : i64} : memref<?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}
