// RUN: sptir-opt %s --split-input-file -p 'builtin.module(clamp-guarded-loops)' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=1000000},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sptir-stage2-to-launches)' | FileCheck %s --check-prefix=SPLIT
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4611686018427387904},lower-sparse-buffer,sptir-stage3-to-llvm)' | FileCheck %s --check-prefix=CPU

// On the CPU too (sptir-stage3-to-llvm): a hand-split loop of 2^62 a
// chunk stops at the feature count instead of testing 2^62 positions.
//       CPU: llvm.func @csr_spmm(
//       CPU:   llvm.mlir.constant(4611686018427387904 : index)
//       CPU:   %[[END:.*]] = llvm.intr.smin(
//  CPU-NEXT:   llvm.br ^[[HEADER:.*]](
//       CPU: ^[[HEADER]](%[[POSITION:.*]]: i64):
//  CPU-NEXT:   llvm.icmp "slt" %[[POSITION]], %[[END]]

// A split's guard in a sequential loop becomes its bound: the loop runs
// min(factor, n - chunk start) positions, and its body is the guarded one;
// the chunk loop around it stops at the last chunk that has a position.
// CHECK-LABEL: func.func @sequential_chunk
//       CHECK: %[[CHUNKS:.*]] = arith.ceildivsi %arg1, %{{.*}}
//  CHECK-NEXT: %[[OEND:.*]] = arith.minsi %arg2, %[[CHUNKS]]
//  CHECK-NEXT: scf.for %[[O:.*]] = %c0 to %[[OEND]] step %c1 {
//  CHECK-NEXT:   %[[START:.*]] = arith.muli %[[O]], %c8
//  CHECK-NEXT:   %[[LEFT:.*]] = arith.subi %arg1, %[[START]]
//  CHECK-NEXT:   %[[END:.*]] = arith.minsi %c8, %[[LEFT]]
//  CHECK-NEXT:   scf.for %[[I:.*]] = %c0 to %[[END]] step %c1 {
//  CHECK-NEXT:     %[[P:.*]] = arith.addi %[[START]], %[[I]]
//  CHECK-NEXT:     %{{.*}} = arith.cmpi ult, %[[P]], %arg1
//  CHECK-NEXT:     memref.store %arg3, %arg0[%[[P]]]
//  CHECK-NEXT:   }
func.func @sequential_chunk(%x: memref<?xf32>, %n: index, %chunks: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %o = %c0 to %chunks step %c1 {
    %start = arith.muli %o, %c8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %p = arith.addi %start, %i : index
      %in = arith.cmpi ult, %p, %n : index
      scf.if %in {
        memref.store %v, %x[%p] : memref<?xf32>
      } {sptir.split_guard}
    }
  }
  return
}

// -----

// The outer part of a split over 256 threads: the position is 256 i plus
// the thread's place, and the loop runs ceil((n - t) / 256) times.
// CHECK-LABEL: func.func @strided_over_threads
//       CHECK: %[[LEFT:.*]] = arith.subi %arg1, %[[T:.*]]
//       CHECK: %[[STEPS:.*]] = arith.ceildivsi %[[LEFT]], %{{.*}}
//  CHECK-NEXT: %[[END:.*]] = arith.minsi %c4096, %[[STEPS]]
//  CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[END]] step %c1 {
//   CHECK-NOT:   scf.if
//       CHECK: return
func.func @strided_over_threads(%x: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %c4096 step %c1 {
    %s = arith.muli %i, %c256 : index
    %p = arith.addi %s, %t : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      memref.store %v, %x[%p] : memref<?xf32>
    } {sptir.split_guard}
  }
  return
}

// -----

// A position that is not a positive multiple of the induction variable
// plus terms (here -2 i) keeps its guard.
// CHECK-LABEL: func.func @negative_stride
//       CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
//       CHECK:   scf.if
func.func @negative_stride(%x: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cm2 = arith.constant -2 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %s = arith.muli %i, %cm2 : index
    %p = arith.addi %s, %n : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      memref.store %v, %x[%p] : memref<?xf32>
    } {sptir.split_guard}
  }
  return
}

// -----

// Several terms before the loop (a row's first non-zero and the chunk's
// start) all leave the bound.
// CHECK-LABEL: func.func @nested_sum
//       CHECK: %[[A:.*]] = arith.subi %arg1, %arg2
//  CHECK-NEXT: %[[B:.*]] = arith.subi %[[A]], %arg3
//  CHECK-NEXT: %[[END:.*]] = arith.minsi %c8, %[[B]]
//  CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[END]] step %c1 {
//   CHECK-NOT:   scf.if
func.func @nested_sum(%x: memref<?xf32>, %n: index, %row: index, %start: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %q = arith.addi %start, %i : index
    %p = arith.addi %row, %q : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      memref.store %v, %x[%p] : memref<?xf32>
    } {sptir.split_guard}
  }
  return
}

// -----

// Kept: a store outside the guard (skipping iterations would skip it), an
// else branch, a test that is not an upper bound, and a guard that is not
// a split's.
// CHECK-LABEL: func.func @kept
//   CHECK-NOT: arith.minsi
//       CHECK: return
func.func @kept(%x: memref<?xf32>, %n: index, %v: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %v, %x[%i] : memref<?xf32>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      memref.store %v, %x[%i] : memref<?xf32>
    } {sptir.split_guard}
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      memref.store %v, %x[%i] : memref<?xf32>
    } else {
      memref.store %v, %x[%c0] : memref<?xf32>
    } {sptir.split_guard}
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %in = arith.cmpi uge, %i, %n : index
    scf.if %in {
      memref.store %v, %x[%i] : memref<?xf32>
    } {sptir.split_guard}
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      memref.store %v, %x[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// A position twice the loop's variable (i + i) stops at ceil(n / 2).
// CHECK-LABEL: func.func @doubled
//       CHECK: %[[HALF:.*]] = arith.ceildivsi %arg1, %{{.*}}
//  CHECK-NEXT: %[[END:.*]] = arith.minsi %c8, %[[HALF]]
//  CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[END]] step %c1 {
//   CHECK-NOT:   scf.if
//       CHECK: return
func.func @doubled(%x: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %p = arith.addi %i, %i : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      memref.store %v, %x[%p] : memref<?xf32>
    } {sptir.split_guard}
  }
  return
}

// -----

// With a barrier in the loop, a bound that differs between threads would
// have threads meet different barriers: the guard stays.
// CHECK-LABEL: func.func @barrier
//   CHECK-NOT: arith.minsi
//       CHECK: scf.if
func.func @barrier(%x: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %c8 step %c1 {
    %p = arith.addi %t, %i : index
    %in = arith.cmpi ult, %p, %n : index
    scf.if %in {
      memref.store %v, %x[%p] : memref<?xf32>
      gpu.barrier
    } {sptir.split_guard}
  }
  return
}

// The split feature loop left sequential in a block-per-row kernel ends
// at the feature size, not after a million guarded steps.
// SPLIT:      %[[END:.*]] = arith.minsi
// SPLIT-NEXT: scf.for %{{.*}} = %c0 to %[[END]] step %c1 {
// SPLIT-NOT:    scf.if
// SPLIT:      } {sptir.kind = "spatial", sptir.label = "csrmm.2.i"}

// -----

// A split of a split's inner loop: the first split's chunks of 10^8
// positions, each cut into pairs. The innermost loop stops at the end, and
// the loop of pairs stops at the last pair that has a position, instead of
// running 5 * 10^7 empty pairs a chunk.
// CHECK-LABEL: func.func @split_of_a_split
//       CHECK: %[[CHUNKS:.*]] = arith.ceildivsi %arg1,
//  CHECK-NEXT: %[[OEND:.*]] = arith.minsi %arg2, %[[CHUNKS]]
//  CHECK-NEXT: scf.for %[[O:.*]] = %c0 to %[[OEND]] step %c1 {
//  CHECK-NEXT:   %[[START:.*]] = arith.muli %[[O]], %c100000000
//       CHECK:   %[[LEFT:.*]] = arith.subi %arg1, %[[START]]
//       CHECK:   %[[PAIRS:.*]] = arith.ceildivsi %[[LEFT]], %{{.*}}
//  CHECK-NEXT:   %[[PEND:.*]] = arith.minsi %c50000000, %[[PAIRS]]
//  CHECK-NEXT:   scf.for %[[P:.*]] = %c0 to %[[PEND]] step %c1 {
//       CHECK:     arith.minsi %c2,
//   CHECK-NOT:     scf.if
//       CHECK: return
func.func @split_of_a_split(%x: memref<?xf32>, %n: index, %chunks: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c50000000 = arith.constant 50000000 : index
  %c100000000 = arith.constant 100000000 : index
  scf.for %o = %c0 to %chunks step %c1 {
    %start = arith.muli %o, %c100000000 : index
    scf.for %p = %c0 to %c50000000 step %c1 {
      %pair = arith.muli %p, %c2 : index
      %first = arith.addi %start, %pair : index
      scf.for %i = %c0 to %c2 step %c1 {
        %q = arith.addi %first, %i : index
        %in = arith.cmpi ult, %q, %n : index
        scf.if %in {
          memref.store %v, %x[%q] : memref<?xf32>
        } {sptir.split_guard}
      }
    }
  }
  return
}
