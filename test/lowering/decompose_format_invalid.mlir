// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(decompose-format)'

func.func @rule_after_iteration(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
  }
  // expected-error@+1 {{decompose-format: a format_rewrite must come before the iterations it rewrites}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @access_not_at_walked_coordinates(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{decompose-format: the decomposed buffer must be accessed at the coordinates its axes walk}}
    %v = sparse_iter.load %A[%c0] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

func.func @axis_not_walked(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: the iteration must walk every axis of the decomposed buffer}}
  sparse_iter.iterate "it" [%K] "S" body {
  ^bb0(%k: index):
    %v = sparse_iter.load %A[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}

