// SDDMM whose dot products go through a buffer of the program's own (a
// global alloc_buffer), then scaled by A's values into B: a warp-shuffle
// schedule adds each row of lanes into that buffer. Parameters as the
// built-in SDDMM's (sptir-bench --op sddmm --kernel).
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
  %S = sparse_iter.alloc_buffer [%I, %J] : !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "sddmm" [%I, %J, %K] "SSR" init {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %S[%i, %j] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %S[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
    %yv = sparse_iter.load %Y[%j, %k] : !sparse_iter.buffer<2, f32>
    %xy = arith.mulf %xv, %yv : f32
    %sum = arith.addf %acc, %xy : f32
    sparse_iter.store %sum, %S[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "scale" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %s = sparse_iter.load %S[%i, %j] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %v = arith.mulf %s, %av : f32
    sparse_iter.store %v, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
