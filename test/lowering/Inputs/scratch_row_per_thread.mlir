// Each row accumulates its products in a scratch row T[k] of scope
// "shared", made anew for each row. With the rows on threadIdx.y, split
// by a constant, each row of a block gets a tile of its own; bound whole
// (a count only the run knows), they would all share the block's one.
// SPLIT: gpu.launch {{.*}} workgroup(%{{.*}} : memref<4x32xf32, #gpu.address_space<workgroup>>)
func.func @rows(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
                %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %c32 = arith.constant 32 : index
  %E = sparse_iter.dense_fixed %c32
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%JD, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    // WHOLE: scratch_row_per_thread.mlir:[[@LINE+1]]:10: error: privatize-row-tiles: this buffer in scope "shared" is made anew at each position of loop "rows.0", bound to threadIdx.y, whose positions are threads of one block and would share the block's one copy of it
    %T = sparse_iter.alloc_buffer [%E] scope "shared" : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "z" [%K] "S" body {
    ^bb0(%k: index):
      %zero = arith.constant 0.0 : f32
      sparse_iter.store %zero, %T[%k] : !sparse_iter.buffer<1, f32>
    }
    sparse_iter.iterate "acc" [%J, %K] "RS" body {
    ^bb0(%j: index, %k: index):
      %acc = sparse_iter.load %T[%k] : !sparse_iter.buffer<1, f32>
      %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
      %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
      %p = arith.mulf %av, %bv : f32
      %s = arith.addf %acc, %p : f32
      sparse_iter.store %s, %T[%k] : !sparse_iter.buffer<1, f32>
    }
    sparse_iter.iterate "out" [%K] "S" body {
    ^bb0(%k: index):
      %r = sparse_iter.load %T[%k] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %r, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
