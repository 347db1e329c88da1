// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(lower-loop-bindings)'
// RUN: not sptir-opt %S/Inputs/accumulate_before_loop.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=rows.0 to=blockIdx.x},sparse-pos-bind{loop=rows.1 to=blockIdx.y},sparse-pos-bind{loop=nz.0 to=threadIdx.x atomic=true},sptir-stage2-to-launches)' 2>&1 | FileCheck %S/Inputs/accumulate_before_loop.mlir
// RUN: not sptir-opt %S/Inputs/mixed_reductions.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-reorder{loops=mix.1,mix.0},sparse-pos-bind{loop=mix.1 to=blockIdx.x},sparse-pos-split{loop=mix.0 factor=4},sparse-pos-reorder{loops=mix.0.i,mix.0.o},sparse-pos-bind{loop=mix.0.i to=threadIdx.x atomic=true},sptir-stage2-to-launches)' 2>&1 | FileCheck %S/Inputs/mixed_reductions.mlir

func.func @store_outside_thread_loop(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: this store is outside every loop bound to threadIdx.x, which the launch uses, so each thread of the block along threadIdx.x would repeat it; bind its loop to threadIdx.x too}}
    memref.store %v, %out[%i] : memref<?xf32>
    scf.for %k = %c0 to %n step %c1 {
      memref.store %v, %out[%k] : memref<?xf32>
    } {bind = "threadIdx.x"}
  } {bind = "blockIdx.x"}
  return
}

// -----

func.func @bounds_depend_on_block(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: loop "tri" is bound to threadIdx.x, but its bounds are computed inside the outermost bound loop (from a position of an enclosing loop or from memory read there: a row's length, a triangular bound, the end of a chunk that a split with clamp=true made), and a launch needs its sizes before it starts}}
    scf.for %k = %c0 to %i step %c1 {
      memref.store %v, %out[%k] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "tri"}
  } {bind = "blockIdx.x"}
  return
}

// -----

func.func @nested_same_dimension(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: nested loops are both bound to blockIdx.x}}
    scf.for %k = %c0 to %n step %c1 {
      memref.store %v, %out[%k] : memref<?xf32>
    } {bind = "blockIdx.x"}
  } {bind = "blockIdx.x"}
  return
}

// -----

func.func @atomic_store_is_not_an_accumulation(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: a store in an atomic loop must combine the value it overwrites with a term by a sum, maximum or minimum}}
    memref.store %v, %out[%c0] : memref<?xf32>
  } {bind = "blockIdx.x", atomic}
  return
}

// -----

// Two sums, one adding the other's old value: blocks adding to W at once
// would each read a different one.
func.func @atomic_old_value_read_elsewhere(%z: memref<?xf32>, %w: memref<?xf32>, %e: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %z_old = memref.load %z[%c0] : memref<?xf32>
    %w_old = memref.load %w[%c0] : memref<?xf32>
    %term = memref.load %e[%i] : memref<?xf32>
    %z_new = arith.addf %z_old, %w_old : f32
    memref.store %z_new, %z[%c0] : memref<?xf32>
    %w_new = arith.addf %w_old, %term : f32
    // expected-error@+1 {{lower-loop-bindings: a store in an atomic loop updates the value it overwrites, but that old value is also read for something else here}}
    memref.store %w_new, %w[%c0] : memref<?xf32>
  } {bind = "blockIdx.x", atomic}
  return
}

// -----
// A shared tile is block memory: it cannot also be read outside the launch.
func.func @tile_outside(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %tile = memref.alloca() {sptir.shared} : memref<4xf32>
  %f = arith.constant 1.0 : f32
  scf.for %t = %c0 to %c4 step %c1 {
    memref.store %f, %tile[%t] : memref<4xf32>
  } {bind = "threadIdx.x"}
  // expected-error@+1 {{lower-loop-bindings: a shared tile is used here, outside the loops bound to the GPU that use it}}
  %v = memref.load %tile[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<?xf32>
  return
}

// -----
// A warp shuffle needs a constant cluster of lanes within one warp.
func.func @shuffle_too_wide(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{lower-loop-bindings: a loop whose threads add their sums in a warp shuffle must be bound to threadIdx.x and run 1, 2, 4, 8, 16 or 32 times (a constant), got threadIdx.x and 64 times}}
  scf.for %i = %c0 to %c64 step %c1 {
    %old = memref.load %out[%c0] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %out[%c0] : memref<?xf32>
  } {bind = "threadIdx.x", shuffle}
  return
}

// -----
func.func @shuffle_unknown_trips(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{got threadIdx.x and a trip count not known at compile time}}
  scf.for %i = %c0 to %n step %c1 {
    %old = memref.load %out[%c0] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %out[%c0] : memref<?xf32>
  } {bind = "threadIdx.x", shuffle}
  return
}

// -----
func.func @shuffle_store_is_not_an_accumulation(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error@+1 {{lower-loop-bindings: a store in a shuffle loop must combine the value it overwrites with a term by a sum, maximum or minimum}}
    memref.store %v, %out[%c0] : memref<?xf32>
  } {bind = "threadIdx.x", shuffle}
  return
}

// -----

func.func @heap_buffer_in_kernel(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: a buffer in global memory is allocated inside loops bound to the GPU, where each thread would allocate its own}}
    %t = memref.alloc(%n) : memref<?xf32>
    scf.for %k = %c0 to %n step %c1 {
      memref.store %v, %t[%k] : memref<?xf32>
    } {bind = "threadIdx.x"}
    memref.dealloc %t : memref<?xf32>
  } {bind = "blockIdx.x"}
  return
}

// -----

// One loop binds its features to threadIdx.y, the accumulation to
// threadIdx.x: every threadIdx.y thread would add again.
func.func @update_repeated_along_another_dimension(%c: memref<?xf32>, %a: memref<?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      %unused = memref.load %a[%k] : memref<?xf32>
    } {bind = "threadIdx.y"}
    scf.for %k = %c0 to %n step %c1 {
      %old = memref.load %c[%k] : memref<?xf32>
      %x = memref.load %a[%k] : memref<?xf32>
      %new = arith.addf %old, %x : f32
      // expected-error@+1 {{this store is outside every loop bound to threadIdx.y, which the launch uses}}
      memref.store %new, %c[%k] : memref<?xf32>
    } {bind = "threadIdx.x"}
  } {bind = "blockIdx.x"}
  return
}

// -----

// A store that every block along blockIdx.y would repeat: blocks do not
// meet, so no value makes that safe.
func.func @store_repeated_by_blocks(%c: memref<?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    // expected-error@+1 {{this store is outside every loop bound to blockIdx.y, which the launch uses, so each block along blockIdx.y would repeat it}}
    memref.store %zero, %c[%i] : memref<?xf32>
    scf.for %j = %c0 to %n step %c1 {
      memref.store %zero, %c[%j] : memref<?xf32>
    } {bind = "blockIdx.y"}
  } {bind = "blockIdx.x"}
  return
}

// -----

// Rows on threadIdx.y, features on threadIdx.x, the zeroing left on no
// thread dimension: every threadIdx.x thread zeroes the whole row while
// others already add to it.
func.func @zeroing_repeated_under_accumulation(%c: memref<?xf32>, %a: memref<?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      // expected-error@+1 {{this store is outside every loop bound to threadIdx.x, which the launch uses}}
      memref.store %zero, %c[%k] : memref<?xf32>
    }
    scf.for %k = %c0 to %n step %c1 {
      %old = memref.load %c[%k] : memref<?xf32>
      %x = memref.load %a[%k] : memref<?xf32>
      %new = arith.addf %old, %x : f32
      memref.store %new, %c[%k] : memref<?xf32>
    } {bind = "threadIdx.x"}
  } {bind = "threadIdx.y"}
  return
}

// -----

// Launch sizes known at compile time are checked against CUDA's limits:
// 1024 threads a block, 64 along z, 65535 blocks along y and z.
func.func @block_too_wide(%out: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{lower-loop-bindings: loop "rows.1" is bound to threadIdx.x and has 2048 positions, but CUDA allows at most 1024 along it: split it (sparse-pos-split{loop=rows.1 factor=1024}) and bind its inner loop}}
    scf.for %k = %c0 to %c2048 step %c1 {
      memref.store %v, %out[%k] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "rows.1"}
  } {bind = "blockIdx.x"}
  return
}

// -----

func.func @too_many_threads(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{lower-loop-bindings: the loops bound to threads make blocks of 4096 threads, but CUDA allows at most 1024}}
  scf.for %j = %c0 to %c64 step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      memref.store %v, %out[%k] : memref<?xf32>
    } {bind = "threadIdx.x"}
  } {bind = "threadIdx.y"}
  return
}

// -----

func.func @grid_too_tall(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c70000 = arith.constant 70000 : index
  // expected-error@+1 {{lower-loop-bindings: the loop is bound to blockIdx.y and has 70000 positions, but CUDA allows at most 65535 along it: split it}}
  scf.for %j = %c0 to %c70000 step %c1 {
    memref.store %v, %out[%j] : memref<?xf32>
  } {bind = "blockIdx.y"}
  return
}

// -----

// Rows of 48 threads meet at a row barrier: a row spans part of a warp
// and part of the next.
func.func @row_barrier_over_part_warps(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c48 = arith.constant 48 : index
  %f = arith.constant 1.0 : f32
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %x = %c0 to %c48 step %c1 {
      %at = arith.muli %y, %c48 : index
      %i = arith.addi %at, %x : index
      memref.store %f, %out[%i] : memref<?xf32>
    } {bind = "threadIdx.x"}
    // expected-error@+1 {{a row must lie inside one warp or take one of 15 named barriers: the loop bound to threadIdx.x needs a constant trip count that divides 32, or a multiple of 32 with at most 15 rows (threadIdx.y and z) of a constant count, got 48 threads}}
    gpu.barrier {sptir.row}
  } {bind = "threadIdx.y"}
  return
}

// -----

// Rows of two warps, 4 x 4 of them: more rows than named barriers.
func.func @row_barriers_beyond_named_barriers(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  scf.for %z = %c0 to %c4 step %c1 {
    scf.for %y = %c0 to %c4 step %c1 {
      scf.for %x = %c0 to %c64 step %c1 {
        %at = arith.muli %y, %c64 : index
        %i = arith.addi %at, %x : index
        memref.store %f, %out[%i] : memref<?xf32>
      } {bind = "threadIdx.x"}
      // expected-error@+1 {{got 64 threads in each of 16 rows}}
      gpu.barrier {sptir.row}
    } {bind = "threadIdx.y"}
  } {bind = "threadIdx.z"}
  return
}

// -----

// Rows of two warps, as many as the run says.
func.func @row_barriers_of_unknown_count(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  scf.for %y = %c0 to %n step %c1 {
    scf.for %x = %c0 to %c64 step %c1 {
      %at = arith.muli %y, %c64 : index
      %i = arith.addi %at, %x : index
      memref.store %f, %out[%i] : memref<?xf32>
    } {bind = "threadIdx.x"}
    // expected-error@+1 {{got 64 threads in a number of rows known only at run time}}
    gpu.barrier {sptir.row}
  } {bind = "threadIdx.y"}
  return
}

// -----

// The same with rows whose size only the run knows.
func.func @row_barrier_of_unknown_rows(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.for %y = %c0 to %c4 step %c1 {
    scf.for %x = %c0 to %n step %c1 {
      %at = arith.muli %y, %n : index
      %i = arith.addi %at, %x : index
      memref.store %f, %out[%i] : memref<?xf32>
    } {bind = "threadIdx.x"}
    // expected-error@+1 {{got a size known only at run time}}
    gpu.barrier {sptir.row}
  } {bind = "threadIdx.y"}
  return
}

// -----

// Two tiles of 8 x 1024 floats: 64 KiB, more than a block's static
// shared memory.
func.func @tiles_beyond_shared_memory(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloca() {sptir.shared} : memref<8x1024xf32>
  // expected-error@+1 {{the launch's shared tiles take 65536 bytes with this one, but a block has at most 49152 bytes of static shared memory}}
  %b = memref.alloca() {sptir.shared} : memref<8x1024xf32>
  scf.for %y = %c0 to %c8 step %c1 {
    memref.store %f, %a[%y, %c0] : memref<8x1024xf32>
    memref.store %f, %b[%y, %c0] : memref<8x1024xf32>
    %v = memref.load %a[%y, %c1] : memref<8x1024xf32>
    memref.store %v, %out[%y] : memref<?xf32>
  } {bind = "threadIdx.y"}
  return
}

// -----

// A plain store whose element depends on the lane but is not the lane's
// own (lanes 2k and 2k + 1 both write element k) is no accumulation.
func.func @shuffle_store_shared_by_two_lanes(%out: memref<?xf32>, %x: memref<?xf32>, %sum: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %v = memref.load %x[%k] : memref<?xf32>
    %half = arith.divui %k, %c2 : index
    // expected-error@+1 {{lower-loop-bindings: a store in a shuffle loop must combine the value it overwrites with a term by a sum, maximum or minimum}}
    memref.store %v, %out[%half] : memref<?xf32>
    %old = memref.load %sum[%c0] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %sum[%c0] : memref<?xf32>
  } {bind = "threadIdx.x", shuffle}
  return
}
