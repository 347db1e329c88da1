// RUN: sptir-opt %s --split-input-file --verify-diagnostics

func.func @for_two_arguments(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{body must take exactly one index argument (the position)}}
  sparse_pos.for "i" spatial %c0 to %n {
  ^bb0(%i: index, %j: index):
  }
  return
}

// -----

func.func @for_argument_type(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{body must take exactly one index argument (the position)}}
  sparse_pos.for "i" spatial %c0 to %n {
  ^bb0(%i: i64):
  }
  return
}

// -----

func.func @for_empty_label(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{label must not be empty}}
  sparse_pos.for "" spatial %c0 to %n {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @for_label_not_utf8(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{label must be UTF-8 text}}
  sparse_pos.for "\C3" spatial %c0 to %n {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @for_bad_kind(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [spatial, reduction]}}
  sparse_pos.for "i" parallel %c0 to %n {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @load_position_count(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{buffer of rank 1 accessed with 2 positions}}
  %v = sparse_pos.load %A[%n, %n] : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @store_position_count(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{buffer of rank 1 accessed with 0 positions}}
  sparse_pos.store %zero, %A[] : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @store_value_type(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %zero = arith.constant 0 : i32
  // expected-error@+1 {{stored value has the buffer's element type}}
  "sparse_pos.store"(%zero, %A, %n) : (i32, !sparse_iter.buffer<1, f32>, index) -> ()
  return
}

// -----

func.func @assume_domain_on_values(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{value domains apply to integer (indptr/indices) buffers, got element type 'f32'}}
  sparse_pos.assume_domain %A in [%c0, %n] : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @find_on_dense_axis(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{coordinate lookup needs a sparse axis, got dense_fixed}}
  %p, %found = sparse_pos.find %I[], %n
  return
}

// -----

func.func @find_on_dense_variable_axis(%indptr: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %L = sparse_iter.dense_variable %I, %indptr length %n nnz %n : memref<?xi32>
  // expected-error@+1 {{coordinate lookup needs a sparse axis, got dense_variable}}
  %p, %found = sparse_pos.find %L[%n], %n
  return
}

// -----

func.func @find_on_unsorted_axis(%indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{coordinate lookup is a binary search and needs a sorted axis}}
  %p, %found = sparse_pos.find %J[%n], %n
  return
}

// -----

func.func @find_ancestor_count(%indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis has 1 ancestors but 2 positions are given}}
  %p, %found = sparse_pos.find %J[%n, %n], %n
  return
}

// -----

func.func @find_axis_not_an_axis_op(%n: index) {
  // Not a function parameter (a helper's axis, checked once inlined).
  %p = builtin.unrealized_conversion_cast %n : index to !sparse_iter.axis
  // expected-error@+1 {{axis operand must be defined by a sparse_iter axis op}}
  %q, %found = sparse_pos.find %p[], %n
  return
}

// -----

func.func @parent_position_of_root(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{axis has no parent}}
  %p = sparse_pos.parent_position %I, %n
  return
}

// -----

func.func @yield_outside_for() {
  // expected-error@+1 {{expects parent op 'sparse_pos.for'}}
  sparse_pos.yield
}
