// Values read once, outside every iteration, that the iterations use: a
// scaled SpMV, y[i] = beta + alpha * sum_j A[i, j] x[j] with alpha = s[0]
// and beta = 2 * s[1]. s's length is the run's, so each read is under a
// check that it is in range. On the GPU the reads have no thread of their
// own: sink-host-reads moves them, checks included, into the kernels.
func.func @scaled(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %x: memref<?xf32>,
                  %s: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index, %nnz: index, %slots: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %P = sparse_iter.dense_fixed %slots
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%J_detach] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %S = sparse_iter.match_buffer %s [%P] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %alpha = sparse_iter.load %S[%c0] : !sparse_iter.buffer<1, f32>
  %half_beta = sparse_iter.load %S[%c1] : !sparse_iter.buffer<1, f32>
  %beta = arith.addf %half_beta, %half_beta : f32
  sparse_iter.iterate "scaled" [%I, %J] "SR" init {
  ^bb0(%i: index):
    sparse_iter.store %beta, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %q = arith.mulf %alpha, %p : f32
    %t = arith.addf %acc, %q : f32
    sparse_iter.store %t, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

