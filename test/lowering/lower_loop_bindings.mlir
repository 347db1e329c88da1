// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s --check-prefix=ATOMIC
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=32},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=32},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=32 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-bind{loop=csrmm.1.i.cache to=threadIdx.x},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},lower-sparse-buffer,canonicalize,cse,synchronize-thread-loops,lower-loop-bindings)' | FileCheck %s --check-prefix=SHARED
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=8},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=8},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=16 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-split{loop=csrmm.1.i.cache factor=8},sparse-pos-bind{loop=csrmm.1.i.cache.i to=threadIdx.x},sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},lower-sparse-buffer,canonicalize,cse,privatize-row-tiles,synchronize-thread-loops,lower-loop-bindings)' | FileCheck %s --check-prefix=ROWTILE
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=64},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=64},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=64 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-split{loop=csrmm.1.i.cache factor=64},sparse-pos-bind{loop=csrmm.1.i.cache.i to=threadIdx.x},sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},lower-sparse-buffer,canonicalize,cse,privatize-row-tiles,synchronize-thread-loops,lower-loop-bindings)' | FileCheck %s --check-prefix=ROWWARPS
// RUN: sptir-opt %examples/sddmm_fused.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=sddmm.0 factor=4},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},sparse-pos-bind{loop=sddmm.0.i to=threadIdx.y},sparse-pos-split{loop=sddmm.1 factor=8},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true},lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s --check-prefix=SHUFFLE
// RUN: sptir-opt %s -p 'builtin.module(lower-loop-bindings)' | FileCheck %s --check-prefix=REPEAT
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.0 to=blockIdx.y},sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s --check-prefix=GRIDY
// RUN: sptir-opt %examples/ell_spmm.mlir -p 'builtin.module(specialize-arguments{function=ell_spmm args=6,7 values=5,64},lower-sparse-iter,sparse-pos-split{loop=ellmm.2 factor=64},sparse-pos-bind{loop=ellmm.2.i to=threadIdx.x},sparse-pos-split{loop=ellmm.init.1 factor=64},sparse-pos-bind{loop=ellmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=ellmm.2.o,ellmm.1},sparse-pos-split{loop=ellmm.1 factor=64 clamp=true},sparse-pos-cache-read{loop=ellmm.1.i},sparse-pos-split{loop=ellmm.1.i.cache factor=64},sparse-pos-bind{loop=ellmm.1.i.cache.i to=threadIdx.x},sparse-pos-bind{loop=ellmm.0 to=blockIdx.y},sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=GRIDYTILE
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=4},sparse-pos-vectorize{loop=cscmm.2.i},sparse-pos-bind{loop=cscmm.2.o to=threadIdx.x},sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s --check-prefix=CHUNKS

// Rows are blocks and features threads; the grid size is the row loop's
// trip count, the block's the feature loop's up to 1024: a size only the
// run knows may be more, so each thread steps through the features by
// the block's size (the init nest's loop too) where a known size would
// make one position a thread.
// CHECK-LABEL: func.func @csr_spmm
//       CHECK: %[[ROWSPAN:.*]] = arith.subi %arg5, %c0
//       CHECK: %[[ROWS:.*]] = arith.maxsi %[[ROWSPAN]], %c0
//       CHECK: %[[FEATSPAN:.*]] = arith.subi %arg8, %c0
//       CHECK: %[[FEAT:.*]] = arith.maxsi %[[FEATSPAN]], %c0
//       CHECK: %[[CAP:.*]] = arith.constant 1024 : index
//       CHECK: %[[THREADS:.*]] = arith.minui %[[FEAT]], %[[CAP]] : index
//       CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %[[THREADS]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
//       CHECK: %[[ROW:.*]] = arith.addi %c0, %[[BX]]
//       CHECK: %[[T:.*]] = arith.muli %[[TX]], %c1
//       CHECK: %[[START:.*]] = arith.addi %c0{{.*}}, %[[T]]
//       CHECK: %[[STRIDE:.*]] = arith.muli %[[BDX]], %c1
//       CHECK: scf.for %{{.*}} = %[[START]] to %arg8 step %[[STRIDE]] {
//   CHECK-NOT: sptir.label = "csrmm.0"
//       CHECK: scf.for {{.*}} {
//       CHECK: } {sptir.kind = "reduction", sptir.label = "csrmm.1"}
//       CHECK: gpu.terminator

// Rows on blockIdx.y, whose count only the run knows: CUDA launches at
// most 65535 blocks along y, so the grid takes at most that many and each
// block steps through the rows by the grid's size.
// GRIDY-LABEL: func.func @csr_spmm
//       GRIDY: %[[ROWS:.*]] = arith.maxsi %{{.*}}, %c0
//       GRIDY: %[[CAP:.*]] = arith.constant 65535 : index
//       GRIDY: %[[GRIDY:.*]] = arith.minui %[[ROWS]], %[[CAP]] : index
//       GRIDY: gpu.launch blocks(%{{.*}}, %[[BY:.*]], %{{.*}}) in (%{{.*}} = %c1{{.*}}, %[[GDY:.*]] = %[[GRIDY]], %{{.*}} = %c1{{.*}})
//       GRIDY: %[[OFFSET:.*]] = arith.muli %[[BY]], %c1
//       GRIDY: %[[FIRST:.*]] = arith.addi %c0{{.*}}, %[[OFFSET]]
//       GRIDY: %[[STEP:.*]] = arith.muli %[[GDY]], %c1
//       GRIDY: scf.for %{{.*}} = %[[FIRST]] to %arg5 step %[[STEP]] {

// The same with a shared-memory tile of each row's non-zeros (rows of 5,
// one tile of 64 a row): a block that takes several rows fills the tile
// again for the next, so its threads meet at a barrier at the end of each
// row, after their reads (synchronize-thread-loops takes the strided grid
// loop for the sequential loop it is to the threads).
// GRIDYTILE-LABEL: func.func @ell_spmm
//       GRIDYTILE: gpu.launch {{.*}} workgroup(
//       GRIDYTILE: scf.for %{{.*}} = %{{.*}} to %arg4 step %{{.*}} {
//       GRIDYTILE: gpu.barrier
//       GRIDYTILE: scf.for
//       GRIDYTILE: gpu.barrier
//  GRIDYTILE-NEXT: } {sptir.kind = "spatial", sptir.label = "ellmm.0"}

// Feature chunks of 4 on threads: the chunk count, computed inside the
// column loop where the split was, moves before the launch that needs it
// for its block size.
// CHUNKS-LABEL: func.func @csc_spmm
//       CHUNKS: gpu.launch
//       CHUNKS: %[[CHUNKS:.*]] = arith.ceildivui %{{.*}}, %c4 : index
//       CHUNKS: %[[SPAN:.*]] = arith.subi %[[CHUNKS]], %c0
//       CHUNKS: %[[COUNT:.*]] = arith.maxsi %[[SPAN]],
//       CHUNKS: %[[THREADS:.*]] = arith.minui %[[COUNT]],
//       CHUNKS: gpu.launch blocks{{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREADS]],

// A reduction over blocks: its stores are marked for atomic additions
// (lower-atomic-accumulations makes them atomic).
// ATOMIC-LABEL: func.func @csc_spmm
//       ATOMIC: gpu.launch
//       ATOMIC: gpu.launch
//       ATOMIC: memref.store %{{.*}} {sptir.atomic}
//   ATOMIC-NOT: memref.store
//       ATOMIC: gpu.terminator

// Tiles that sparse-pos-cache-read made become the launch's workgroup
// memory; the function keeps no alloca.
//   SHARED-LABEL: func.func @csr_spmm
//     SHARED-NOT: memref.alloca
//         SHARED: gpu.launch {{.*}} workgroup(%[[COLS:.*]] : memref<32xi32, #gpu.address_space<workgroup>>, %[[VALS:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
//         SHARED: memref.store %{{.*}}, %[[COLS]][%{{.*}}]
//         SHARED: memref.store %{{.*}}, %[[VALS]][%{{.*}}]
//         SHARED: gpu.barrier
//         SHARED: memref.load %[[COLS]]
//         SHARED: memref.load %[[VALS]]
//         SHARED: gpu.barrier
//         SHARED: gpu.terminator

// Non-zeros on threadIdx.y, each one's features on 8 lanes of threadIdx.x
// whose sums meet in a warp shuffle: the accumulation is marked with the
// cluster size.
// SHUFFLE-LABEL: func.func @sddmm_fused
//       SHUFFLE: gpu.launch
//       SHUFFLE: memref.store {{.*}} {sptir.shuffle = 8 : i64}

// A store outside the thread loops that writes a value not read from its
// memory (a non-zero's zeroing before its lanes meet) may run once per
// thread: each writes the same.
// REPEAT-LABEL: func.func @repeated_zeroing
//       REPEAT: gpu.launch
//       REPEAT:   memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf32>
//       REPEAT:   memref.store %{{.*}}, %arg0[%{{.*}}] {sptir.shuffle = 8 : i64}
func.func @repeated_zeroing(%out: memref<?xf32>, %x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %out[%i] : memref<?xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %old = memref.load %out[%i] : memref<?xf32>
      %v = memref.load %x[%k] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%i] : memref<?xf32>
    } {bind = "threadIdx.x", shuffle}
  } {bind = "blockIdx.x"}
  return
}

// The same with a value loaded from other memory at an index a search
// loop finds (a fused SDDMM's output starting from A's value): the loop
// reads only indptr, so the value does not come from the output.
// REPEAT-LABEL: func.func @repeated_copy_after_a_search
//       REPEAT: gpu.launch
//       REPEAT:   scf.while
//       REPEAT:   memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf32>
//       REPEAT:   memref.store %{{.*}}, %arg0[%{{.*}}] {sptir.shuffle = 8 : i64}
func.func @repeated_copy_after_a_search(%out: memref<?xf32>, %a: memref<?xf32>, %indptr: memref<?xi32>, %x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    %found = scf.while (%at = %c0) : (index) -> index {
      %bound = memref.load %indptr[%at] : memref<?xi32>
      %b = arith.index_cast %bound : i32 to index
      %more = arith.cmpi ult, %b, %i : index
      scf.condition(%more) %at : index
    } do {
    ^bb0(%at: index):
      %next = arith.addi %at, %c1 : index
      scf.yield %next : index
    }
    %start = memref.load %a[%found] : memref<?xf32>
    memref.store %start, %out[%i] : memref<?xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %old = memref.load %out[%i] : memref<?xf32>
      %v = memref.load %x[%k] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %out[%i] : memref<?xf32>
    } {bind = "threadIdx.x", shuffle}
  } {bind = "blockIdx.x"}
  return
}

// In a shuffle loop, a plain store of the lane's own element (it follows
// the loop's position; a softmax's exponentials beside their sum) stays
// plain; only the accumulation meets in the shuffle.
// REPEAT-LABEL: func.func @shuffle_with_own_elements
//       REPEAT: gpu.launch
//       REPEAT:   memref.store %{{.*}}, %arg1[%{{.*}}] : memref<?xf32>
//       REPEAT:   memref.store %{{.*}}, %arg0[%{{.*}}] {sptir.shuffle = 8 : i64}
func.func @shuffle_with_own_elements(%sum: memref<?xf32>, %each: memref<?xf32>, %x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c8 step %c1 {
      %v = memref.load %x[%k] : memref<?xf32>
      %e = math.exp %v : f32
      %row = arith.muli %i, %c8 : index
      %at = arith.addi %row, %k : index
      memref.store %e, %each[%at] : memref<?xf32>
      %old = memref.load %sum[%i] : memref<?xf32>
      %new = arith.addf %old, %e : f32
      memref.store %new, %sum[%i] : memref<?xf32>
    } {bind = "threadIdx.x", shuffle}
  } {bind = "blockIdx.x"}
  return
}

// A fused row and non-zero loop over blocks, atomic: each position
// writes its own element at the flat index start + (p - start), `start`
// its row's (found from p), so that store stays plain; the row sums are
// marked for atomic additions.
// REPEAT-LABEL: func.func @fused_flat_index
//       REPEAT:   memref.store %{{.*}}, %arg2[%{{.*}}] : memref<?xf32>
//       REPEAT:   memref.store %{{.*}}, %arg3[%{{.*}}] {sptir.atomic} : memref<?xf32>
func.func @fused_flat_index(%indptr: memref<?xi32>, %a: memref<?xf32>, %e: memref<?xf32>, %z: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %p = %c0 to %n step %c1 {
    %row = arith.divui %p, %c4 : index
    %start32 = memref.load %indptr[%row] : memref<?xi32>
    %start = arith.index_cast %start32 : i32 to index
    %offset = arith.subi %p, %start : index
    %flat = arith.addi %start, %offset : index
    %v = memref.load %a[%flat] : memref<?xf32>
    memref.store %v, %e[%flat] : memref<?xf32>
    %old = memref.load %z[%row] : memref<?xf32>
    %new = arith.addf %old, %v : f32
    memref.store %new, %z[%row] : memref<?xf32>
  } {bind = "blockIdx.x", atomic}
  return
}

// Four rows a block on threadIdx.y, each caching 16 non-zeros in its own
// tiles (privatize-row-tiles), its 8 threads meeting at row barriers of 8.
//   ROWTILE-LABEL: func.func @csr_spmm
//         ROWTILE: gpu.launch {{.*}} workgroup(%[[COLS:.*]] : memref<4x16xi32, #gpu.address_space<workgroup>>, %[[VALS:.*]] : memref<4x16xf32, #gpu.address_space<workgroup>>)
//         ROWTILE: memref.store %{{.*}}, %[[COLS]][%[[ROW:[^,]*]], %{{.*}}]
//         ROWTILE: memref.store %{{.*}}, %[[VALS]][%[[ROW]], %{{.*}}]
//         ROWTILE: gpu.barrier {sptir.row = 8 : i64}
//         ROWTILE: memref.load %[[COLS]][%[[ROW]],
//         ROWTILE: memref.load %[[VALS]][%[[ROW]],
//         ROWTILE: gpu.barrier {sptir.row = 8 : i64}
//     ROWTILE-NOT: gpu.barrier
//         ROWTILE: gpu.terminator

// The same with rows of two warps (64 threads): their barriers too are
// for the row alone (lower-row-barriers gives each a named barrier).
//   ROWWARPS-LABEL: func.func @csr_spmm
//         ROWWARPS: gpu.launch {{.*}} workgroup(%{{.*}} : memref<4x64xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4x64xf32, #gpu.address_space<workgroup>>)
//         ROWWARPS: gpu.barrier {sptir.row = 64 : i64}
//         ROWWARPS: gpu.barrier {sptir.row = 64 : i64}
//     ROWWARPS-NOT: gpu.barrier
//         ROWWARPS: gpu.terminator


// A store outside the loops bound to threads into a buffer each thread
// has its own copy of (scope "local") is every thread's to make: it is
// not refused as one each thread would repeat.
// REPEAT-LABEL: func.func @own_copy
//       REPEAT: gpu.launch
//       REPEAT:   memref.alloca
//       REPEAT:   scf.for
//       REPEAT:     memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
func.func @own_copy(%in: memref<?xf32>, %out: memref<?xf32>) {
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
      %v = memref.load %local[%t] : memref<?xf32>
      memref.store %v, %out[%t] : memref<?xf32>
    } {bind = "threadIdx.x", sptir.label = "read"}
  } {bind = "blockIdx.x", sptir.label = "blocks"}
  return
}
