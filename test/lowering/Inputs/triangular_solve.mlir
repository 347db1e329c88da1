// A unit lower triangular solve, x = L^-1 x with L's diagonal left out:
// each row reads the rows solved before it.
func.func @trsv(%indptr: memref<?xi32>, %indices: memref<?xi32>, %l: memref<?xf32>,
                %x: memref<?xf32>, %m: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %m nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %m
  %L = sparse_iter.match_buffer %l [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "solve" [%I, %J] "RR" body {
  ^bb0(%i: index, %j: index):
    %lv = sparse_iter.load %L[%i, %j] : !sparse_iter.buffer<2, f32>
    %xj = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %xi = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %lv, %xj : f32
    %n = arith.negf %p : f32
    %s = arith.addf %xi, %n : f32
    sparse_iter.store %s, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
