// A GAT layer's two kernels: SDDMM computes the attention values O on A's
// structure, then SpMM aggregates X with them. A rule written after the
// SDDMM stores O in ELL (one row of w slots a row, padding columns out of
// range) for the SpMM.
func.func @gat(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
               %x: memref<?xf32>, %o: memref<?xf32>, %c: memref<?xf32>,
               %m: index, %n: index, %nnz: index, %feat: index,
               %ecols: memref<?xi32>, %eo: memref<?xf32>, %w: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Xi = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %O = sparse_iter.match_buffer %o [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %JE = sparse_iter.sparse_fixed %I, %ecols length %n nnz_cols %w : memref<?xi32>
  %OE = sparse_iter.match_buffer %eo [%I, %JE] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "sddmm" [%I, %J, %K] "SSR" init {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %O[%i, %j] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %O[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %Xi[%i, %k] : !sparse_iter.buffer<2, f32>
    %yv = sparse_iter.load %X[%j, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xy = arith.mulf %xv, %yv : f32
    %prod = arith.mulf %xy, %av : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %O[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.format_rewrite %O -> %OE map affine_map<(i, j) -> (i, j)> inverse affine_map<(i, j) -> (i, j)> {sptir.exact}
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "spmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %ov = sparse_iter.load %O[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %X[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %ov, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
