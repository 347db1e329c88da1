// CSC SpMM, stage II (position space) of examples/csc_spmm.mlir:
// C[i, k] = sum_j A[i, j] * B[j, k] with A (J, I) in CSC; iterations "zero"
// [I_detach, K] "SS" and "cscmm" [J, I, K] "RSS".
// The row axis I's structure arrays appear as the auxiliary buffers I_indptr
// (over [J], extra 1) and I_indices (over [J, I_dense]). A and B are read by
// positions (A's J and I are the loops' own axes, B's J is dense); C's row is
// the coordinate I_indices[j, i].
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
  // Auxiliary buffers of I.
  %I_dense = sparse_iter.dense_variable %J, %indptr length %m nnz %nnz : memref<?xi32>
  %I_indptr = sparse_iter.match_buffer %indptr [%J] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %I_indices = sparse_iter.match_buffer %indices [%J, %I_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %I_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %I_indices in [%c0, %m] : !sparse_iter.buffer<2, i32>
  // "zero": C = 0.
  sparse_pos.for "zero_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    sparse_pos.for "zero_k" spatial %c0 to %feat {
    ^bb0(%vk: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    }
  }
  // "cscmm": C[I_indices[j, i], k] += A[j, i] * B[j, k].
  sparse_pos.for "cscmm_j" reduction %c0 to %n {
  ^bb0(%vj: index):
    %vj1 = arith.addi %vj, %c1 : index
    %lo32 = sparse_pos.load %I_indptr[%vj] : !sparse_iter.buffer<1, i32>
    %hi32 = sparse_pos.load %I_indptr[%vj1] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    sparse_pos.for "cscmm_i" spatial %c0 to %len {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_indices[%vj, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      sparse_pos.for "cscmm_k" spatial %c0 to %feat {
      ^bb0(%vk: index):
        %acc = sparse_pos.load %C[%row, %vk] : !sparse_iter.buffer<2, f32>
        %av = sparse_pos.load %A[%vj, %vi] : !sparse_iter.buffer<2, f32>
        %bv = sparse_pos.load %B[%vj, %vk] : !sparse_iter.buffer<2, f32>
        %prod = arith.mulf %av, %bv : f32
        %sum = arith.addf %acc, %prod : f32
        sparse_pos.store %sum, %C[%row, %vk] : !sparse_iter.buffer<2, f32>
      }
    }
  }
  return
}
