// CSR SpMM whose B row is read through the column array as a buffer of
// its own: C[i, k] = sum_j A[i, j] * B[cols[i, j], k]. The column is an
// indirect coordinate, so B's read is range-checked (a value chosen by an
// scf.if), which must not keep a row's lanes from their warp shuffle.
func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Cols = sparse_iter.match_buffer %indices [%I, %J] : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %col32 = sparse_iter.load %Cols[%i, %j] : !sparse_iter.buffer<2, i32>
    %col = arith.index_cast %col32 : i32 to index
    %bv = sparse_iter.load %B[%col, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
