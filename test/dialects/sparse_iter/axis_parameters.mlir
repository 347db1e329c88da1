// RUN: sptir-opt %s | FileCheck %s --check-prefix=PARSED
// RUN: sptir-opt %s -p 'builtin.module(inline{default-pipeline=},lower-sparse-iter)' | FileCheck %s --check-prefix=INLINED
// RUN: not sptir-opt %s -p 'builtin.module(lower-sparse-iter)' 2>&1 | FileCheck %s --check-prefix=NOTINLINED

// A helper may take its caller's axes and iterate over them: what can be
// checked of an axis parameter (its parent, its kind) is checked once the
// helper is inlined where the axis is defined; lowered without inlining,
// the parameter is named.
// PARSED-LABEL: func.func private @row_sums
//       PARSED: sparse_iter.iterate "sums" [%arg0, %arg1] "SR"
// INLINED-LABEL: func.func @caller
//   INLINED-NOT: func.call
//       INLINED: sparse_pos.for "sums.0" spatial
//       INLINED: sparse_pos.for "sums.1" reduction
// NOTINLINED: error: an iteration axis is parameter #0 of @row_sums, not defined by an axis op
func.func private @row_sums(%I: !sparse_iter.axis, %J: !sparse_iter.axis, %A: !sparse_iter.buffer<2, f32>,
                            %Y: !sparse_iter.buffer<1, f32>) {
  sparse_iter.iterate "sums" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %y = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %a = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %y, %a : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func @caller(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %y: memref<?xf32>,
                  %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  func.call @row_sums(%I, %J, %A, %Y) : (!sparse_iter.axis, !sparse_iter.axis, !sparse_iter.buffer<2, f32>, !sparse_iter.buffer<1, f32>) -> ()
  return
}

// A helper may also take a parent axis and define the child itself: the
// parent is walked around its call (checked once it is inlined).
// PARSED-LABEL: func.func private @row_of
// INLINED-LABEL: func.func @caller_of_rows
//   INLINED-NOT: func.call
//       INLINED: sparse_pos.for "rows.0" spatial
//       INLINED:   sparse_pos.for "row.0" reduction
func.func private @row_of(%I: !sparse_iter.axis, %indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                          %n: index, %nnz: index, %Y: !sparse_iter.buffer<1, f32>, %i: index) {
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "row" [%J] "R" body {
  ^bb0(%j: index):
    %y = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %y, %v : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func @caller_of_rows(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %y: memref<?xf32>,
                          %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    func.call @row_of(%I, %indptr, %indices, %a, %n, %nnz, %Y, %i) : (!sparse_iter.axis, memref<?xi32>, memref<?xi32>, memref<?xf32>, index, index, !sparse_iter.buffer<1, f32>, index) -> ()
  }
  return
}
