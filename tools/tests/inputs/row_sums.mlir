// Row sums of a CSR matrix, z[i] = sum_j A[i, j]: the row's non-zeros are
// a reduction whose length comes from indptr, the classic warp-per-row
// reduction when they are split over lanes that meet in a warp shuffle.
func.func @rowsum(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %z: memref<?xf32>,
                  %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rsum" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Z[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %t = arith.addf %acc, %e : f32
    sparse_iter.store %t, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
