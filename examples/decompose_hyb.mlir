// Format decomposition, CSR -> two ELL buckets (hyb with one column
// partition), written as rules. C[i, k] = sum_j A[i, j] * B[j, k] with A in
// CSR (indptr, indices, a; m x n, nnz). Bucket b holds rows_b [nrows_b] (row
// ids) with cols_b [nrows_b * width_b] (their columns, padded with the
// out-of-range column n) and values a_b [nrows_b * width_b], filled by the
// copy iterations; every non-zero of A sits in exactly one bucket slot, and
// a bucket lists each row at most once (a long row split over several of
// its rows needs `{repeats = array<i64: 1>}` on the rule, after the
// inverse, as the built-in hyb rule has: the rows then add to C in turn,
// atomically on the GPU). B is n x feat, C is m x feat, dense row-major.
func.func @decompose_hyb(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                         %b: memref<?xf32>, %c: memref<?xf32>,
                         %m: index, %n: index, %nnz: index, %feat: index,
                         %rows_0: memref<?xi32>, %cols_0: memref<?xi32>, %a_0: memref<?xf32>,
                         %nrows_0: index, %width_0: index,
                         %rows_1: memref<?xi32>, %cols_1: memref<?xi32>, %a_1: memref<?xf32>,
                         %nrows_1: index, %width_1: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %one = arith.constant 1 : index

  %O0 = sparse_iter.dense_fixed %one
  %I0 = sparse_iter.sparse_fixed %O0, %rows_0 length %m nnz_cols %nrows_0 : memref<?xi32>
  %J0 = sparse_iter.sparse_fixed %I0, %cols_0 length %n nnz_cols %width_0 : memref<?xi32>
  %A0 = sparse_iter.match_buffer %a_0 [%O0, %I0, %J0] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  sparse_iter.format_rewrite %A -> %A0
      map affine_map<(i, j) -> (0, i, j)> inverse affine_map<(o, i, j) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<3, f32>

  %O1 = sparse_iter.dense_fixed %one
  %I1 = sparse_iter.sparse_fixed %O1, %rows_1 length %m nnz_cols %nrows_1 : memref<?xi32>
  %J1 = sparse_iter.sparse_fixed %I1, %cols_1 length %n nnz_cols %width_1 : memref<?xi32>
  %A1 = sparse_iter.match_buffer %a_1 [%O1, %I1, %J1] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  sparse_iter.format_rewrite %A -> %A1
      map affine_map<(i, j) -> (0, i, j)> inverse affine_map<(o, i, j) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<3, f32>

  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
