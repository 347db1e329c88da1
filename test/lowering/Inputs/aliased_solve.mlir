// A triangular solve whose x is one array matched twice, read over the
// columns and written over the rows: the two buffers are one array, so
// each row still reads what earlier rows wrote.
func.func @aliased_solve(%indptr: memref<?xi32>, %indices: memref<?xi32>, %l: memref<?xf32>,
                         %x: memref<?xf32>, %m: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %m nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %m
  %L = sparse_iter.match_buffer %l [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %XI = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "aliased" [%I, %J] "RR" body {
  ^bb0(%i: index, %j: index):
    %lv = sparse_iter.load %L[%i, %j] : !sparse_iter.buffer<2, f32>
    %xj = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %xi = sparse_iter.load %XI[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %lv, %xj : f32
    %s = arith.addf %xi, %p : f32
    sparse_iter.store %s, %XI[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
