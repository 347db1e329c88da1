// RUN: sptir-opt %s --split-input-file --verify-diagnostics

func.func @parent_not_an_axis_op(%indptr: memref<?xi32>, %n: index) {
  // Not a function parameter (a helper's axis, checked once inlined).
  %p = builtin.unrealized_conversion_cast %n : index to !sparse_iter.axis
  // expected-error@+1 {{axis operand must be defined by a sparse_iter axis op}}
  %J = sparse_iter.dense_variable %p, %indptr length %n nnz %n : memref<?xi32>
  return
}

// -----

func.func @sparse_fixed_parent_not_an_axis_op(%indices: memref<?xi32>, %n: index) {
  // Not a function parameter (a helper's axis, checked once inlined).
  %p = builtin.unrealized_conversion_cast %n : index to !sparse_iter.axis
  // expected-error@+1 {{axis operand must be defined by a sparse_iter axis op}}
  %J = sparse_iter.sparse_fixed %p, %indices length %n nnz_cols %n : memref<?xi32>
  return
}

// -----

func.func @mixed_index_types(%indptr: memref<?xi32>, %indices: memref<?xi64>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{indptr and indices must have the same index type, got 'i32' and 'i64'}}
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi64>
  return
}

// -----

func.func @float_indptr(%indptr: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  %J = sparse_iter.dense_variable %I, %indptr length %n nnz %n : memref<?xf32>
  return
}

// -----

func.func @two_dimensional_indices(%indices: memref<?x?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{must be 1D memref of 32-bit signless integer or 64-bit signless integer values}}
  %J = sparse_iter.sparse_fixed %I, %indices length %n nnz_cols %n : memref<?x?xi32>
  return
}

// -----

func.func @buffer_rank_mismatch(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{buffer type has rank 2 but 1 axes are given}}
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  return
}

// -----

func.func @buffer_element_mismatch(%a: memref<?xf64>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{value array has element type 'f64' but the buffer holds 'f32'}}
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf64> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @buffer_child_before_parent(%a: memref<?xf32>, %indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis #0 (sparse_variable) must directly follow its parent axis}}
  %A = sparse_iter.match_buffer %a [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  return
}

// -----

func.func @buffer_without_parent(%a: memref<?xf32>, %indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis #0 (sparse_variable) must directly follow its parent axis}}
  %A = sparse_iter.match_buffer %a [%J] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @buffer_parent_not_adjacent(%a: memref<?xf32>, %indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis #2 (sparse_variable) must directly follow its parent axis}}
  %A = sparse_iter.match_buffer %a [%I, %K, %J] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  return
}

// -----

func.func @buffer_axis_twice(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{axis #1 appears twice}}
  %A = sparse_iter.match_buffer %a [%I, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  return
}

// -----

func.func @buffer_negative_extra(%a: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{extra storage must be non-negative}}
  %A = sparse_iter.match_buffer %a [%I] extra -1 : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  return
}

// -----

func.func @buffer_default_type(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{default value has type 'f64' but the buffer holds 'f32'}}
  %A = sparse_iter.match_buffer %a [%I] {default_value = 1.0 : f64} : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @buffer_axis_not_an_axis_op(%a: memref<?xf32>, %n: index) {
  // Not a function parameter (a helper's axis, checked once inlined).
  %p = builtin.unrealized_conversion_cast %n : index to !sparse_iter.axis
  // expected-error@+1 {{axis operand must be defined by a sparse_iter axis op}}
  %A = sparse_iter.match_buffer %a [%p] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @alloc_rank_mismatch(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{buffer type has rank 1 but 2 axes are given}}
  %T = sparse_iter.alloc_buffer [%I, %I] : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @alloc_bad_scope(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{scope must be "global", "shared" or "local", got "texture"}}
  %T = sparse_iter.alloc_buffer [%I] scope "texture" : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @kinds_length(%n: index) {
  %I = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %n
  // expected-error@+1 {{kinds "S" has 1 characters but the iteration has 2 axes}}
  sparse_iter.iterate "it" [%I, %K] "S" body {
  ^bb0(%i: index, %k: index):
  }
  return
}

// -----

func.func @kinds_character(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{kinds "X": character #0 is not 'S' (spatial) or 'R' (reduction)}}
  sparse_iter.iterate "it" [%I] "X" body {
  ^bb0(%i: index):
  }
  return
}

// -----

// Two bytes, one character: rejected as a kind (not by the byte count),
// and the message quotes the whole string, not a lone byte.
func.func @kinds_multibyte(%m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %n
  // expected-error@+1 {{kinds "é": character #0 is not 'S' (spatial) or 'R' (reduction)}}
  sparse_iter.iterate "it" [%I, %K] "é" body {
  ^bb0(%i: index, %k: index):
  }
  return
}

// -----

func.func @no_axes() {
  // expected-error@+1 {{must iterate over at least one axis}}
  sparse_iter.iterate "none" [] "" body {
  ^bb0:
  }
  return
}

// -----

func.func @fuse_groups_past_the_axes(%m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %n
  // expected-error@+1 {{fused groups cover more than the 2 axes of the iteration}}
  "sparse_iter.iterate"(%I, %K) ({}, {
  ^bb0(%i: index, %k: index):
    sparse_iter.yield
  }) {label = "it", kinds = "SS", fuse_groups = array<i64: 1, 2>} : (!sparse_iter.axis, !sparse_iter.axis) -> ()
  return
}

// -----

func.func @label_not_utf8(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{label must be UTF-8 text}}
  sparse_iter.iterate "\FF" [%I] "S" body {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @empty_label(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{label must not be empty}}
  sparse_iter.iterate "" [%I] "S" body {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @iteration_axis_not_an_axis_op(%n: index) {
  // Not a function parameter (a helper's axis, checked once inlined).
  %p = builtin.unrealized_conversion_cast %n : index to !sparse_iter.axis
  // expected-error@+1 {{axis operand must be defined by a sparse_iter axis op}}
  sparse_iter.iterate "it" [%p] "S" body {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @iteration_child_before_parent(%indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis #0 (sparse_variable) comes before its parent axis}}
  sparse_iter.iterate "it" [%J, %I] "SS" body {
  ^bb0(%j: index, %i: index):
  }
  return
}

// -----

func.func @iteration_parent_missing(%indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{axis #0 (sparse_variable) comes before its parent axis}}
  sparse_iter.iterate "it" [%J] "S" body {
  ^bb0(%j: index):
  }
  return
}

// -----

func.func @axis_walked_twice(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{axis #1 is already walked by this or an enclosing iteration}}
  sparse_iter.iterate "it" [%I, %I] "SS" body {
  ^bb0(%i: index, %i2: index):
  }
  return
}

// -----

func.func @axis_walked_by_enclosing(%n: index) {
  %I = sparse_iter.dense_fixed %n
  sparse_iter.iterate "outer" [%I] "S" body {
  ^bb0(%i: index):
    // expected-error@+1 {{axis #0 is already walked by this or an enclosing iteration}}
    sparse_iter.iterate "inner" [%I] "S" body {
    ^bb0(%i2: index):
    }
  }
  return
}

// -----

func.func @fuse_not_parent_child(%n: index) {
  %I = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %n
  // expected-error@+1 {{fused axis #1 must be the child of the axis before it in fuse(...)}}
  sparse_iter.iterate "it" [fuse(%I, %K)] "SS" body {
  ^bb0(%i: index, %k: index):
  }
  return
}

// -----

func.func @body_argument_count(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{body region must take 1 arguments (one coordinate per axis), got 2}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index, %x: index):
  }
  return
}

// -----

func.func @body_argument_type(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{body region argument #0 must be index, got 'i32'}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: i32):
  }
  return
}

// -----

func.func @init_argument_count(%n: index) {
  %I = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %n
  // expected-error@+1 {{init region must take 1 arguments (one coordinate per spatial axis), got 2}}
  sparse_iter.iterate "it" [%I, %K] "SR" init {
  ^bb0(%i: index, %k: index):
  } body {
  ^bb0(%i: index, %k: index):
  }
  return
}

// -----

func.func @init_without_reduction(%n: index) {
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{init region needs at least one reduction axis}}
  sparse_iter.iterate "it" [%I] "S" init {
  ^bb0(%i: index):
  } body {
  ^bb0(%i: index):
  }
  return
}

// -----

func.func @load_coordinate_count(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    // expected-error@+1 {{buffer of rank 1 accessed with 2 coordinates}}
    %v = sparse_iter.load %A[%i, %i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

func.func @store_coordinate_count(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    // expected-error@+1 {{buffer of rank 1 accessed with 0 coordinates}}
    sparse_iter.store %zero, %A[] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

func.func @store_value_type(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f64
    // expected-error@+1 {{stored value has the buffer's element type}}
    "sparse_iter.store"(%zero, %A, %i) : (f64, !sparse_iter.buffer<1, f32>, index) -> ()
  }
  return
}

// -----

func.func @load_result_type(%a: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    // expected-error@+1 {{result type is the buffer's element type}}
    %v = "sparse_iter.load"(%A, %i) : (!sparse_iter.buffer<1, f32>, index) -> f64
  }
  return
}

// -----

func.func @yield_outside_iteration() {
  // expected-error@+1 {{expects parent op 'sparse_iter.iterate'}}
  sparse_iter.yield
}

// -----

func.func @init_under_reduction(%indptr: memref<?xi32>, %indices: memref<?xi32>, %n: index) {
  %J = sparse_iter.dense_fixed %n
  %I = sparse_iter.sparse_variable %J, %indptr, %indices length %n nnz %n : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{init region is ill-defined: spatial axis #1 depends on reduction axis #0; initialize in a separate iteration}}
  sparse_iter.iterate "csc" [%J, %I] "RS" init {
  ^bb0(%i: index):
  } body {
  ^bb0(%j: index, %i: index):
  }
  return
}

// -----

func.func @rewrite_element_mismatch(%a: memref<?xf32>, %b: memref<?xf64>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf64> -> !sparse_iter.buffer<1, f64>
  // expected-error@+1 {{source holds 'f32' but target holds 'f64'}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f64>
  return
}

// -----

func.func @rewrite_map_arity(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // expected-error@+1 {{map must take 1 source coordinates to 2 target coordinates}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k, l) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<2, f32>
  return
}

// -----

func.func @rewrite_inverse_arity(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{inverse must take 1 target coordinates to 1 source coordinates}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k, k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

// Coordinates are computed with arith's divisions: a zero divisor would
// be undefined behaviour in the compiled code.
func.func @rewrite_zero_divisor(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{inverse computes 'd0 floordiv 0': mod, floordiv and ceildiv need a positive constant divisor}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i mod 4)> inverse affine_map<(k) -> (k floordiv 0)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @rewrite_negative_divisor(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{map computes 'd0 ceildiv -2': mod, floordiv and ceildiv need a positive constant divisor}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i ceildiv -2)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @rewrite_symbols(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{maps must not have symbols}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i)[s] -> (i + s)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @rewrite_to_itself(%a: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{source and target must be different buffers}}
  sparse_iter.format_rewrite %A -> %A map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

// At module level an axis may name itself as its parent: a cycle, not a
// tree (a position search over it walked the cycle forever).
module {
  %n = arith.constant 4 : index
  %ip = memref.alloc(%n) : memref<?xi32>
  // expected-error@+1 {{the chain of parent axes from this axis comes back to an axis already in it: axes must form a tree}}
  %J = sparse_iter.sparse_variable %J, %ip, %ip length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
  %p, %f = sparse_pos.find %J[%n], %n
}

// -----

// Two axes, each the other's parent.
module {
  %n = arith.constant 4 : index
  %ip = memref.alloc(%n) : memref<?xi32>
  // expected-error@+1 {{the chain of parent axes from this axis comes back to an axis already in it}}
  %J = sparse_iter.sparse_variable %K, %ip, %ip length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %ip, %ip length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
}

// -----

// A negative rank parses as 2^32 - 1.
// expected-error@+1 {{a sparse buffer has 0 to 64 axes, got rank -1}}
func.func @negative_rank(%x: !sparse_iter.buffer<-1, f32>) {
  return
}

// -----

// expected-error@+1 {{a sparse buffer's element type must be one a memref can hold, of non-zero width, got 'i0'}}
func.func @zero_width_element(%x: !sparse_iter.buffer<1, i0>) {
  return
}

// -----

// expected-error@+1 {{a sparse buffer's element type must be one a memref can hold, of non-zero width, got 'none'}}
func.func @no_element(%x: !sparse_iter.buffer<1, none>) {
  return
}

// -----

// An init region runs before the reductions: a child of a reduction axis
// has no parent coordinate there.
func.func @init_walks_child_of_reduction(%ip: memref<?xi32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %ip, %ip length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %ip, %ip length %n nnz %n sorted : memref<?xi32>, memref<?xi32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "t" [%I, %J] "SR" init {
  ^bb0(%i: index):
    // expected-error@+1 {{axis #0 (sparse_variable) comes before its parent axis}}
    sparse_iter.iterate "bad" [%K] "S" body {
    ^bb0(%k: index):
      %one = arith.constant 1.0 : f32
      sparse_iter.store %one, %Y[%i] : !sparse_iter.buffer<1, f32>
    }
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %acc, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A name used before its definition that an init region then defines: the
// use would refer into the region (and, were the op to fail to parse
// later, to a destroyed value). Refused at the use.
func.func @used_before_init_defines_it(%n: index) {
  // expected-error@+1 {{this op uses a value that the init region of a later sparse_iter.iterate defines}}
  %x = arith.addi %i, %i : index
  %I = sparse_iter.dense_fixed %n
  sparse_iter.iterate "t" [%I] "S" init {
  ^bb0(%i: index):
  } body {
  ^bb0(%k: index):
  }
  return
}

// -----

// The same where the iteration is cut short after its init region.
func.func @used_before_init_defines_it_then_cut(%n: index) {
  // expected-error@+1 {{this op uses a value that the init region of a later sparse_iter.iterate defines}}
  %x = arith.addi %c, %c : index
  %I = sparse_iter.dense_fixed %n
  sparse_iter.iterate "t" [%I] "S" init {
  ^bb0(%i: index):
    %c = arith.constant 1 : index
  } bogus
}

// -----

// The inverse must take each target coordinate back to the source one
// that map sent there; here the inner column offset is taken from the row.
func.func @rewrite_inverse_wrong(%a: memref<?xf32>, %b: memref<?xf32>, %m: index, %n: index, %bm: index,
                                 %bn: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %IO = sparse_iter.dense_fixed %bm
  %JO = sparse_iter.dense_fixed %bn
  %II = sparse_iter.dense_fixed %bm
  %JI = sparse_iter.dense_fixed %bn
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%IO, %JO, %II, %JI] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  // expected-error@+1 {{inverse does not undo map: map takes source coordinate (1, 0) to (0, 0, 1, 0), which inverse takes to (1, 1)}}
  sparse_iter.format_rewrite %A -> %B
      map affine_map<(i, j) -> (i floordiv 2, j floordiv 2, i mod 2, j mod 2)>
      inverse affine_map<(io, jo, ii, ji) -> (io * 2 + ii, jo * 2 + ii)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<4, f32>
  return
}

// -----

// A map that sends two source coordinates to one target slot (0 and 1 to
// block 0) has no inverse.
func.func @rewrite_map_not_one_to_one(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{inverse does not undo map: map takes source coordinate (1) to (0), which inverse takes to (0)}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i floordiv 2)> inverse affine_map<(o) -> (o * 2)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

// A map past 64-bit integers is refused by that, not judged on a number
// its arithmetic wrapped to (or, before, on whatever memory held).
func.func @rewrite_map_overflows(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{map overflows 64-bit integers at source coordinate (2)}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i * 9223372036854775807)> inverse affine_map<(o) -> (o floordiv 9223372036854775807)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

// A map wrong only from column 2048 on is refused: the samples reach
// 2^31, and the copy trusts map to put each element in its slot.
func.func @rewrite_map_wrong_far_out(%a: memref<?xf32>, %b: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // expected-error@+1 {{inverse does not undo map: map takes source coordinate (0, 2048) to (0, 2049), which inverse takes to (0, 2049)}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i, j) -> (i, j + j floordiv 2048)> inverse affine_map<(i, j) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<2, f32>
  return
}
