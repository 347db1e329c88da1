// CSC SpMM: C[i, k] = sum_j A[i, j] * B[j, k], with A stored column-major.
// A is m x n in CSC: the column axis J = dense_fixed(n) is the outer axis and
// the row axis I = sparse_variable(J) hangs under it; indptr [n+1] holds the
// column offsets, indices [nnz] the row coordinates (ascending per column),
// a [nnz] the values in column order; A is the buffer (J, I). B is n x feat
// dense, row-major, over (J, K) (J is dense, so B shares it); C is m x feat
// dense, row-major, over (I_detach, K): I_detach = dense_fixed(m) gives C the
// coordinate range of the sparse row axis.
// Every column j adds into rows of C, so J is the reduction axis: C is zeroed
// by its own iteration "zero" first, and "cscmm" [J, I, K] "RSS" has no init.
func.func @csc_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index) {
  %J = sparse_iter.dense_fixed %n
  %I = sparse_iter.sparse_variable %J, %indptr, %indices length %m nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %I_detach = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "zero" [%I_detach, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "cscmm" [%J, %I, %K] "RSS" body {
  ^bb0(%j: index, %i: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%j, %i] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
