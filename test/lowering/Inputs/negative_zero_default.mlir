// SpMV over a buffer whose unstored elements read -0.0, a zero: a block's
// other slots add -0.0 * x, nothing, so decompose-format takes it.
// CHECK: sparse_iter.iterate "it.0"
func.func @default_spmv(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] {default_value = -0.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %J] "SR" init {
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
  return
}
