// A written BSR(2) rule for A, and a built-in rule for the iteration
// "second" on the command line: both would hold every non-zero of A.
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %m: index, %n: index, %nnz: index,
             %bindptr: memref<?xi32>, %bindices: memref<?xi32>, %ab: memref<?xf32>, %nb: index, %mb: index, %nnzb: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %c2 = arith.constant 2 : index
  %IO = sparse_iter.dense_fixed %nb
  %JO = sparse_iter.sparse_variable %IO, %bindptr, %bindices length %mb nnz %nnzb sorted : memref<?xi32>, memref<?xi32>
  %II = sparse_iter.dense_fixed %c2
  %JI = sparse_iter.dense_fixed %c2
  %AB = sparse_iter.match_buffer %ab [%IO, %JO, %II, %JI] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.format_rewrite %A -> %AB
      map affine_map<(i, j) -> (i floordiv 2, j floordiv 2, i mod 2, j mod 2)>
      inverse affine_map<(io, jo, ii, ji) -> (io * 2 + ii, jo * 2 + ji)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.iterate "first" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  // expected-error@+1 {{decompose-format: the buffer that the built-in rule decomposes here already has a written format_rewrite (the sparse_iter.format_rewrite at line 18:3); both formats would hold each of its non-zeros, and the iteration would count it twice}}
  sparse_iter.iterate "second" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Z[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
