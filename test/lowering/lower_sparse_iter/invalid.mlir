// Errors of lower-sparse-iter on programs that pass the verifier.
// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(lower-sparse-iter)'

// A fused loop enumerates the non-zeros of a whole space, so it must start
// at a root axis; here the fused group starts at J, whose parent I is walked
// by its own loop.
func.func @fused_group_not_at_root(%indptr_j: memref<?xi32>, %indices_j: memref<?xi32>,
                                   %indptr_k: memref<?xi32>, %indices_k: memref<?xi32>,
                                   %m: index, %n: index, %p: index, %nnz_j: index, %nnz_k: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr_j, %indices_j length %n nnz %nnz_j sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %indptr_k, %indices_k length %p nnz %nnz_k sorted : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{a fused group must start at a root axis (one without a parent)}}
  sparse_iter.iterate "it" [%I, fuse(%J, %K)] "SSS" body {
  ^bb0(%i: index, %j: index, %k: index):
  }
  return
}

// -----

// The init nest needs a loop over the spatial axis I alone, but I is fused
// with the reduction axis J.
func.func @init_axis_fused_with_reduction(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                                          %c: memref<?xf32>, %m: index, %n: index, %nnz: index,
                                          %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.dense_fixed %feat
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // expected-error@+1 {{init region needs spatial axis #0, which is fused with a reduction axis; write the initialization as its own iteration}}
  sparse_iter.iterate "it" [fuse(%I, %J), %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
  }
  return
}

// -----

// A is read at a column coordinate that no loop walks in A's structure, so
// the position must be found by binary search, which needs a sorted axis.
func.func @lookup_on_unsorted_axis(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                                   %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "it" [%I, %J_detach] "SS" body {
  ^bb0(%i: index, %j: index):
    // expected-error@+1 {{access to buffer axis #1 needs a coordinate lookup, a binary search, but the axis is not sorted}}
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// A lookup that may miss reads the buffer's default value; complex<f32> has
// no implicit one and the buffer gives none.
func.func @lookup_without_default(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                                  %a: memref<?xcomplex<f32>>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xcomplex<f32>> -> !sparse_iter.buffer<2, complex<f32>>
  sparse_iter.iterate "it" [%I, %J_detach] "SS" body {
  ^bb0(%i: index, %j: index):
    // expected-error@+1 {{no default value for element type complex<f32>}}
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, complex<f32>>
  }
  return
}

// -----

// A buffer passed in as a function argument has no axes to translate
// coordinates with: the function must be inlined where it is defined.
func.func @buffer_without_definition(%A: !sparse_iter.buffer<1, f32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    // expected-error@+1 {{buffer is parameter #0 of @buffer_without_definition, not defined by sparse_iter.match_buffer or sparse_iter.alloc_buffer: axes and buffers exist only where they are defined, so a function taking them must be inlined into its callers first (MLIR's `inline` pass)}}
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A lookup may read the default value, which arith cannot make for an
// unsigned integer (its constants are signless).
func.func @unsigned_lookup(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xui32>,
                           %y: memref<?xui32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xui32> -> !sparse_iter.buffer<2, ui32>
  %Y = sparse_iter.match_buffer %y [%I, %J] : memref<?xui32> -> !sparse_iter.buffer<2, ui32>
  sparse_iter.iterate "cp" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %c1 = arith.constant 1 : index
    %jp = arith.addi %j, %c1 : index
    // expected-error@+1 {{a lookup into a buffer of ui32 may read its default value, and arith.constant makes only signless integers; give the buffer a signless type (i32 for ui32)}}
    %v = sparse_iter.load %A[%i, %jp] : !sparse_iter.buffer<2, ui32>
    sparse_iter.store %v, %Y[%i, %j] : !sparse_iter.buffer<2, ui32>
  }
  return
}

// -----

// Two iterations of one function labelled alike make loops labelled
// alike, which one schedule would act on together.
func.func @same_labels(%y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "fill" [%I] "S" body {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  // expected-error@+1 {{lower-sparse-iter: two iterations of this function make a loop labelled "fill.0" (the other at line}}
  sparse_iter.iterate "fill" [%I] "S" body {
  ^bb0(%i: index):
    %two = arith.constant 2.0 : f32
    sparse_iter.store %two, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// "r.init" beside "r" with an init region: both make "r.init.1".
func.func @init_label(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %L = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%L, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "r" [%I, %L, %J] "SRS" init {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %l: index, %j: index):
    %acc = sparse_iter.load %Y[%i, %j] : !sparse_iter.buffer<2, f32>
    %v = sparse_iter.load %X[%l, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %acc, %v : f32
    sparse_iter.store %s, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  // expected-error@+1 {{lower-sparse-iter: two iterations of this function make a loop labelled "r.init.1"}}
  sparse_iter.iterate "r.init" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// Functions have labels of their own: the same one in two is fine.
func.func @first(%y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "fill" [%I] "S" body {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func @second(%y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "fill" [%I] "S" body {
  ^bb0(%i: index):
    %two = arith.constant 2.0 : f32
    sparse_iter.store %two, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}


