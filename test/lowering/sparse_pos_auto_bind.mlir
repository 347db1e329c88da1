// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s
// RUN: sptir-opt %s --split-input-file --sptir-to-gpu -o /dev/null
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=4},sparse-pos-vectorize{loop=cscmm.2.i},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=VECTOR
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.2 to=threadIdx.x},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=PARTIAL
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.i to=blockIdx.x},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=INNERGRID
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.1 factor=4},sparse-pos-cache-read{loop=cscmm.1.i},sparse-pos-auto-bind)' | FileCheck %s --check-prefix=TILE
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.1 factor=4},sparse-pos-cache-read{loop=cscmm.1.i},sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=TILESTORE
// RUN: sptir-opt %S/Inputs/triangular_solve.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=SOLVE
// RUN: sptir-opt %S/Inputs/triangular_solve.mlir -p 'builtin.module(sparse-fuse{iteration=solve loops=0,1},lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=SOLVE
// RUN: sptir-opt %S/Inputs/aliased_solve.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=ALIASED
// RUN: sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s --check-prefix=STEPS
// RUN: sptir-opt %S/Inputs/propagate.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=STEPLAUNCH

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

// A hand schedule that binds only the feature loop to threadIdx.x: the
// init nest's feature loop, of the same bounds, takes the same threads.
// PARTIAL-LABEL: func.func @csr_spmm
//       PARTIAL: sparse_pos.for "csrmm.0" spatial {{.*}} {bind = "blockIdx.x"}
//       PARTIAL: sparse_pos.for "csrmm.init.1" spatial {{.*}} {bind = "threadIdx.x"}
//       PARTIAL: sparse_pos.for "csrmm.1" reduction
//       PARTIAL: sparse_pos.for "csrmm.2" spatial {{.*}} {bind = "threadIdx.x"}

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

// Blocks cannot share a maximum: the reduction loop stays sequential (on
// the host) and the spatial loop inside it becomes the blocks, a launch
// per position.
// CHECK-LABEL: func.func @column_maxima
//       CHECK:   sparse_pos.for "colmax.0" reduction
//   CHECK-NOT:     attributes
//       CHECK:     sparse_pos.for "colmax.1.o" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:       sparse_pos.for "colmax.1.i" spatial {{.*}} {bind = "threadIdx.x"}
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

// A maximum over every element: blocks cannot share it and no loop is
// spatial, so the whole nest, with its init, runs as one thread.
// CHECK-LABEL: func.func @global_max
//       CHECK:   sparse_pos.for "serial" spatial %{{.*}} to %c1{{(_[0-9]+)?}} attributes {bind = "blockIdx.x"} {
//       CHECK:     sparse_pos.store
//       CHECK:     sparse_pos.for "gmax.0" reduction
//   CHECK-NOT:       bind
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
func.func @rotate_through_local(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %feat: index) {
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
