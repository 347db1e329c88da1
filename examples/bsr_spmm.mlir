// BSR SpMM (the RFC's bsrmm_stage_i): C[i*blk + bi, f] =
//   sum_{j, bj} A[i*blk + bi, j*blk + bj] * B[j*blk + bj, f].
// A is (nb*blk) x (mb*blk) in BSR with blk x blk blocks: the block-row axis
// I = dense_fixed(nb), the block-column axis J = sparse_variable(I) (indptr
// [nb+1], block-column indices [nnzb], ascending per block row), and the
// in-block axes BI, BJ = dense_fixed(blk); a [nnzb*blk*blk] holds the blocks
// in CSR order, each row-major: A is the buffer (I, J, BI, BJ). B is
// (mb*blk) x feat dense, row-major, viewed as (J_detach, BJ, F); C is
// (nb*blk) x feat dense, row-major, viewed as (I, BI, F).
// Iteration order [I, BI, BJ, F, J] "SSRSR" as in the RFC (J after its
// parent I).
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
  sparse_iter.iterate "bsrmm" [%I, %BI, %BJ, %F, %J] "SSRSR" init {
  ^bb0(%i: index, %bi: index, %f: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %bi, %f] : !sparse_iter.buffer<3, f32>
  } body {
  ^bb0(%i: index, %bi: index, %bj: index, %f: index, %j: index):
    %acc = sparse_iter.load %C[%i, %bi, %f] : !sparse_iter.buffer<3, f32>
    %av = sparse_iter.load %A[%i, %j, %bi, %bj] : !sparse_iter.buffer<4, f32>
    %bv = sparse_iter.load %B[%j, %bj, %f] : !sparse_iter.buffer<3, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %bi, %f] : !sparse_iter.buffer<3, f32>
  }
  return
}
