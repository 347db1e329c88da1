// Column maxima of a CSR matrix: rows are a max reduction (sequential on
// the host), each row's non-zeros launched once per row, whose bounds
// the launch reads from indptr again. A helper that only asks indptr its
// size writes nothing, so that stays allowed.
// CHECK: gpu.binary
func.func private @len(%x: memref<?xi32>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %x, %c0 : memref<?xi32>
  return %d : index
}
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
             %y: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %len = func.call @len(%indptr) : (memref<?xi32>) -> index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%Jd] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "zero" [%Jd] "S" body {
  ^bb0(%j: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %Y[%j] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "colmax" [%I, %J] "RS" body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%j] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.maximumf %v, %acc : f32
    sparse_iter.store %s, %Y[%j] : !sparse_iter.buffer<1, f32>
  }
  return
}
