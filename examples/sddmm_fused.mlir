// Fused SDDMM (SparseTIR Fig. 3 after sparse_fuse(I, J), Fig. 6):
// B[i, j] = sum_k X[i, k] * Y[j, k] * A[i, j] for every non-zero (i, j) of A.
// A and B are m x n sparse matrices with one CSR structure (indptr [m+1],
// indices [nnz], columns ascending per row) held by the axes (I, J); a [nnz]
// and b [nnz] are their values. X is m x feat dense, row-major, over (I, K);
// Y is n x feat dense, row-major, over (J_detach, K).
// fuse(I, J) walks the nnz non-zeros of (I, J) with one loop (TACO's
// collapse), so the work is balanced over non-zeros rather than rows.
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
  sparse_iter.iterate "sddmm" [fuse(%I, %J), %K] "SSR" init {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %B[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
    %yv = sparse_iter.load %Y[%j, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xy = arith.mulf %xv, %yv : f32
    %prod = arith.mulf %xy, %av : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
