// Two CSR matrices A and D, each with its own BSR(2) rule; y = A x, z = D x.
func.func @k(%ip: memref<?xi32>, %ix: memref<?xi32>, %a: memref<?xf32>, %dp: memref<?xi32>, %dx: memref<?xi32>, %d: memref<?xf32>,
             %x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %m: index, %n: index, %nnz: index, %nnzd: index,
             %bp: memref<?xi32>, %bi: memref<?xi32>, %ab: memref<?xf32>, %nb: index, %mb: index, %nnzb: index,
             %cp: memref<?xi32>, %ci: memref<?xi32>, %db: memref<?xf32>, %nnzc: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %ip, %ix length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JJ = sparse_iter.sparse_variable %I, %dp, %dx length %n nnz %nnzd sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %D = sparse_iter.match_buffer %d [%I, %JJ] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %c2 = arith.constant 2 : index
  %IO = sparse_iter.dense_fixed %nb
  %JO = sparse_iter.sparse_variable %IO, %bp, %bi length %mb nnz %nnzb sorted : memref<?xi32>, memref<?xi32>
  %JO2 = sparse_iter.sparse_variable %IO, %cp, %ci length %mb nnz %nnzc sorted : memref<?xi32>, memref<?xi32>
  %II = sparse_iter.dense_fixed %c2
  %JI = sparse_iter.dense_fixed %c2
  %AB = sparse_iter.match_buffer %ab [%IO, %JO, %II, %JI] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  %DB = sparse_iter.match_buffer %db [%IO, %JO2, %II, %JI] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.format_rewrite %A -> %AB
      map affine_map<(i, j) -> (i floordiv 2, j floordiv 2, i mod 2, j mod 2)>
      inverse affine_map<(io, jo, ii, ji) -> (io * 2 + ii, jo * 2 + ji)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.format_rewrite %D -> %DB
      map affine_map<(i, j) -> (i floordiv 2, j floordiv 2, i mod 2, j mod 2)>
      inverse affine_map<(io, jo, ii, ji) -> (io * 2 + ii, jo * 2 + ji)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.iterate "ya" [%I, %J] "SR" init {
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
  sparse_iter.iterate "zd" [%I, %JJ] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Z[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %dv = sparse_iter.load %D[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %dv, %xv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
