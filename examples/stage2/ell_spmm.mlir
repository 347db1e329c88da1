// ELL SpMM, stage II (position space) of examples/ell_spmm.mlir: iteration
// "ellmm" [I, J, K] "SRS". J is fixed, so its loop runs 0 .. nnz_cols and no
// indptr is materialized. J's indices appear as J_indices over
// [I, J_dense], where J_dense = dense_fixed(nnz_cols) is the dense view of
// the sparse_fixed axis (a root: the dialect has no fixed dense child axis;
// the flat layout i * nnz_cols + j is the same). B's row is the coordinate
// J_indices[i, j].
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
  // Auxiliary buffer of J.
  %J_dense = sparse_iter.dense_fixed %nnz_cols
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %c0 = arith.constant 0 : index
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  sparse_pos.for "ellmm_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    // init: C[i, :] = 0 before the first reduction step.
    sparse_pos.for "ellmm_init_k" spatial %c0 to %feat {
    ^bb0(%vk: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    }
    sparse_pos.for "ellmm_j" reduction %c0 to %nnz_cols {
    ^bb0(%vj: index):
      %col32 = sparse_pos.load %J_indices[%vi, %vj] : !sparse_iter.buffer<2, i32>
      %col = arith.index_cast %col32 : i32 to index
      sparse_pos.for "ellmm_k" spatial %c0 to %feat {
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
