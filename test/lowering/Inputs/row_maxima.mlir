// Each row's largest stored element: a block format's other slots hold
// zeros that the row does not store, which would join the maximum.
func.func @row_maxima(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                      %mx: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %MX = sparse_iter.match_buffer %mx [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %ninf = arith.constant 0xFF800000 : f32
    sparse_iter.store %ninf, %MX[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %old = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
    %new = arith.maximumf %old, %av : f32
    // expected-error@+1 {{decompose-format: the new format also holds zeros where the source stores nothing (a block's other slots), and the iteration would run its body there: this store does not add a product with the source's value to its own element}}
    sparse_iter.store %new, %MX[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
