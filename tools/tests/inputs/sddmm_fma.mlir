// SDDMM whose dot product accumulates with math.fma: the shuffled and
// vectorized schedules share it between lanes like an addition
// (split-fma-accumulations).
func.func @sddmm(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "sddmm" [%I, %J, %K] "SSR" init {
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
    %sum = math.fma %xy, %av, %acc : f32
    sparse_iter.store %sum, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
