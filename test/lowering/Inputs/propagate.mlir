// Repeated sparse propagation, X[t + 1] = A X[t] for t < steps: each step
// reads the whole row the step before it wrote, so the steps run in turn,
// but the rows of one step are independent.
func.func @propagate(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %x: memref<?xf32>,
                     %steps: index, %n: index, %nnz: index) {
  %T = sparse_iter.dense_fixed %steps
  %I = sparse_iter.dense_fixed %n
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %c1 = arith.constant 1 : index
  %rows = arith.addi %steps, %c1 : index
  %TX = sparse_iter.dense_fixed %rows
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%TX, %JD] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "prop" [%T, %I, %J] "SSR" init {
  ^bb0(%t: index, %i: index):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1 : index
    %next = arith.addi %t, %one : index
    sparse_iter.store %zero, %X[%next, %i] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%t: index, %i: index, %j: index):
    %one = arith.constant 1 : index
    %next = arith.addi %t, %one : index
    %acc = sparse_iter.load %X[%next, %i] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%t, %j] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %av, %xv : f32
    %s = arith.addf %acc, %p : f32
    sparse_iter.store %s, %X[%next, %i] : !sparse_iter.buffer<2, f32>
  }
  return
}
