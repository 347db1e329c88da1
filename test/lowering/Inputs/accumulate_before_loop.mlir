// Each non-zero overwrites C[i, k] with what it held before the loop plus
// its own product (the last one wins): not a sum over the non-zeros, so
// they may not add at once, atomically or in a shuffle.
func.func @ell_spmm(%cols: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %w: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_fixed %I, %cols length %n nnz_cols %w : memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%JD, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %before = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    sparse_iter.iterate "nz" [%J] "R" body {
    ^bb0(%j: index):
      %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
      %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
      %p = arith.mulf %av, %bv : f32
      %s = arith.addf %before, %p : f32
      // CHECK: accumulate_before_loop.mlir:[[@LINE+1]]:7: error: lower-loop-bindings: a store in an atomic loop updates a value of the element read before the loop
      sparse_iter.store %s, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
