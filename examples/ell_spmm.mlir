// ELL SpMM: C[i, k] = sum_j A[i, j] * B[j, k] with A in ELLPACK format.
// A is m x n with exactly nnz_cols stored entries per row: the column axis
// J = sparse_fixed(I, indices, nnz_cols) has indices [m*nnz_cols] (row-major;
// a row with fewer non-zeros is padded with any column in [0, n) and value
// 0), a [m*nnz_cols] holds the values; A is the buffer (I, J). B is n x feat
// dense, row-major, over (J_detach, K); C is m x feat dense over (I, K).
func.func @ell_spmm(%indices: memref<?xi32>, %a: memref<?xf32>,
                    %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz_cols: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_fixed %I, %indices length %n nnz_cols %nnz_cols : memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "ellmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
