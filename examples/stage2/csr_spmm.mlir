// CSR SpMM, stage II (position space) of examples/csr_spmm.mlir:
// C[i, k] = sum_j A[i, j] * B[j, k], iteration "csrmm" [I, J, K] "SRS".
// A is m x n in CSR (indptr [m+1], indices [nnz], a [nnz]); B is n x feat
// dense; C is m x feat dense. J's structure arrays appear as the auxiliary
// buffers J_indptr (over [I], extra 1) and J_indices (over [I, J_dense]).
// The init (C = 0) is its own loop nest over k before the reduction loop j;
// B is read at the coordinate J_indices[i, j].
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
  // Auxiliary buffers (SparseTIR Fig 7).
  %J_dense = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr [%I] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  sparse_pos.for "csrmm_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    // init: C[i, :] = 0 before the first reduction step.
    sparse_pos.for "csrmm_init_k" spatial %c0 to %feat {
    ^bb0(%vk: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    }
    %vi1 = arith.addi %vi, %c1 : index
    %lo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
    %hi32 = sparse_pos.load %J_indptr[%vi1] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    sparse_pos.for "csrmm_j" reduction %c0 to %len {
    ^bb0(%vj: index):
      %col32 = sparse_pos.load %J_indices[%vi, %vj] : !sparse_iter.buffer<2, i32>
      %col = arith.index_cast %col32 : i32 to index
      sparse_pos.for "csrmm_k" spatial %c0 to %feat {
      ^bb0(%vk: index):
        %acc = sparse_pos.load %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
        %av = sparse_pos.load %A[%vi, %vj] : !sparse_iter.buffer<2, f32>
        %bv = sparse_pos.load %B[%col, %vk] : !sparse_iter.buffer<2, f32>
        %prod = arith.mulf %av, %bv : f32
        %sum = arith.addf %acc, %prod : f32
        sparse_pos.store %sum, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
      }
    }
  }
  return
}
