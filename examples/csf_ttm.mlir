// CSF tensor-times-matrix (TTM, mode 3): Y[i, j, l] = sum_k A[i, j, k] * B[k, l]
// for every stored fiber (i, j) of A.
// A is an m x n x p sparse tensor in CSF: I = dense_fixed(m);
// J = sparse_variable(I) with indptr_j [m+1], indices_j [nnz_j] (the stored
// (i, j) fibers, ascending per i); K = sparse_variable(J) with indptr_k
// [nnz_j+1], indices_k [nnz_k] (ascending per fiber); a [nnz_k] holds the
// values; A is the buffer (I, J, K). B is p x feat dense, row-major, over
// (K_detach, L). Y shares A's (I, J) structure: y [nnz_j*feat] holds one
// dense row of feat values per stored fiber (i, j), in fiber order; Y is the
// buffer (I, J, L).
func.func @csf_ttm(%indptr_j: memref<?xi32>, %indices_j: memref<?xi32>,
                   %indptr_k: memref<?xi32>, %indices_k: memref<?xi32>,
                   %a: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>,
                   %m: index, %n: index, %p: index, %nnz_j: index,
                   %nnz_k: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr_j, %indices_j length %n nnz %nnz_j sorted
         : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %indptr_k, %indices_k length %p nnz %nnz_k sorted
         : memref<?xi32>, memref<?xi32>
  %K_detach = sparse_iter.dense_fixed %p
  %L = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J, %K] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %B = sparse_iter.match_buffer %b [%K_detach, %L] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I, %J, %L] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  sparse_iter.iterate "ttm" [%I, %J, %K, %L] "SSRS" init {
  ^bb0(%i: index, %j: index, %l: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i, %j, %l] : !sparse_iter.buffer<3, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    %acc = sparse_iter.load %Y[%i, %j, %l] : !sparse_iter.buffer<3, f32>
    %av = sparse_iter.load %A[%i, %j, %k] : !sparse_iter.buffer<3, f32>
    %bv = sparse_iter.load %B[%k, %l] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %Y[%i, %j, %l] : !sparse_iter.buffer<3, f32>
  }
  return
}
