// CSF TTM, stage II (position space) of examples/csf_ttm.mlir: iteration
// "ttm" [I, J, K, L] "SSRS". J and K get auxiliary buffers; K's hang under
// J_dense, the dense view of its sparse parent J: K_indptr over [I, J_dense]
// (extra 1) and K_indices over [I, J_dense, K_dense]. The init
// (Y[i, j, :] = 0) is its own loop nest over l before the reduction loop k.
// A and Y are read by positions (Y shares A's (I, J)); B's row is the
// coordinate K_indices[i, j, k].
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
  // Auxiliary buffers of J.
  %J_dense = sparse_iter.dense_variable %I, %indptr_j length %n nnz %nnz_j : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr_j [%I] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices_j [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  // Auxiliary buffers of K.
  %K_dense = sparse_iter.dense_variable %J_dense, %indptr_k length %p nnz %nnz_k : memref<?xi32>
  %K_indptr = sparse_iter.match_buffer %indptr_k [%I, %J_dense] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %K_indices = sparse_iter.match_buffer %indices_k [%I, %J_dense, %K_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz_j] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %K_indptr in [%c0, %nnz_k] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %K_indices in [%c0, %p] : !sparse_iter.buffer<3, i32>
  sparse_pos.for "ttm_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    %vi1 = arith.addi %vi, %c1 : index
    %jlo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
    %jhi32 = sparse_pos.load %J_indptr[%vi1] : !sparse_iter.buffer<1, i32>
    %jlo = arith.index_cast %jlo32 : i32 to index
    %jhi = arith.index_cast %jhi32 : i32 to index
    %jlen = arith.subi %jhi, %jlo : index
    sparse_pos.for "ttm_j" spatial %c0 to %jlen {
    ^bb0(%vj: index):
      // init: Y[i, j, :] = 0 before the first reduction step.
      sparse_pos.for "ttm_init_l" spatial %c0 to %feat {
      ^bb0(%vl: index):
        %zero = arith.constant 0.0 : f32
        sparse_pos.store %zero, %Y[%vi, %vj, %vl] : !sparse_iter.buffer<3, f32>
      }
      %vj1 = arith.addi %vj, %c1 : index
      %klo32 = sparse_pos.load %K_indptr[%vi, %vj] : !sparse_iter.buffer<2, i32>
      %khi32 = sparse_pos.load %K_indptr[%vi, %vj1] : !sparse_iter.buffer<2, i32>
      %klo = arith.index_cast %klo32 : i32 to index
      %khi = arith.index_cast %khi32 : i32 to index
      %klen = arith.subi %khi, %klo : index
      sparse_pos.for "ttm_k" reduction %c0 to %klen {
      ^bb0(%vk: index):
        %kc32 = sparse_pos.load %K_indices[%vi, %vj, %vk] : !sparse_iter.buffer<3, i32>
        %kc = arith.index_cast %kc32 : i32 to index
        sparse_pos.for "ttm_l" spatial %c0 to %feat {
        ^bb0(%vl: index):
          %acc = sparse_pos.load %Y[%vi, %vj, %vl] : !sparse_iter.buffer<3, f32>
          %av = sparse_pos.load %A[%vi, %vj, %vk] : !sparse_iter.buffer<3, f32>
          %bv = sparse_pos.load %B[%kc, %vl] : !sparse_iter.buffer<2, f32>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc, %prod : f32
          sparse_pos.store %sum, %Y[%vi, %vj, %vl] : !sparse_iter.buffer<3, f32>
        }
      }
    }
  }
  return
}
