// Fused SDDMM, stage II (position space) of examples/sddmm_fused.mlir:
// B[i, j] = sum_k X[i, k] * Y[j, k] * A[i, j], iteration "sddmm"
// [fuse(I, J), K] "SSR". One loop walks the flat positions 0 .. nnz of the
// fused (I, J) space (000 Fig. 8); the row is recovered by
// sparse_pos.parent_position (upper-bound search in J_indptr) and the
// position within the row is the flat position minus the row start.
func.func @sddmm_fused(%indptr: memref<?xi32>, %indices: memref<?xi32>,
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
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  sparse_pos.for "sddmm_ij" spatial %c0 to %nnz {
  ^bb0(%vij: index):
    %vi = sparse_pos.parent_position %J, %vij
    %lo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %vj = arith.subi %vij, %lo : index
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
  return
}
