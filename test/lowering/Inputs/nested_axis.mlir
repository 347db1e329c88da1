// Out[i, j, k] += M[i, j] * X[k] where K is a sparse level under M's column
// axis J (a CSF output); M is the one sparse input, decomposed by a built-in rule.
func.func @k(%ip: memref<?xi32>, %ix: memref<?xi32>, %kp: memref<?xi32>, %kx: memref<?xi32>, %mm: memref<?xf32>,
             %x: memref<?xf32>, %o: memref<?xf32>, %m: index, %n: index, %p: index, %nnz: index, %nnzk: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %ip, %ix length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %kp, %kx length %p nnz %nnzk sorted : memref<?xi32>, memref<?xi32>
  %KD = sparse_iter.dense_fixed %p
  %M = sparse_iter.match_buffer %mm [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%KD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %O = sparse_iter.match_buffer %o [%I, %J, %K] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  // expected-error@+1 {{decompose-format: the iteration walks axis #2, whose parent is axis #1 of the decomposed buffer; the new format replaces that axis, so nothing would be left for it to hang from}}
  sparse_iter.iterate "it" [%I, %J, %K] "SSS" body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %O[%i, %j, %k] : !sparse_iter.buffer<3, f32>
    %mv = sparse_iter.load %M[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%k] : !sparse_iter.buffer<1, f32>
    %p1 = arith.mulf %mv, %xv : f32
    %s = arith.addf %acc, %p1 : f32
    sparse_iter.store %s, %O[%i, %j, %k] : !sparse_iter.buffer<3, f32>
  }
  return
}
