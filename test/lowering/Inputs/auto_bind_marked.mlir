// Row minima of a CSR matrix (the row loop marked to unroll in the RUN line of sparse_pos_auto_bind.mlir).
func.func @rowmax(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %out: memref<?xf32>,
                  %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %O = sparse_iter.match_buffer %out [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rmax" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %ninf = arith.constant 0x7F800000 : f32
    sparse_iter.store %ninf, %O[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %O[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %mx = arith.minimumf %acc, %av : f32
    sparse_iter.store %mx, %O[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
