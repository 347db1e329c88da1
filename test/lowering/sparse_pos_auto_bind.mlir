// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s
// RUN: sptir-opt %s --split-input-file --sptir-to-gpu -o /dev/null
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=4},sparse-pos-vectorize{loop=cscmm.2.i},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=VECTOR
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.2 to=threadIdx.x},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=PARTIAL
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=PARTIALSPLIT
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-auto-bind,sptir-stage2-to-gpu)' -o /dev/null
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.i to=blockIdx.x},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=INNERGRID
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.1 factor=4},sparse-pos-cache-read{loop=cscmm.1.i},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=TILE
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.1 factor=4},sparse-pos-cache-read{loop=cscmm.1.i},sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=TILESTORE
// RUN: sptir-opt %S/Inputs/shared_scratch_rows.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %S/Inputs/shared_scratch_rows.mlir
// RUN: sptir-opt %S/Inputs/triangular_solve.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=SOLVE
// RUN: sptir-opt %S/Inputs/triangular_solve.mlir -p 'builtin.module(sparse-fuse{iteration=solve loops=0,1},lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=SOLVE
// RUN: sptir-opt %S/Inputs/aliased_solve.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=ALIASED
// RUN: sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=STEPS
// RUN: sptir-opt %S/Inputs/mixed_reductions.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=MIXED
// RUN: sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=STEPLAUNCH
// RUN: sptir-opt %examples/csf_ttm.mlir -p 'builtin.module(sparse-fuse{iteration=ttm loops=0,1},lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=FUSEDTTM
// RUN: sptir-opt %examples/csf_ttm.mlir -p 'builtin.module(sparse-fuse{iteration=ttm loops=0,1},sptir-to-gpu)' -o /dev/null
// RUN: sptir-opt %S/Inputs/hand_bound_grid.mlir -p 'builtin.module(sparse-pos-bind{loop=r_i to=blockIdx.x},sparse-pos-auto-bind)' | FileCheck %S/Inputs/hand_bound_grid.mlir
// RUN: sptir-opt %S/Inputs/auto_bind_marked.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=rmax.0 factor=4},sparse-pos-auto-bind)' 2>&1 | FileCheck %s --check-prefix=MARKED --implicit-check-not=error

// A hand schedule bound a split's inner rows to blockIdx.x: the outer
// ones take the next block dimension.
// INNERGRID: sparse_pos.for "csrmm.0.o" spatial {{.*}} {bind = "blockIdx.y"}
// INNERGRID: sparse_pos.for "csrmm.0.i" spatial {{.*}} {bind = "blockIdx.x"}
// INNERGRID: sparse_pos.for "csrmm.init.1" spatial {{.*}} {bind = "threadIdx.x"}

// Each CSC column fills a tile (sparse-pos-cache-read): the tile is its
// block's, so the columns are not split over threads, and the copy's
// stores stay plain while the sums into C are atomic.
//      TILE: sparse_pos.for "cscmm.0" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//  TILE-NOT: bind
// TILESTORE: workgroup(%[[SMEM:[^ ]*]] : memref<4xi32, #gpu.address_space<workgroup>>
// TILESTORE: memref.store %{{.*}}, %[[SMEM]][
// TILESTORE: memref.atomic_rmw addf

// The rows of a triangular solve read earlier rows' results: they run in
// turn, in one thread, though their updates are sums (fused or not).
//      SOLVE: sparse_pos.for "serial" spatial %{{.*}} attributes {bind = "blockIdx.x"}
//      SOLVE:   sparse_pos.for "solve.0" reduction
//  SOLVE-NOT: bind

// The same with x matched twice, over columns and over rows: one array.
//      ALIASED: sparse_pos.for "serial" spatial %{{.*}} attributes {bind = "blockIdx.x"}
//      ALIASED:   sparse_pos.for "aliased.0" reduction
//  ALIASED-NOT: bind

// Each step of a propagation reads the row the step before wrote (X[t]
// for X[t + 1]), so the steps stay on the host, a launch each; the rows
// of one step write a row that no row of that step reads, so they share
// out over blocks and threads.
//      STEPS: sparse_pos.for "prop.0" spatial
//  STEPS-NOT: bind
//      STEPS: sparse_pos.for "prop.1.o" spatial {{.*}} {bind = "blockIdx.x"}
//      STEPS: sparse_pos.for "prop.1.i" spatial {{.*}} {bind = "threadIdx.x"}
// STEPLAUNCH: scf.for
// STEPLAUNCH:   gpu.launch blocks

// CSF TTM with a slice's fibres fused into one loop over all fibres: fibre
// f writes Y[row(f), f - indptr[row(f)], :], which the row and f tell
// apart together, so the fused loop goes to blocks.
// FUSEDTTM: sparse_pos.for "ttm.0" spatial {{.*}} {bind = "blockIdx.x"}
// FUSEDTTM:   sparse_pos.for "ttm.init.1" spatial {{.*}} {bind = "threadIdx.x"}
// FUSEDTTM:   sparse_pos.for "ttm.1" reduction
// FUSEDTTM:     sparse_pos.for "ttm.2" spatial {{.*}} {bind = "threadIdx.x"}

// A hand schedule that binds only the feature loop to threadIdx.x: the
// init nest's feature loop, of the same bounds, takes the same threads.
// PARTIAL-LABEL: func.func @csr_spmm
//       PARTIAL: sparse_pos.for "csrmm.0" spatial {{.*}} {bind = "blockIdx.x"}
//       PARTIAL: sparse_pos.for "csrmm.init.1" spatial {{.*}} {bind = "threadIdx.x"}
//       PARTIAL: sparse_pos.for "csrmm.1" reduction
//       PARTIAL: sparse_pos.for "csrmm.2" spatial {{.*}} {bind = "threadIdx.x"}

// The hand schedule split the feature loop and bound its inner loop: the
// init nest's feature loop, of other bounds, is split the same way and its
// inner loop takes the threads (each thread storing its own features);
// run whole by every thread, its stores would race with their additions.
// PARTIALSPLIT-LABEL: func.func @csr_spmm
//       PARTIALSPLIT: sparse_pos.for "csrmm.0" spatial {{.*}} {bind = "blockIdx.x"}
//       PARTIALSPLIT: sparse_pos.for "csrmm.init.1.o" spatial
//  PARTIALSPLIT-NEXT: ^bb0
//  PARTIALSPLIT-NEXT: sparse_pos.for "csrmm.init.1.i" spatial %{{.*}} to %c16{{.*}} {bind = "threadIdx.x"}
//       PARTIALSPLIT: sparse_pos.for "csrmm.1" reduction
//       PARTIALSPLIT: sparse_pos.for "csrmm.2.o" spatial
//       PARTIALSPLIT: sparse_pos.for "csrmm.2.i" spatial {{.*}} {bind = "threadIdx.x"}

// A row loop marked to unroll is one thread's work: it is not bound (a
// split into blocks of threads would be refused for the mark, and said
// so), and its minima run as one thread.
// MARKED:      sparse_pos.for "serial" {{.*}} {bind = "blockIdx.x"}
// MARKED-NEXT: ^bb0
// MARKED-NEXT: sparse_pos.for "rmax.0" spatial {{.*}} attributes {unroll = 4 : i64} {

// A loop marked to vectorize is one thread's lanes, never threads: the
// loop around it (the feature chunks, whose count is computed inside the
// column loop) takes threadIdx.x.
//  VECTOR-LABEL: func.func @csc_spmm
//        VECTOR: sparse_pos.for "cscmm.0" reduction {{.*}} attributes {atomic, bind = "blockIdx.x"}
//        VECTOR: sparse_pos.for "cscmm.2.o" spatial {{.*}} attributes {bind = "threadIdx.x"}
//        VECTOR: sparse_pos.for "cscmm.2.i" spatial {{.*}} attributes {vectorize = 4 : index}

// The default schedule binds the outermost loop to blocks, atomically when
// it is a reduction whose updates are sums (integers too), and the
// innermost spatial loop to threads. A loop with nothing inside for the
// threads (the zeroing) goes to blocks of 128 threads.
// CHECK-LABEL: func.func @int_column_sums
//       CHECK:   sparse_pos.for "colsum.init.1.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "colsum.init.1.i" spatial %{{.*}} to %c128 attributes {bind = "threadIdx.x"}
//       CHECK:   sparse_pos.for "colsum.0" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "colsum.1" spatial {{.*}} {bind = "threadIdx.x"}
func.func @int_column_sums(%x: memref<?xi32>, %y: memref<?xi32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "colsum" [%J, %I] "RS" init {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, i32>
  } body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, i32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, i32>
    %s = arith.addi %v, %acc : i32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}

// -----

// Sums of a type the GPU has no atomic add for (index, f8, i8, vectors) stay
// sequential like any other update blocks cannot share: the reduction loop
// on the host, the spatial one inside it on blocks.
// CHECK-LABEL: func.func @index_column_sums
//       CHECK:   sparse_pos.for "idxsum.0" reduction
//   CHECK-NOT:     atomic
//       CHECK:     sparse_pos.for "idxsum.1.o" spatial {{.*}} {bind = "blockIdx.x"}
// CHECK-LABEL: func.func @f8_column_sums
//       CHECK:   sparse_pos.for "f8sum.0" reduction
//   CHECK-NOT:     atomic
//       CHECK:     sparse_pos.for "f8sum.1.o" spatial {{.*}} {bind = "blockIdx.x"}
// CHECK-LABEL: func.func @vector_column_sums
//       CHECK:   sparse_pos.for "vecsum.0" reduction
//   CHECK-NOT:     atomic
//       CHECK:     sparse_pos.for "vecsum.1.o" spatial {{.*}} {bind = "blockIdx.x"}
func.func @index_column_sums(%x: memref<?xindex>, %y: memref<?xindex>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xindex> -> !sparse_iter.buffer<2, index>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xindex> -> !sparse_iter.buffer<1, index>
  sparse_iter.iterate "idxsum" [%J, %I] "RS" body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, index>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, index>
    %s = arith.addi %v, %acc : index
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, index>
  }
  return
}
func.func @f8_column_sums(%x: memref<?xf8E4M3FN>, %y: memref<?xf8E4M3FN>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf8E4M3FN> -> !sparse_iter.buffer<2, f8E4M3FN>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf8E4M3FN> -> !sparse_iter.buffer<1, f8E4M3FN>
  sparse_iter.iterate "f8sum" [%J, %I] "RS" body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f8E4M3FN>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f8E4M3FN>
    %s = arith.addf %acc, %v : f8E4M3FN
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f8E4M3FN>
  }
  return
}
func.func @vector_column_sums(%x: memref<?xvector<4xf32>>, %y: memref<?xvector<4xf32>>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xvector<4xf32>> -> !sparse_iter.buffer<2, vector<4xf32>>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xvector<4xf32>> -> !sparse_iter.buffer<1, vector<4xf32>>
  sparse_iter.iterate "vecsum" [%J, %I] "RS" body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, vector<4xf32>>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, vector<4xf32>>
    %s = arith.addf %acc, %v : vector<4xf32>
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, vector<4xf32>>
  }
  return
}

// -----

// Blocks share a maximum as they share a sum, by atomic updates: the
// reduction loop becomes the blocks and the spatial loop inside it the
// threads, one launch.
// CHECK-LABEL: func.func @column_maxima
//       CHECK:   sparse_pos.for "colmax.0" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "colmax.1" spatial {{.*}} {bind = "threadIdx.x"}
func.func @column_maxima(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "colmax" [%J, %I] "RS" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f32>
    %s = arith.maximumf %v, %acc : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// Two sums over a CSR row, one adding the other's running value (Z += W;
// W += e): each sum is an addition, but Z's terms read W's partial sums,
// so blocks adding at once would read other ones. The reduction stays
// sequential, on one block.
// CHECK-LABEL: func.func @coupled_sums
//       CHECK:   sparse_pos.for "coupled.0" reduction
//   CHECK-NOT:   atomic
func.func @coupled_sums(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %z: memref<?xf32>,
                        %w: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %W = sparse_iter.match_buffer %w [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "coupled" [%I, %J] "RR" body {
  ^bb0(%i: index, %j: index):
    %z_old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %w_old = sparse_iter.load %W[%i] : !sparse_iter.buffer<1, f32>
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %z_new = arith.addf %z_old, %w_old : f32
    sparse_iter.store %z_new, %Z[%i] : !sparse_iter.buffer<1, f32>
    %w_new = arith.addf %w_old, %e : f32
    sparse_iter.store %w_new, %W[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// The same with W read again after its update, for Z: a read of an array
// the loop adds to, other than the addition's own, keeps it sequential.
// CHECK-LABEL: func.func @reread_sum
//       CHECK:   sparse_pos.for "reread.0" reduction
//   CHECK-NOT:   atomic
func.func @reread_sum(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %z: memref<?xf32>,
                      %w: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %W = sparse_iter.match_buffer %w [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "reread" [%I, %J] "RR" body {
  ^bb0(%i: index, %j: index):
    %w_old = sparse_iter.load %W[%i] : !sparse_iter.buffer<1, f32>
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %w_new = arith.addf %w_old, %e : f32
    sparse_iter.store %w_new, %W[%i] : !sparse_iter.buffer<1, f32>
    %w_now = sparse_iter.load %W[%i] : !sparse_iter.buffer<1, f32>
    %z_old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %z_new = arith.addf %z_old, %w_now : f32
    sparse_iter.store %z_new, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A product over a CSR row's non-zeros, rows in the blocks: the
// non-zero loop stays sequential in each block, and the feature loop
// inside it is the threads.
// CHECK-LABEL: func.func @row_products
//       CHECK:   sparse_pos.for "prod.0" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "prod.1" reduction
//   CHECK-NOT:       atomic
//       CHECK:       sparse_pos.for "prod.2" spatial {{.*}} {bind = "threadIdx.x"}
func.func @row_products(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_ = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "prod" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %w = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %t = arith.mulf %v, %w : f32
    %s = arith.mulf %t, %acc : f32
    sparse_iter.store %s, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// SpMV: each row a sequential dot product, nothing inside for the
// threads; the rows go to blocks of 128 threads, not one thread a block.
// CHECK-LABEL: func.func @spmv
//       CHECK:   sparse_pos.for "spmv.0.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "spmv.0.i" spatial %{{.*}} to %c128 attributes {bind = "threadIdx.x"}
//       CHECK:       sparse_pos.for "spmv.1" reduction
//   CHECK-NOT:         bind
func.func @spmv(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                %x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_ = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%J_] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "spmv" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %s = arith.addf %acc, %p : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// SDDMM in ELL of width 4: the slots, each a dot product over the
// features, are the threads; four threads are too few for a block, so 32
// rows share one on threadIdx.y.
// CHECK-LABEL: func.func @ell_sddmm
//       CHECK:   sparse_pos.for "sddmm.0.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "sddmm.0.i" spatial %{{.*}} to %c32 attributes {bind = "threadIdx.y"}
//       CHECK:       sparse_pos.for "sddmm.1" spatial %{{.*}} to %c4 attributes {bind = "threadIdx.x"}
//       CHECK:         sparse_pos.for "sddmm.2" reduction
//   CHECK-NOT:           bind
func.func @ell_sddmm(%indices: memref<?xi32>, %x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>,
                     %m: index, %n: index, %feat: index) {
  %c4 = arith.constant 4 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_fixed %I, %indices length %n nnz_cols %c4 : memref<?xi32>
  %I_ = sparse_iter.dense_fixed %m
  %J_ = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %O = sparse_iter.match_buffer %out [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%I_, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%J_, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "sddmm" [%I, %J, %K] "SSR" init {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %O[%i, %j] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %O[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
    %yv = sparse_iter.load %Y[%j, %k] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %xv, %yv : f32
    %s = arith.addf %acc, %p : f32
    sparse_iter.store %s, %O[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// Code outside every loop that touches buffers (the init region of an
// iteration over reductions only, zeroing a rank-0 output) cannot run on
// the host: it becomes one thread of one block, a bound loop of one
// position. The sum itself goes to blocks of 128 threads, atomically.
// CHECK-LABEL: func.func @dot
//       CHECK:   sparse_pos.for "serial" spatial %{{.*}} to %c1{{(_[0-9]+)?}} attributes {bind = "blockIdx.x"} {
//  CHECK-NEXT:   ^bb0(%{{.*}}: index):
//  CHECK-NEXT:     sparse_pos.store %{{.*}}, %{{.*}}[] : <0, f32>
//  CHECK-NEXT:   }
//       CHECK:   sparse_pos.for "dot.0.o" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "dot.0.i" reduction {{.*}} {atomic, bind = "threadIdx.x"}
func.func @dot(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %O = sparse_iter.match_buffer %out [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  sparse_iter.iterate "dot" [%I] "R" init {
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %O[] : !sparse_iter.buffer<0, f32>
  } body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %O[] : !sparse_iter.buffer<0, f32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %b = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    sparse_iter.store %s, %O[] : !sparse_iter.buffer<0, f32>
  }
  return
}

// -----

// A maximum over every element, shared like @dot's sum: its init runs as
// one thread, then the rows over blocks and threads update it atomically,
// each row's non-zeros in turn.
// CHECK-LABEL: func.func @global_max
//       CHECK:   sparse_pos.for "serial" spatial %{{.*}} to %c1{{(_[0-9]+)?}} attributes {bind = "blockIdx.x"} {
//  CHECK-NEXT:   ^bb0(%{{.*}}: index):
//  CHECK-NEXT:     sparse_pos.store %{{.*}}, %{{.*}}[] : <0, f32>
//  CHECK-NEXT:   }
//       CHECK:   sparse_pos.for "gmax.0.o" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "gmax.0.i" reduction {{.*}} {atomic, bind = "threadIdx.x"}
//       CHECK:       sparse_pos.for "gmax.1" reduction
//   CHECK-NOT:         bind
func.func @global_max(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                      %out: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %O = sparse_iter.match_buffer %out [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  sparse_iter.iterate "gmax" [%I, %J] "RR" init {
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %O[] : !sparse_iter.buffer<0, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %O[] : !sparse_iter.buffer<0, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.maximumf %v, %acc : f32
    sparse_iter.store %s, %O[] : !sparse_iter.buffer<0, f32>
  }
  return
}

// -----

// Host code around launches (an scf.for repeating two iterations) has its
// buffer accesses outside every loop run as one thread too.
// CHECK-LABEL: func.func @repeated
//       CHECK:   scf.for
//       CHECK:     sparse_pos.for "serial" spatial %{{.*}} attributes {bind = "blockIdx.x"} {
//       CHECK:       sparse_pos.store %{{.*}}, %{{.*}}[] : <0, f32>
//       CHECK:     sparse_pos.for "sum.0.o" reduction {{.*}} {atomic, bind = "blockIdx.x"}
func.func @repeated(%x: memref<?xf32>, %t: memref<?xf32>, %n: index, %rounds: index) {
  %N = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%N] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %T = sparse_iter.match_buffer %t [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %r = %c0 to %rounds step %c1 {
    sparse_iter.iterate "sum" [%N] "R" init {
      %z = arith.constant 0.0 : f32
      sparse_iter.store %z, %T[] : !sparse_iter.buffer<0, f32>
    } body {
    ^bb0(%i: index):
      %acc = sparse_iter.load %T[] : !sparse_iter.buffer<0, f32>
      %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
      %s = arith.addf %acc, %v : f32
      sparse_iter.store %s, %T[] : !sparse_iter.buffer<0, f32>
    }
  }
  return
}

// -----

// A block holds at most 1024 threads: 2000 features go to 256 threads,
// each taking a feature of every chunk in turn.
// CHECK-LABEL: func.func @wide_rows
//       CHECK:   sparse_pos.for "wide.0" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "wide.1.o" spatial
//   CHECK-NOT:       bind
//       CHECK:       sparse_pos.for "wide.1.i" spatial %{{.*}} to %c256 attributes {bind = "threadIdx.x"}
func.func @wide_rows(%x: memref<?xf32>, %m: index) {
  %c2000 = arith.constant 2000 : index
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %c2000
  %X = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "wide" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %X[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// A buffer in scope "local" is each thread's own: the loops that pass it
// on (T[k] written, T[(k + 1) mod feat] read) stay in one thread, which
// then is a row; a local buffer inside a loop does not hold it back.
// CHECK-LABEL: func.func @rotate_through_local
//       CHECK:   sparse_pos.for "rows.0.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "rows.0.i" spatial %{{.*}} to %c128 attributes {bind = "threadIdx.x"}
//       CHECK:       sparse_pos.for "w.0" spatial
//   CHECK-NOT:       bind
//       CHECK:       sparse_pos.for "r.0" spatial
//   CHECK-NOT:       bind
//       CHECK:   sparse_pos.for "own.0" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "own.1" spatial {{.*}} {bind = "threadIdx.x"}
func.func @rotate_through_local(%x: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  // A thread's buffer has a size known when compiling (check-gpu-ops).
  %feat = arith.constant 64 : index
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    %T = sparse_iter.alloc_buffer [%K] scope "local" : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "w" [%K] "S" body {
    ^bb0(%k: index):
      %v = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
      sparse_iter.store %v, %T[%k] : !sparse_iter.buffer<1, f32>
    }
    sparse_iter.iterate "r" [%K] "S" body {
    ^bb0(%k: index):
      %c1 = arith.constant 1 : index
      %k1 = arith.addi %k, %c1 : index
      %kw = arith.remui %k1, %feat : index
      %t = sparse_iter.load %T[%kw] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %t, %Y[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  sparse_iter.iterate "own" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %T = sparse_iter.alloc_buffer [%K] scope "local" : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %T[%k] : !sparse_iter.buffer<1, f32>
    %t = sparse_iter.load %T[%k] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %t, %Y[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// A spatial axis whose store stays at one element at every position
// (a sum kept in Y[0], a row's last value in Y[i]) runs its positions in
// turn: the kind promised distinct elements, the store did not keep it.
// CHECK-LABEL: func.func @sum_into_one
//       CHECK:   sparse_pos.for "serial" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "total.0" spatial
//   CHECK-NOT:     bind
//       CHECK:   return
func.func @sum_into_one(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "total" [%I] "S" body {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %acc = sparse_iter.load %Y[%c0] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %s = arith.addf %acc, %v : f32
    sparse_iter.store %s, %Y[%c0] : !sparse_iter.buffer<1, f32>
  }
  return
}
// CHECK-LABEL: func.func @last_of_row
//       CHECK:   sparse_pos.for "last.0.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "last.0.i" spatial {{.*}} {bind = "threadIdx.x"}
//       CHECK:       sparse_pos.for "last.1" spatial
//   CHECK-NOT:       bind
//       CHECK:   return
func.func @last_of_row(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "last" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %v = sparse_iter.load %X[%i, %j] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// Y[k] + Y[k] * W[q, k] is no sum of terms into Y[k] (the term reads Y
// itself): the steps over q stay in turn, on the host, with each step's
// features over blocks and threads, instead of atomic adds that could
// not add it.
// CHECK-LABEL: func.func @compound_growth
//       CHECK:   sparse_pos.for "growth.0" reduction
//   CHECK-NOT:   atomic
//       CHECK:     sparse_pos.for "growth.1.o" spatial {{.*}} {bind = "blockIdx.x"}
func.func @compound_growth(%w: memref<?xf32>, %y: memref<?xf32>, %r: index, %f: index) {
  %R = sparse_iter.dense_fixed %r
  %F = sparse_iter.dense_fixed %f
  %W = sparse_iter.match_buffer %w [%R, %F] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%F] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "growth" [%R, %F] "RS" body {
  ^bb0(%q: index, %k: index):
    %acc = sparse_iter.load %Y[%k] : !sparse_iter.buffer<1, f32>
    %wv = sparse_iter.load %W[%q, %k] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %acc, %wv : f32
    %s = arith.addf %acc, %p : f32
    sparse_iter.store %s, %Y[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A coordinate computed through 48 doublings that share their operands
// is checked in time linear in the chain (each value once), not one walk
// per path: 2^48 of them. It never follows the position: one thread.
// CHECK-LABEL: func.func @doubling_chain
//       CHECK:   sparse_pos.for "serial" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "chain.0" spatial
//   CHECK-NOT:     bind
//       CHECK:   return
func.func @doubling_chain(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "chain" [%I] "S" body {
  ^bb0(%i: index):
    %d0 = arith.addi %n, %n : index
    %d1 = arith.addi %d0, %d0 : index
    %d2 = arith.addi %d1, %d1 : index
    %d3 = arith.addi %d2, %d2 : index
    %d4 = arith.addi %d3, %d3 : index
    %d5 = arith.addi %d4, %d4 : index
    %d6 = arith.addi %d5, %d5 : index
    %d7 = arith.addi %d6, %d6 : index
    %d8 = arith.addi %d7, %d7 : index
    %d9 = arith.addi %d8, %d8 : index
    %d10 = arith.addi %d9, %d9 : index
    %d11 = arith.addi %d10, %d10 : index
    %d12 = arith.addi %d11, %d11 : index
    %d13 = arith.addi %d12, %d12 : index
    %d14 = arith.addi %d13, %d13 : index
    %d15 = arith.addi %d14, %d14 : index
    %d16 = arith.addi %d15, %d15 : index
    %d17 = arith.addi %d16, %d16 : index
    %d18 = arith.addi %d17, %d17 : index
    %d19 = arith.addi %d18, %d18 : index
    %d20 = arith.addi %d19, %d19 : index
    %d21 = arith.addi %d20, %d20 : index
    %d22 = arith.addi %d21, %d21 : index
    %d23 = arith.addi %d22, %d22 : index
    %d24 = arith.addi %d23, %d23 : index
    %d25 = arith.addi %d24, %d24 : index
    %d26 = arith.addi %d25, %d25 : index
    %d27 = arith.addi %d26, %d26 : index
    %d28 = arith.addi %d27, %d27 : index
    %d29 = arith.addi %d28, %d28 : index
    %d30 = arith.addi %d29, %d29 : index
    %d31 = arith.addi %d30, %d30 : index
    %d32 = arith.addi %d31, %d31 : index
    %d33 = arith.addi %d32, %d32 : index
    %d34 = arith.addi %d33, %d33 : index
    %d35 = arith.addi %d34, %d34 : index
    %d36 = arith.addi %d35, %d35 : index
    %d37 = arith.addi %d36, %d36 : index
    %d38 = arith.addi %d37, %d37 : index
    %d39 = arith.addi %d38, %d38 : index
    %d40 = arith.addi %d39, %d39 : index
    %d41 = arith.addi %d40, %d40 : index
    %d42 = arith.addi %d41, %d41 : index
    %d43 = arith.addi %d42, %d42 : index
    %d44 = arith.addi %d43, %d43 : index
    %d45 = arith.addi %d44, %d44 : index
    %d46 = arith.addi %d45, %d45 : index
    %d47 = arith.addi %d46, %d46 : index
    %d48 = arith.addi %d47, %d47 : index
    %k = arith.remui %d48, %n : index
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Y[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// The maximum over rows and their non-zeros: the rows become blocks that
// update C atomically, each row's non-zeros in turn (their bounds read
// from indptr on the GPU), the features on threads.
// CHECK-LABEL: func.func @column_maxima
//       CHECK:   sparse_pos.for "init.0.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:   sparse_pos.for "cm.0" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "cm.1" reduction
//   CHECK-NOT:       bind
//       CHECK:       sparse_pos.for "cm.2" spatial {{.*}} {bind = "threadIdx.x"}
//       CHECK:   return
func.func @column_maxima(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
                         %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "init" [%K] "S" body {
  ^bb0(%k: index):
    %ninf = arith.constant 0xFF800000 : f32
    sparse_iter.store %ninf, %C[%k] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "cm" [%I, %J, %K] "RRS" body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%k] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %av, %bv : f32
    %s = arith.maximumf %acc, %p : f32
    sparse_iter.store %s, %C[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A running sum over rows, Q[i] = Q[i - 1] + sum_j A[i, j]: the rows stay
// in turn, and each row's init reads and writes Q and its non-zeros'
// bounds come from indptr: one thread runs it all.
// CHECK-LABEL: func.func @running_row_sums
//       CHECK:   sparse_pos.for "serial" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "prefix.0" spatial
//   CHECK-NOT:     bind
//       CHECK:   return
func.func @running_row_sums(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                            %q: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Q = sparse_iter.match_buffer %q [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "prefix" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %im = arith.subi %i, %c1 : index
    %prev = sparse_iter.load %Q[%im] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %prev, %Q[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Q[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %acc, %av : f32
    sparse_iter.store %s, %Q[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// A sum and a maximum of one element (Inputs/mixed_reductions.mlir) do not
// commute: the reduction loop stays sequential on the host, the spatial
// loop inside it on blocks and threads, a launch per position.
// MIXED: sparse_pos.for "mix.0" reduction %{{.*}} to %{{[a-z0-9_]*}} {
// MIXED:   sparse_pos.for "mix.1.o" spatial {{.*}} {bind = "blockIdx.x"}
// MIXED:     sparse_pos.for "mix.1.i" spatial {{.*}} {bind = "threadIdx.x"}
