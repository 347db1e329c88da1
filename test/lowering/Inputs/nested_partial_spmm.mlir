// The rows walked by an outer iteration, the non-zeros by an inner one: a
// decomposition of A needs one iteration over both of its axes.
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>,
             %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
             %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    // expected-error@+1 {{decompose-format: the iteration must walk every axis of the decomposed buffer}}
    sparse_iter.iterate "inner" [%J, %K] "RS" body {
    ^bb0(%j: index, %k: index):
      %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
      %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
      %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
      %prod = arith.mulf %av, %bv : f32
      %sum = arith.addf %acc, %prod : f32
      sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
