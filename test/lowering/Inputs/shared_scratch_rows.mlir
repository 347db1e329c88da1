// Each (row, feature) sums its row's products in a buffer of scope
// "shared": one per block. The features cannot share it as threads, nor
// can the rows, split into blocks of threads: each row is a block's.
// CHECK: sparse_pos.for "rows.0" spatial {{.*}} attributes {bind = "blockIdx.x"}
// CHECK-NEXT: ^bb0
// CHECK-NOT: bind =
// CHECK: sparse_pos.for "rows.1" spatial {{[^{]*}} {
// CHECK-NOT: bind =
// CHECK: return
func.func @rows(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
                %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%JD, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %c1 = arith.constant 1 : index
  %E = sparse_iter.dense_fixed %c1
  sparse_iter.iterate "rows" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %T = sparse_iter.alloc_buffer [%E] scope "shared" : !sparse_iter.buffer<1, f32>
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %T[%c0] : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "inner" [%J] "R" body {
    ^bb0(%j: index):
      %acc = sparse_iter.load %T[%c0] : !sparse_iter.buffer<1, f32>
      %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
      %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
      %p = arith.mulf %av, %bv : f32
      %s = arith.addf %acc, %p : f32
      sparse_iter.store %s, %T[%c0] : !sparse_iter.buffer<1, f32>
    }
    %r = sparse_iter.load %T[%c0] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %r, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
