// Plain SpMM, its value A[i,j] read only when the matrix is weighted
// (a flag, here nnz != 0; 1.0 otherwise): a guarded read of a value
// whose place the non-zero loop's own bounds keep in range. Split, the
// loop's tail guard is part of what keeps it there.
func.func @csr_spmm(%arg0: memref<?xi32>, %arg1: memref<?xi32>, %arg2: memref<?xf32>, %arg3: memref<?xf32>, %arg4: memref<?xf32>, %arg5: index, %arg6: index, %arg7: index, %arg8: index) {
  %0 = sparse_iter.dense_fixed %arg5
  %1 = sparse_iter.sparse_variable %0, %arg0, %arg1 length %arg6 nnz %arg7 sorted : memref<?xi32>, memref<?xi32>
  %2 = sparse_iter.dense_fixed %arg6
  %3 = sparse_iter.dense_fixed %arg8
  %4 = sparse_iter.match_buffer %arg2[%0, %1] : memref<?xf32> -> <2, f32>
  %5 = sparse_iter.match_buffer %arg3[%2, %3] : memref<?xf32> -> <2, f32>
  %6 = sparse_iter.match_buffer %arg4[%0, %3] : memref<?xf32> -> <2, f32>
  sparse_iter.iterate "csrmm" [%0, %1, %3] "SRS" init {
  ^bb0(%i: index, %k: index):
    %cst = arith.constant 0.000000e+00 : f32
    sparse_iter.store %cst, %6[%i, %k] : <2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %c0 = arith.constant 0 : index
    %weighted = arith.cmpi ne, %arg7, %c0 : index
    %a = scf.if %weighted -> (f32) {
      %x = sparse_iter.load %4[%i, %j] : <2, f32>
      scf.yield %x : f32
    } else {
      %z = arith.constant 1.0 : f32
      scf.yield %z : f32
    }
    %7 = sparse_iter.load %6[%i, %k] : <2, f32>
    %9 = sparse_iter.load %5[%j, %k] : <2, f32>
    %10 = arith.mulf %a, %9 : f32
    %11 = arith.addf %7, %10 : f32
    sparse_iter.store %11, %6[%i, %k] : <2, f32>
  }
  return
}
