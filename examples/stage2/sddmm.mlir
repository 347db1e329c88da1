// SDDMM, stage II (position space) of examples/sddmm.mlir:
// B[i, j] = sum_k X[i, k] * Y[j, k] * A[i, j], iteration "sddmm" [I, J, K]
// "SSR". The init (B = 0) runs once per non-zero before the reduction loop k.
// A and B are read by positions (vi, vj); Y's column is the coordinate
// J_indices[i, j].
func.func @sddmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                 %a: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>,
                 %b: memref<?xf32>,
                 %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // Auxiliary buffers of J.
  %J_dense = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr [%I] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  sparse_pos.for "sddmm_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    %vi1 = arith.addi %vi, %c1 : index
    %lo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
    %hi32 = sparse_pos.load %J_indptr[%vi1] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    sparse_pos.for "sddmm_j" spatial %c0 to %len {
    ^bb0(%vj: index):
      // init: B[i, j] = 0 before the first reduction step.
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %B[%vi, %vj] : !sparse_iter.buffer<2, f32>
      %col32 = sparse_pos.load %J_indices[%vi, %vj] : !sparse_iter.buffer<2, i32>
      %col = arith.index_cast %col32 : i32 to index
      sparse_pos.for "sddmm_k" reduction %c0 to %feat {
      ^bb0(%vk: index):
        %acc = sparse_pos.load %B[%vi, %vj] : !sparse_iter.buffer<2, f32>
        %xv = sparse_pos.load %X[%vi, %vk] : !sparse_iter.buffer<2, f32>
        %yv = sparse_pos.load %Y[%col, %vk] : !sparse_iter.buffer<2, f32>
        %av = sparse_pos.load %A[%vi, %vj] : !sparse_iter.buffer<2, f32>
        %xy = arith.mulf %xv, %yv : f32
        %prod = arith.mulf %xy, %av : f32
        %sum = arith.addf %acc, %prod : f32
        sparse_pos.store %sum, %B[%vi, %vj] : !sparse_iter.buffer<2, f32>
      }
    }
  }
  return
}
