// RUN: sptir-opt %s --split-input-file -p 'builtin.module(synchronize-thread-loops)' | FileCheck %s

// Thread t zeroes element t; then thread t adds to element 15 - t, which
// another thread zeroed: a barrier between the two loops.
// CHECK-LABEL: func.func @reversed
//       CHECK: } {bind = "threadIdx.x", sptir.label = "zero"}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: scf.for
//       CHECK: } {bind = "threadIdx.x", sptir.label = "add"}
func.func @reversed(%m: memref<?xf32>, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  scf.for %block = %c0 to %b step %c1 {
    scf.for %t = %c0 to %c16 step %c1 {
      memref.store %zero, %m[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "zero"}
    scf.for %t = %c0 to %c16 step %c1 {
      %e = arith.subi %c15, %t : index
      %v = memref.load %m[%e] : memref<?xf32>
      %s = arith.addf %v, %one : f32
      memref.store %s, %m[%e] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "add"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----
// The same element on the same thread in both loops, under the same guard
// (the zeroing and accumulation nests of a row schedule): no barrier.
// CHECK-LABEL: func.func @same_mapping
//   CHECK-NOT: gpu.barrier
func.func @same_mapping(%m: memref<?xf32>, %n: index, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %chunks = arith.ceildivui %n, %c8 : index
  scf.for %y = %c0 to %c8 step %c1 {
    scf.for %o = %c0 to %chunks step %c1 {
      scf.for %t = %c0 to %c8 step %c1 {
        %a = arith.muli %o, %c8 : index
        %k = arith.addi %a, %t : index
        %in = arith.cmpi ult, %k, %n : index
        scf.if %in {
          memref.store %zero, %m[%k] : memref<?xf32>
        }
      } {bind = "threadIdx.x", sptir.label = "zero"}
    }
    scf.for %o = %c0 to %chunks step %c1 {
      scf.for %j = %c0 to %len step %c1 {
        scf.for %t = %c0 to %c8 step %c1 {
          %a = arith.muli %o, %c8 : index
          %k = arith.addi %a, %t : index
          %in = arith.cmpi ult, %k, %n : index
          scf.if %in {
            %v = memref.load %m[%k] : memref<?xf32>
            %s = arith.addf %v, %one : f32
            memref.store %s, %m[%k] : memref<?xf32>
          }
        } {bind = "threadIdx.x", sptir.label = "add"}
      }
    }
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----
// A copy by all threads, then every thread reads the whole copy, in a
// sequential loop: a barrier between copy and use, and one at the end of
// the loop body before the next iteration's copy overwrites it.
// CHECK-LABEL: func.func @copy_then_use
//       CHECK: scf.for
//       CHECK: } {bind = "threadIdx.x", sptir.label = "copy"}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: scf.for
//       CHECK: } {bind = "threadIdx.x", sptir.label = "use"}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: }
func.func @copy_then_use(%src: memref<?xf32>, %tile: memref<8xf32>, %out: memref<?xf32>, %n: index, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %block = %c0 to %b step %c1 {
  scf.for %i = %c0 to %n step %c1 {
    scf.for %t = %c0 to %c8 step %c1 {
      %a = arith.muli %i, %c8 : index
      %p = arith.addi %a, %t : index
      %v = memref.load %src[%p] : memref<?xf32>
      memref.store %v, %tile[%t] : memref<8xf32>
    } {bind = "threadIdx.x", sptir.label = "copy"}
    scf.for %t = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %v = memref.load %tile[%j] : memref<8xf32>
        %o = memref.load %out[%t] : memref<?xf32>
        %s = arith.addf %o, %v : f32
        memref.store %s, %out[%t] : memref<?xf32>
      }
    } {bind = "threadIdx.x", sptir.label = "use"}
  }
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----
// Only reads, or only atomic additions, on shared memory: no barrier.
// CHECK-LABEL: func.func @reads_and_atomics
//   CHECK-NOT: gpu.barrier
func.func @reads_and_atomics(%src: memref<?xf32>, %out: memref<?xf32>, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %v = memref.load %src[%t] : memref<?xf32>
    %o = memref.load %out[%c0] : memref<?xf32>
    %s = arith.addf %o, %v : f32
    memref.store %s, %out[%c0] : memref<?xf32>
  } {atomic, bind = "threadIdx.x", sptir.label = "first"}
  scf.for %t = %c0 to %c16 step %c1 {
    %e = arith.subi %c15, %t : index
    %v = memref.load %src[%e] : memref<?xf32>
    %o = memref.load %out[%c0] : memref<?xf32>
    %s = arith.addf %o, %v : f32
    memref.store %s, %out[%c0] : memref<?xf32>
  } {atomic, bind = "threadIdx.x", sptir.label = "second"}
  return
}


// -----
// Atomic maxima after atomic sums of the same element: a sum and a maximum
// do not commute, so the sums must all land first (a barrier); maxima
// after maxima would need none.
// CHECK-LABEL: func.func @sums_then_maxima
//       CHECK: } {atomic, bind = "threadIdx.x", sptir.label = "sums"}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: scf.for
//       CHECK: } {atomic, bind = "threadIdx.x", sptir.label = "maxima"}
//   CHECK-NOT: gpu.barrier
//       CHECK: } {atomic, bind = "threadIdx.x", sptir.label = "more maxima"}
func.func @sums_then_maxima(%src: memref<?xf32>, %out: memref<?xf32>, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %block = %c0 to %b step %c1 {
    scf.for %t = %c0 to %c16 step %c1 {
      %v = memref.load %src[%t] : memref<?xf32>
      %o = memref.load %out[%c0] : memref<?xf32>
      %s = arith.addf %o, %v : f32
      memref.store %s, %out[%c0] : memref<?xf32>
    } {atomic, bind = "threadIdx.x", sptir.label = "sums"}
    scf.for %t = %c0 to %c16 step %c1 {
      %v = memref.load %src[%t] : memref<?xf32>
      %o = memref.load %out[%c0] : memref<?xf32>
      %s = arith.maximumf %o, %v : f32
      memref.store %s, %out[%c0] : memref<?xf32>
    } {atomic, bind = "threadIdx.x", sptir.label = "maxima"}
    scf.for %t = %c0 to %c16 step %c1 {
      %v = memref.load %src[%t] : memref<?xf32>
      %o = memref.load %out[%c0] : memref<?xf32>
      %s = arith.maximumf %v, %o : f32
      memref.store %s, %out[%c0] : memref<?xf32>
    } {atomic, bind = "threadIdx.x", sptir.label = "more maxima"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----
// Every thread reads what one thread wrote: a barrier before the read
// that runs outside the thread loops.
// CHECK-LABEL: func.func @broadcast_read
//       CHECK: } {bind = "threadIdx.x", sptir.label = "write"}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: memref.load %arg0[%c0]
func.func @broadcast_read(%m: memref<?xf32>, %out: memref<?xf32>, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  scf.for %block = %c0 to %b step %c1 {
  scf.for %t = %c0 to %c16 step %c1 {
    memref.store %f, %m[%t] : memref<?xf32>
  } {bind = "threadIdx.x", sptir.label = "write"}
  %first = memref.load %m[%c0] : memref<?xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    memref.store %first, %out[%t] : memref<?xf32>
  } {bind = "threadIdx.x", sptir.label = "use"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----

// Rows on threadIdx.y, each with its own tile (privatize-row-tiles): the
// copy, a read that every thread of the row runs, and the walk meet only
// within a row, so row barriers go inside the row loop, after the copy
// (one serves both readers) and at the end of each step of the chunk loop.
// CHECK-LABEL: func.func @row_tiles
//       CHECK: scf.for
//       CHECK:   scf.for
//       CHECK:   } {bind = "threadIdx.x", sptir.label = "copy"}
//  CHECK-NEXT:   gpu.barrier {sptir.row}
//  CHECK-NEXT:   memref.load
//   CHECK-NOT:   gpu.barrier
//       CHECK:   } {bind = "threadIdx.x", sptir.label = "walk"}
//  CHECK-NEXT:   gpu.barrier {sptir.row}
//  CHECK-NEXT:   }
//   CHECK-NOT: gpu.barrier
func.func @row_tiles(%in: memref<?xf32>, %out: memref<?xf32>, %chunks: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tile = memref.alloca() {sptir.shared} : memref<4x8xf32>
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %chunks step %c1 {
      scf.for %t = %c0 to %c8 step %c1 {
        %v = memref.load %in[%t] : memref<?xf32>
        memref.store %v, %tile[%y, %t] : memref<4x8xf32>
      } {bind = "threadIdx.x", sptir.label = "copy"}
      %first = memref.load %tile[%y, %c0] : memref<4x8xf32>
      scf.for %t = %c0 to %c8 step %c1 {
        %e = arith.subi %c8, %t : index
        %last = arith.subi %e, %c1 : index
        %v = memref.load %tile[%y, %last] : memref<4x8xf32>
        %s = arith.addf %v, %first : f32
        %at = arith.muli %y, %c8 : index
        %o = arith.addi %at, %t : index
        memref.store %s, %out[%o] : memref<?xf32>
      } {bind = "threadIdx.x", sptir.label = "walk"}
    }
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// Memory allocated inside a thread loop is each position's own: thread t
// reads back element t + 1 of its own copy, and needs no barrier.
// CHECK-LABEL: func.func @local_inside_thread_loop
//   CHECK-NOT: gpu.barrier
//       CHECK: return
func.func @local_inside_thread_loop(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %t = %c0 to %c8 step %c1 {
    %local = memref.alloca(%c8) : memref<?xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %v = memref.load %in[%k] : memref<?xf32>
      memref.store %v, %local[%k] : memref<?xf32>
    }
    %n = arith.addi %t, %c1 : index
    %w = arith.remui %n, %c8 : index
    %v = memref.load %local[%w] : memref<?xf32>
    memref.store %v, %out[%t] : memref<?xf32>
  } {bind = "threadIdx.x", sptir.label = "threads"}
  return
}

// -----
// A row's non-zeros on the lanes, a chunk of them a step, each zeroing its
// element and then accumulating into it under the tail guard of a feature
// loop: the guard is the same for every thread and the element does not
// follow the features, so each element stays with its thread: no barrier
// and no error, though the loop repeats in sequential loop "chunks".
// CHECK-LABEL: func.func @feature_tail_guard
//   CHECK-NOT: gpu.barrier
func.func @feature_tail_guard(%m: memref<?xf32>, %x: memref<?xf32>, %chunks: index, %feat: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %o = %c0 to %chunks step %c1 {
      scf.for %t = %c0 to %c32 step %c1 {
        %a = arith.muli %o, %c32 : index
        %k = arith.addi %a, %t : index
        memref.store %zero, %m[%k] : memref<?xf32>
        scf.for %f = %c0 to %c4 step %c1 {
          %in = arith.cmpi ult, %f, %feat : index
          scf.if %in {
            %v = memref.load %m[%k] : memref<?xf32>
            %w = memref.load %x[%f] : memref<?xf32>
            %s = arith.addf %v, %w : f32
            memref.store %s, %m[%k] : memref<?xf32>
          }
        }
      } {bind = "threadIdx.x", sptir.label = "lanes"}
    } {sptir.label = "chunks"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----
// Every thread zeroes m[0..8), then every thread adds into m[0..8) (the
// additions are atomic, under a guard every thread answers alike): no
// position of a thread reaches the index, so each element is every
// thread's, and a barrier must separate the zeroing from the additions.
// CHECK-LABEL: func.func @every_threads_elements
//       CHECK: } {bind = "threadIdx.x", sptir.label = "zero"}
//  CHECK-NEXT: gpu.barrier
func.func @every_threads_elements(%m: memref<?xf32>, %src: memref<?xf32>, %b: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %block = %c0 to %b step %c1 {
    scf.for %t = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c8 step %c1 {
        memref.store %zero, %m[%k] : memref<?xf32>
      }
    } {bind = "threadIdx.x", sptir.label = "zero"}
    scf.for %t = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c8 step %c1 {
        %in = arith.cmpi ult, %block, %n : index
        scf.if %in {
          %p = arith.muli %t, %c8 : index
          %q = arith.addi %p, %k : index
          %x = memref.load %src[%q] : memref<?xf32>
          %v = memref.load %m[%k] : memref<?xf32>
          %s = arith.addf %v, %x : f32
          memref.store %s, %m[%k] : memref<?xf32>
        }
      }
    } {atomic, bind = "threadIdx.x", sptir.label = "add"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----
// A row's features zeroed on its 32 lanes, then its non-zeros on the same
// lanes with shuffled sums added into those features: the lanes meet in
// the shuffle before the first lane adds, so no barrier (none could be
// placed inside the rows anyway).
// CHECK-LABEL: func.func @zeroed_then_shuffled
//   CHECK-NOT: gpu.barrier
func.func @zeroed_then_shuffled(%c: memref<?xf32>, %b: memref<?xf32>, %rows: index, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %y = %c0 to %rows step %c1 {
    %row = arith.muli %y, %c32 : index
    scf.for %x = %c0 to %c32 step %c1 {
      %e = arith.addi %row, %x : index
      memref.store %zero, %c[%e] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "zero"}
    scf.for %x = %c0 to %c32 step %c1 {
      %in = arith.cmpi ult, %x, %len : index
      scf.if %in {
        scf.for %k = %c0 to %c32 step %c1 {
          %e = arith.addi %row, %k : index
          %acc = memref.load %c[%e] : memref<?xf32>
          %v = memref.load %b[%x] : memref<?xf32>
          %s = arith.addf %acc, %v : f32
          memref.store %s, %c[%e] : memref<?xf32>
        }
      }
    } {bind = "threadIdx.x", shuffle, sptir.label = "nonzeros"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// A buffer in scope "local" that only code every thread runs writes: each
// thread fills its whole copy, so a thread loop may read any element of
// it, no barrier needed (a row's features summed by every thread, then
// stored by the feature threads).
// CHECK-LABEL: func.func @local_filled_by_every_thread
//   CHECK-NOT: gpu.barrier
func.func @local_filled_by_every_thread(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %b = %c0 to %c4 step %c1 {
    %local = memref.alloca(%c8) : memref<?xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %v = memref.load %in[%k] : memref<?xf32>
      memref.store %v, %local[%k] : memref<?xf32>
    } {sptir.label = "fill"}
    scf.for %t = %c0 to %c8 step %c1 {
      %n = arith.addi %t, %c1 : index
      %w = arith.remui %n, %c8 : index
      %v = memref.load %local[%w] : memref<?xf32>
      memref.store %v, %out[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "read"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----

// A launch whose thread loop's bound is computed inside it (a clamp=true
// split's inner loop: min(4, what is left of the chunk)) is left alone:
// lower-loop-bindings refuses it with that reason, where a judgment of its
// accesses would blame a mapping it cannot have.
// CHECK-LABEL: func.func @sized_inside
//   CHECK-NOT: gpu.barrier
func.func @sized_inside(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.for %b = %c0 to %c4 step %c1 {
    %start = arith.muli %b, %c4 : index
    %left = arith.subi %n, %start : index
    %size = arith.minui %c4, %left : index
    scf.for %t = %c0 to %size step %c1 {
      memref.store %f, %out[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "write"}
    scf.for %t = %c0 to %c4 step %c1 {
      %r = arith.subi %c4, %t : index
      %s = arith.subi %r, %c1 : index
      %v = memref.load %out[%s] : memref<?xf32>
      memref.store %v, %out[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "reverse"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}

// -----

// Even threads write out[t/2] (one writer an element, as a spatial loop
// promises), then every thread reads out[t/2]: thread 1 reads what thread
// 0 wrote. A guard on a spatial position the index follows does not keep
// an element with one thread where the index is not one-to-one in the
// threads: the barrier stays.
// CHECK-LABEL: func.func @halves
//       CHECK: bind = "threadIdx.x"{{.*}}sptir.label = "write"
//  CHECK-NEXT: gpu.barrier
func.func @halves(%out: memref<?xf32>, %dst: memref<?xf32>, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  scf.for %block = %c0 to %b step %c1 {
    scf.for %t = %c0 to %c32 step %c1 {
      %h = arith.divui %t, %c2 : index
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        memref.store %one, %out[%h] : memref<?xf32>
      }
    } {bind = "threadIdx.x", sptir.kind = "spatial", sptir.label = "write"}
    scf.for %t = %c0 to %c32 step %c1 {
      %h = arith.divui %t, %c2 : index
      %v = memref.load %out[%h] : memref<?xf32>
      memref.store %v, %dst[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.kind = "spatial", sptir.label = "read"}
  } {bind = "blockIdx.x", sptir.kind = "spatial", sptir.label = "blocks"}
  return
}
