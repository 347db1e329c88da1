// Two iterations read A: a built-in rule named for one rewrites that one
// alone, its copy right before it.
func.func @two(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
               %x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "first" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "second" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
    %new = arith.maximumf %old, %av : f32
    // expected-error@+1 {{decompose-format: the new format also holds zeros where the source stores nothing}}
    sparse_iter.store %new, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
