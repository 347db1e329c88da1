// DCSR SpMM, stage II (position space) of examples/dcsr_spmm.mlir:
// iterations "zero" [I_detach, K] "SS" and "dcsrmm" [O, I, J, K] "SSRS".
// Both compressed axes get auxiliary buffers. I's indptr is over [O] (extra
// 1: the two entries {0, nnz_rows}); J's indptr and indices hang under
// I_dense, the dense view of the sparse parent I, so they are over
// [O, I_dense] (extra 1) and [O, I_dense, J_dense]. C's row is the coordinate
// I_indices[o, i] and B's row J_indices[o, i, j].
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
  // Auxiliary buffers of I.
  %I_dense = sparse_iter.dense_variable %O, %indptr_i length %m nnz %nnz_rows : memref<?xi32>
  %I_indptr = sparse_iter.match_buffer %indptr_i [%O] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %I_indices = sparse_iter.match_buffer %indices_i [%O, %I_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  // Auxiliary buffers of J.
  %J_dense = sparse_iter.dense_variable %I_dense, %indptr_j length %n nnz %nnz : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr_j [%O, %I_dense] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %J_indices = sparse_iter.match_buffer %indices_j [%O, %I_dense, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  %c0 = arith.constant 0 : index
  sparse_pos.assume_domain %I_indptr in [%c0, %nnz_rows] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %I_indices in [%c0, %m] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<3, i32>
  // "zero": C = 0.
  sparse_pos.for "zero_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    sparse_pos.for "zero_k" spatial %c0 to %feat {
    ^bb0(%vk: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    }
  }
  // "dcsrmm": C[I_indices[o, i], k] += A[o, i, j] * B[J_indices[o, i, j], k].
  sparse_pos.for "dcsrmm_o" spatial %c0 to %c1 {
  ^bb0(%vo: index):
    %vo1 = arith.addi %vo, %c1 : index
    %ilo32 = sparse_pos.load %I_indptr[%vo] : !sparse_iter.buffer<1, i32>
    %ihi32 = sparse_pos.load %I_indptr[%vo1] : !sparse_iter.buffer<1, i32>
    %ilo = arith.index_cast %ilo32 : i32 to index
    %ihi = arith.index_cast %ihi32 : i32 to index
    %ilen = arith.subi %ihi, %ilo : index
    sparse_pos.for "dcsrmm_i" spatial %c0 to %ilen {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_indices[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      %vi1 = arith.addi %vi, %c1 : index
      %jlo32 = sparse_pos.load %J_indptr[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %jhi32 = sparse_pos.load %J_indptr[%vo, %vi1] : !sparse_iter.buffer<2, i32>
      %jlo = arith.index_cast %jlo32 : i32 to index
      %jhi = arith.index_cast %jhi32 : i32 to index
      %jlen = arith.subi %jhi, %jlo : index
      sparse_pos.for "dcsrmm_j" reduction %c0 to %jlen {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_indices[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        sparse_pos.for "dcsrmm_k" spatial %c0 to %feat {
        ^bb0(%vk: index):
          %acc = sparse_pos.load %C[%row, %vk] : !sparse_iter.buffer<2, f32>
          %av = sparse_pos.load %A[%vo, %vi, %vj] : !sparse_iter.buffer<3, f32>
          %bv = sparse_pos.load %B[%col, %vk] : !sparse_iter.buffer<2, f32>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc, %prod : f32
          sparse_pos.store %sum, %C[%row, %vk] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  return
}
