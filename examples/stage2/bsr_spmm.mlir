// BSR SpMM, stage II (position space) of examples/bsr_spmm.mlir, after the
// RFC's bsrmm_stage_ii: iteration "bsrmm" [I, BI, BJ, F, J] "SSRSR".
// One loop per axis in iteration order; the init (C[i, bi, :] = 0) is its
// own loop nest over f before the first reduction loop bj. A is read by
// positions; B's block column is the coordinate J_indices[i, j].
func.func @bsr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %nb: index, %mb: index, %nnzb: index, %blk: index,
                    %feat: index) {
  %I = sparse_iter.dense_fixed %nb
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %mb nnz %nnzb sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %mb
  %BI = sparse_iter.dense_fixed %blk
  %BJ = sparse_iter.dense_fixed %blk
  %F = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J, %BI, %BJ] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %BJ, %F] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %C = sparse_iter.match_buffer %c [%I, %BI, %F] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  // Auxiliary buffers of J.
  %J_dense = sparse_iter.dense_variable %I, %indptr length %mb nnz %nnzb : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr [%I] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %J_indptr in [%c0, %nnzb] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %mb] : !sparse_iter.buffer<2, i32>
  sparse_pos.for "bsrmm_i" spatial %c0 to %nb {
  ^bb0(%vi: index):
    sparse_pos.for "bsrmm_bi" spatial %c0 to %blk {
    ^bb0(%vbi: index):
      // init: C[i, bi, :] = 0 before the first reduction step.
      sparse_pos.for "bsrmm_init_f" spatial %c0 to %feat {
      ^bb0(%vf: index):
        %zero = arith.constant 0.0 : f32
        sparse_pos.store %zero, %C[%vi, %vbi, %vf] : !sparse_iter.buffer<3, f32>
      }
      sparse_pos.for "bsrmm_bj" reduction %c0 to %blk {
      ^bb0(%vbj: index):
        sparse_pos.for "bsrmm_f" spatial %c0 to %feat {
        ^bb0(%vf: index):
          %vi1 = arith.addi %vi, %c1 : index
          %lo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
          %hi32 = sparse_pos.load %J_indptr[%vi1] : !sparse_iter.buffer<1, i32>
          %lo = arith.index_cast %lo32 : i32 to index
          %hi = arith.index_cast %hi32 : i32 to index
          %len = arith.subi %hi, %lo : index
          sparse_pos.for "bsrmm_j" reduction %c0 to %len {
          ^bb0(%vj: index):
            %col32 = sparse_pos.load %J_indices[%vi, %vj] : !sparse_iter.buffer<2, i32>
            %col = arith.index_cast %col32 : i32 to index
            %acc = sparse_pos.load %C[%vi, %vbi, %vf] : !sparse_iter.buffer<3, f32>
            %av = sparse_pos.load %A[%vi, %vj, %vbi, %vbj] : !sparse_iter.buffer<4, f32>
            %bv = sparse_pos.load %B[%col, %vbj, %vf] : !sparse_iter.buffer<3, f32>
            %prod = arith.mulf %av, %bv : f32
            %sum = arith.addf %acc, %prod : f32
            sparse_pos.store %sum, %C[%vi, %vbi, %vf] : !sparse_iter.buffer<3, f32>
          }
        }
      }
    }
  }
  return
}
