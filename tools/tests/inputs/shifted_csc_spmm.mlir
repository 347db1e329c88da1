// CSC SpMM into shifted columns, C[i, k + 1] += A[i, j] * B[j, k], with C
// `w` wide: a computed coordinate that may fall outside C (k + 1 >= w),
// which several columns j add to at once when they run on blocks.
func.func @shifted(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
                   %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index, %w: index) {
  %J = sparse_iter.dense_fixed %n
  %I = sparse_iter.sparse_variable %J, %indptr, %indices length %m nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %ID = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %W = sparse_iter.dense_fixed %w
  %A = sparse_iter.match_buffer %a [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%ID, %W] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "shifted" [%J, %I, %K] "RSS" body {
  ^bb0(%j: index, %i: index, %k: index):
    %c1 = arith.constant 1 : index
    %k1 = arith.addi %k, %c1 : index
    %old = sparse_iter.load %C[%i, %k1] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%j, %i] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %av, %bv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %C[%i, %k1] : !sparse_iter.buffer<2, f32>
  }
  return
}
