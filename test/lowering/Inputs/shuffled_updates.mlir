// Updates beside a warp-shuffled reduction. @colred: column maxima by
// arith.maxnumf, a column's rows over 8 lanes: the butterfly's maxnumf
// becomes PTX's max.f32, as the kernel's own do (lower-math-to-nvvm runs
// after lower-subgroup-reductions). @rr: row sums over 8 lanes, and an
// in-place clamp B[i, j] = max(B[i, j], A[i, j]) whose element is each
// lane's own: a plain store, not a shared update.
func.func @colred(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "cr" [%J, %I] "RS" body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f32>
    %s = arith.maxnumf %v, %acc : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

func.func @rr(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
              %s: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %S = sparse_iter.match_buffer %s [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rr" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    sparse_iter.store %z, %S[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %acc = sparse_iter.load %S[%i] : !sparse_iter.buffer<1, f32>
    %sum = arith.addf %acc, %e : f32
    sparse_iter.store %sum, %S[%i] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %B[%i, %j] : !sparse_iter.buffer<2, f32>
    %c = arith.maximumf %old, %e : f32
    sparse_iter.store %c, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
