// DCSR SpMM: C[i, k] = sum_j A[i, j] * B[j, k] with A doubly compressed.
// A is m x n in DCSR (RFC): a placeholder root O = dense_fixed(1) gives the
// compressed row axis I = sparse_variable(O) a parent; indptr_i [2] is
// {0, nnz_rows}, indices_i [nnz_rows] the ascending ids of the non-empty
// rows; J = sparse_variable(I) has indptr_j [nnz_rows+1] and indices_j [nnz]
// (ascending per row); a [nnz] holds the values; A is the buffer (O, I, J).
// B is n x feat dense, row-major, over (J_detach, K); C is m x feat dense,
// row-major, over (I_detach, K).
// Rows of C without non-zeros must read 0, and the compute iteration only
// visits stored rows, so C is zeroed by its own iteration first and
// "dcsrmm" has no init.
func.func @dcsr_spmm(%indptr_i: memref<?xi32>, %indices_i: memref<?xi32>,
                     %indptr_j: memref<?xi32>, %indices_j: memref<?xi32>,
                     %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                     %m: index, %n: index, %nnz_rows: index, %nnz: index,
                     %feat: index) {
  %c1 = arith.constant 1 : index
  %O = sparse_iter.dense_fixed %c1
  %I = sparse_iter.sparse_variable %O, %indptr_i, %indices_i length %m nnz %nnz_rows sorted
         : memref<?xi32>, memref<?xi32>
  %J = sparse_iter.sparse_variable %I, %indptr_j, %indices_j length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %I_detach = sparse_iter.dense_fixed %m
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%O, %I, %J] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "zero" [%I_detach, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "dcsrmm" [%O, %I, %J, %K] "SSRS" body {
  ^bb0(%o: index, %i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%o, %i, %j] : !sparse_iter.buffer<3, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
