// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(synchronize-thread-loops)'

// Rows on threadIdx.y: a barrier inside the row loop would not be reached
// by the threads of rows that do not exist.
func.func @inside_thread_loop(%m: memref<?xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %y = %c0 to %rows step %c1 {
    scf.for %t = %c0 to %c16 step %c1 {
      memref.store %zero, %m[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "zero"}
    // expected-error@+1 {{synchronize-thread-loops: loop "reverse" (threadIdx.x) touches memory that loop "zero" (threadIdx.x) touches from other threads (the memref.store at line 13:7 and the memref.store at line 18:7), and both are inside loop "rows" (threadIdx.y), where no barrier can be reached by every thread of the block}}
    scf.for %t = %c0 to %c16 step %c1 {
      %e = arith.subi %c15, %t : index
      memref.store %zero, %m[%e] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "reverse"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// A thread loop that reads what its other threads wrote in the previous
// step of a sequential loop, all inside rows on threadIdx.y: the loop is
// named once, with the loop whose steps it spans.
func.func @across_steps(%m: memref<?xf32>, %rows: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  scf.for %y = %c0 to %rows step %c1 {
    scf.for %s = %c0 to %steps step %c1 {
      // expected-error@+1 {{synchronize-thread-loops: loop "lanes" (threadIdx.x) touches memory that its other threads touch in another iteration of sequential loop "steps" (the memref.load at line 39:14 and the memref.store at line 40:9), and it is inside loop "rows" (threadIdx.y), where no barrier can be reached by every thread of the block}}
      scf.for %t = %c0 to %c16 step %c1 {
        %e = arith.subi %c15, %t : index
        %v = memref.load %m[%e] : memref<?xf32>
        memref.store %v, %m[%t] : memref<?xf32>
      } {bind = "threadIdx.x", sptir.label = "lanes"}
    } {sptir.label = "steps"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// A row's tile, but also a buffer that every row shares: a row barrier
// would not order the rows' accesses to it.
func.func @row_tile_and_shared_buffer(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloca() {sptir.shared} : memref<4x8xf32>
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %t = %c0 to %c8 step %c1 {
      memref.store %zero, %tile[%y, %t] : memref<4x8xf32>
      memref.store %zero, %m[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "zero"}
    // expected-error@+1 {{loop "reverse" (threadIdx.x) touches memory that loop "zero" (threadIdx.x) touches from other threads}}
    scf.for %t = %c0 to %c8 step %c1 {
      %e = arith.subi %c7, %t : index
      %v = memref.load %tile[%y, %e] : memref<4x8xf32>
      memref.store %v, %m[%e] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "reverse"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// A tile indexed by the row's position, but the rows are on threadIdx.x:
// a row barrier is for rows of threadIdx.y or z.
func.func @tile_on_x_rows(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloca() {sptir.shared} : memref<4x8xf32>
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %t = %c0 to %c8 step %c1 {
      memref.store %zero, %tile[%y, %t] : memref<4x8xf32>
    } {bind = "threadIdx.y", sptir.label = "zero"}
    // expected-error@+1 {{where no barrier can be reached by every thread of the block}}
    scf.for %t = %c0 to %c8 step %c1 {
      %e = arith.subi %c7, %t : index
      %v = memref.load %tile[%y, %e] : memref<4x8xf32>
      memref.store %v, %m[%e] : memref<?xf32>
    } {bind = "threadIdx.y", sptir.label = "reverse"}
  } {bind = "threadIdx.x", sptir.label = "rows"}
  return
}

// -----

// A buffer in scope "local" (memref.alloca) inside the launch is each
// thread's own: thread t reads element t + 1 of its copy, which only
// thread t + 1 wrote, in its own. No barrier passes it over.
func.func @local_across_threads(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %b = %c0 to %c4 step %c1 {
    %local = memref.alloca(%c8) : memref<?xf32>
    scf.for %t = %c0 to %c8 step %c1 {
      %v = memref.load %in[%t] : memref<?xf32>
      memref.store %v, %local[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "write"}
    // expected-error@+1 {{synchronize-thread-loops: loop "read" (threadIdx.x) touches memory that loop "write" (threadIdx.x) touches from other threads (the memref.store at line 114:7 and the memref.load at line 120:12), but each thread has its own copy of it (a memref.alloca inside the launch: a buffer in scope "local"), which no barrier passes between threads}}
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
// A guard the same for every thread, but on a loop the element follows:
// thread t writes element t (f = 0) and reads elements t + f, which other
// threads wrote.
func.func @guard_on_the_index(%m: memref<?xf32>, %out: memref<?xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %o = %c0 to %steps step %c1 {
      // expected-error@+1 {{synchronize-thread-loops: loop "lanes" (threadIdx.x) touches memory that its other threads touch in another iteration of sequential loop "steps"}}
      scf.for %t = %c0 to %c32 step %c1 {
        scf.for %f = %c0 to %c4 step %c1 {
          %k = arith.addi %t, %f : index
          %first = arith.cmpi eq, %f, %c0 : index
          scf.if %first {
            memref.store %zero, %m[%k] : memref<?xf32>
          }
          %v = memref.load %m[%k] : memref<?xf32>
          %s = arith.addf %v, %v : f32
          memref.store %s, %out[%k] : memref<?xf32>
        }
      } {bind = "threadIdx.x", sptir.label = "lanes"}
    } {sptir.label = "steps"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// -----

// A shuffled loop whose lanes read what the zeroing lanes wrote before
// they meet (a term, not the accumulation): still an error.
func.func @read_before_the_shuffle(%c: memref<?xf32>, %rows: index, %len: index) {
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
    // expected-error@+1 {{synchronize-thread-loops: loop "nonzeros" (threadIdx.x) touches memory that loop "zero" (threadIdx.x) touches from other threads}}
    scf.for %x = %c0 to %c32 step %c1 {
      %t = arith.subi %c32, %x : index
      %f = arith.addi %row, %t : index
      %other = memref.load %c[%f] : memref<?xf32>
      scf.for %k = %c0 to %c32 step %c1 {
        %e = arith.addi %row, %k : index
        %acc = memref.load %c[%e] : memref<?xf32>
        %s = arith.addf %acc, %other : f32
        memref.store %s, %c[%e] : memref<?xf32>
      }
    } {bind = "threadIdx.x", shuffle, sptir.label = "nonzeros"}
  } {bind = "threadIdx.y", sptir.label = "rows"}
  return
}

// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.1 factor=8},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-split{loop=csrmm.1.i.cache factor=4},sparse-pos-bind{loop=csrmm.1.i.cache.i to=threadIdx.x},sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=4},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-split{loop=csrmm.0 factor=2},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-launches)' 2>&1 | FileCheck %s --check-prefix=GUARDS
// Rows on threadIdx.y with the row's non-zeros in a shared tile, the
// non-zero split without clamp=true: C's zeroing and accumulation index it
// alike, but the accumulation sits under the split's tail guard, which
// depends on the row; the refusal says so.
// GUARDS: error: synchronize-thread-loops: loop "csrmm.2.i" (threadIdx.x) touches memory that loop "csrmm.init.1.i" (threadIdx.x) touches from other threads
// GUARDS-SAME: these two index it alike but under different guards (a split's tail guard around one, say: `clamp=true` on that split bounds its loop instead)
