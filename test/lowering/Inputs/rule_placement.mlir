// Where a written format_rewrite applies: to the iterations after it in
// its block, and to those nested in ops after it there.

// A rule inside "batch" is for the iteration after it there; "outer",
// outside that block, keeps reading A (the copy into B might never run).
// CHECK-LABEL: func.func @rule_in_body
//       CHECK:   %[[A:.*]] = sparse_iter.match_buffer %arg0
//       CHECK:   %[[B:.*]] = sparse_iter.match_buffer %arg1
//       CHECK:   sparse_iter.iterate "batch"
//       CHECK:     sparse_iter.iterate "copy0"
//       CHECK:     sparse_iter.iterate "inner.0"
//       CHECK:       sparse_iter.load %[[B]]
//       CHECK:   sparse_iter.iterate "outer"
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     sparse_iter.load %[[A]]
func.func @rule_in_body(%a: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>,
                        %t: index, %m: index) {
  %T = sparse_iter.dense_fixed %t
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%T, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "batch" [%T] "S" body {
  ^bb0(%s: index):
    sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
        : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "inner" [%I] "S" body {
    ^bb0(%i: index):
      %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %Y[%s, %i] : !sparse_iter.buffer<2, f32>
    }
  }
  sparse_iter.iterate "outer" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// A computed buffer (the attention values of a GAT) is stored in another
// format after the iteration that writes it, for the one that reads it.
// CHECK-LABEL: func.func @rule_after_writer
//       CHECK:   sparse_iter.iterate "write"
//       CHECK:   sparse_iter.iterate "copy1"
//       CHECK:   sparse_iter.iterate "read.0"
func.func @rule_after_writer(%a: memref<?xf32>, %b: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "write" [%I] "S" body {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %A[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "read" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// A rule before "batch" is for the iteration nested in it, which walks
// A's axes ("batch" does not); the copy goes right before that iteration,
// where it sees what every step of the batch wrote before it.
// CHECK-LABEL: func.func @rule_before_nest
//       CHECK:   sparse_iter.iterate "batch"
//       CHECK:     sparse_iter.iterate "copy2"
//       CHECK:     sparse_iter.iterate "inner.0"
//   CHECK-NOT:   format_rewrite
func.func @rule_before_nest(%a: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>, %t: index, %m: index) {
  %T = sparse_iter.dense_fixed %t
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%T, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "batch" [%T] "S" body {
  ^bb0(%s: index):
    sparse_iter.iterate "inner" [%I] "S" body {
    ^bb0(%i: index):
      %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %Y[%s, %i] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// A store to A's memory through another buffer of it, between the rule and
// the reader: the copy comes after it, right before the reader.
// CHECK-LABEL: func.func @writer_through_alias
//       CHECK:   sparse_iter.iterate "w"
//       CHECK:   sparse_iter.iterate "copy3"
//       CHECK:   sparse_iter.iterate "r.0"
func.func @writer_through_alias(%a: memref<?xf32>, %b: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %A2 = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%K] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(k) -> (k)> {sptir.exact}
      : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "w" [%I] "S" body {
  ^bb0(%i: index):
    %ten = arith.constant 10.0 : f32
    sparse_iter.store %ten, %A2[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "r" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
