// CSR SpMM through a buffer of each row's features (scope "local"), whose
// size the run decides.
func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    %L = sparse_iter.alloc_buffer [%K] scope "local" : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "acc" [%J, %K] "RS" init {
    ^bb0(%k: index):
      %zero = arith.constant 0.0 : f32
      sparse_iter.store %zero, %L[%k] : !sparse_iter.buffer<1, f32>
    } body {
    ^bb0(%j: index, %k: index):
      %acc = sparse_iter.load %L[%k] : !sparse_iter.buffer<1, f32>
      %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
      %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
      %p = arith.mulf %av, %bv : f32
      %s = arith.addf %acc, %p : f32
      sparse_iter.store %s, %L[%k] : !sparse_iter.buffer<1, f32>
    }
    sparse_iter.iterate "out" [%K] "S" body {
    ^bb0(%k: index):
      %v = sparse_iter.load %L[%k] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
