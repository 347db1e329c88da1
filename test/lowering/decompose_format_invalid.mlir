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
  // A rule is for the iterations after it: none reads A there.
  // expected-error@+1 {{decompose-format: no iteration reads the buffer this format_rewrite decomposes (after it, in the same block), so it would do nothing}}
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

// -----

// The output cannot change format: the copy would read it before the
// iteration writes it.
func.func @rewrites_the_output(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
             %b: memref<?xf32>, %c: memref<?xf32>, %cd: memref<?xf32>,
             %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %CI = sparse_iter.dense_fixed %m
  %CK = sparse_iter.dense_fixed %feat
  %CD = sparse_iter.match_buffer %cd [%CI, %CK] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.format_rewrite %C -> %CD map affine_map<(i, k) -> (i, k)> inverse affine_map<(i, k) -> (i, k)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<2, f32>
  // expected-error@+1 {{decompose-format: the iteration writes the buffer that a format_rewrite decomposes}}
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// Two rules that undo each other: each one's source is the other's target.
func.func @rules_in_a_cycle(%a: memref<?xf32>, %at: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %AT = sparse_iter.match_buffer %at [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: this format_rewrite decomposes a buffer that another format_rewrite fills}}
  sparse_iter.format_rewrite %A -> %AT map affine_map<(i, j) -> (j, i)> inverse affine_map<(j, i) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.format_rewrite %AT -> %A map affine_map<(j, i) -> (i, j)> inverse affine_map<(i, j) -> (j, i)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rowsum" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %acc, %v : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A rule for a buffer no iteration reads.
func.func @rule_nobody_reads(%a: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: no iteration reads the buffer this format_rewrite decomposes}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(i) -> (i)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "copy" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// Two rules split A between them; an iteration between the rules would
// read only the first's part.
func.func @reader_between_rules(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %two = arith.constant 2 : index
  %K = sparse_iter.dense_fixed %two
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %C = sparse_iter.match_buffer %c [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: this iteration comes after some format_rewrite rules of the buffer it reads and before another (the sparse_iter.format_rewrite at line}}
  sparse_iter.iterate "r1" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.format_rewrite %A -> %C map affine_map<(i) -> (i - 2)> inverse affine_map<(k) -> (k + 2)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "r2" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A rule outside a loop and another inside it, both for the reader in the
// loop: each would hold all of A, and the reader would add it twice.
func.func @rules_in_two_blocks(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %C = sparse_iter.match_buffer %c [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %c1 step %c1 {
    sparse_iter.format_rewrite %A -> %C map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
        : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
    // expected-error@+1 {{decompose-format: this iteration comes after format_rewrite rules of the buffer it reads in two blocks}}
    sparse_iter.iterate "r" [%I] "S" body {
    ^bb0(%i: index):
      %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----

// The target is over the output's axes, one of which the iteration walks
// beside the source's: the rewritten iteration would walk it twice.
func.func @target_over_a_walked_axis(%a: memref<?xf32>, %c: memref<?xf32>, %m: index, %f: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %f
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %C = sparse_iter.match_buffer %c [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: this format_rewrite's target is over axis #1 of iteration "it", which the iteration walks beside the decomposed buffer's axes; the rewritten iteration walks the target's axes in place of the source's, so the target needs axes of its own}}
  sparse_iter.format_rewrite %A -> %C map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %K] "RS" body {
  ^bb0(%i: index, %k: index):
    %acc = sparse_iter.load %C[%k] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    %s = arith.addf %acc, %av : f32
    sparse_iter.store %s, %C[%k] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// At a slot the source does not store, A is zero but A * (B * A / A) is
// NaN: a product vanishes there only if its other factor does not read A
// (or vanishes too).
func.func @product_with_a_quotient_of_the_source(%a: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %c2 = arith.constant 2 : index
  %IO = sparse_iter.dense_fixed %m
  %II = sparse_iter.dense_fixed %c2
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %T = sparse_iter.alloc_buffer [%IO, %II] : !sparse_iter.buffer<2, f32>
  sparse_iter.format_rewrite %A -> %T map affine_map<(i) -> (i floordiv 2, i mod 2)> inverse affine_map<(o, l) -> (o * 2 + l)>
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    %bv = sparse_iter.load %B[%i] : !sparse_iter.buffer<1, f32>
    %ba = arith.mulf %bv, %av : f32
    %q = arith.divf %ba, %av : f32
    %p = arith.mulf %av, %q : f32
    %s = arith.addf %acc, %p : f32
    // expected-error@+1 {{decompose-format: the new format also holds zeros where the source stores nothing}}
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

