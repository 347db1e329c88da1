// CSR SpMM whose body adds each product as two halves, `(h + acc) + h`:
// regrouped by lower-sparse-iter, `acc + (h + h)` is one accumulation,
// which a row's lanes can share in a warp shuffle.
// A is m x n in CSR (indptr, indices, a); B is n x feat dense; C is m x feat.
func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %c05 = arith.constant 0.5 : f32
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %half = arith.mulf %prod, %c05 : f32
    %s1 = arith.addf %half, %acc : f32
    %sum = arith.addf %half, %s1 : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
