// CSR SpMM that leaves every term of the last row out: its output row
// stays zero. sptir-bench must report it WRONG even where hub rows make
// most of the output's norm.
module {
  func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
    %I = sparse_iter.dense_fixed %m
    %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
    %JB = sparse_iter.dense_fixed %n
    %K = sparse_iter.dense_fixed %feat
    %A = sparse_iter.match_buffer %a[%I, %J] : memref<?xf32> -> <2, f32>
    %B = sparse_iter.match_buffer %b[%JB, %K] : memref<?xf32> -> <2, f32>
    %C = sparse_iter.match_buffer %c[%I, %K] : memref<?xf32> -> <2, f32>
    sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
    ^bb0(%i: index, %k: index):
      %zero = arith.constant 0.000000e+00 : f32
      sparse_iter.store %zero, %C[%i, %k] : <2, f32>
    } body {
    ^bb0(%i: index, %j: index, %k: index):
      %sum = sparse_iter.load %C[%i, %k] : <2, f32>
      %av = sparse_iter.load %A[%i, %j] : <2, f32>
      %bv = sparse_iter.load %B[%j, %k] : <2, f32>
      %term = arith.mulf %av, %bv : f32
      %one = arith.constant 1 : index
      %last = arith.subi %m, %one : index
      %is_last = arith.cmpi eq, %i, %last : index
      %zero = arith.constant 0.000000e+00 : f32
      %kept = arith.select %is_last, %zero, %term : f32
      %next = arith.addf %sum, %kept : f32
      sparse_iter.store %next, %C[%i, %k] : <2, f32>
    }
    return
  }
}
