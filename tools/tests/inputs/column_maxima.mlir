// Column maxima of a dense n x m matrix: a reduction that is no sum, whose
// rows the default GPU schedule puts on blocks that update each column's
// maximum atomically (a compare-and-swap loop on the GPU).
func.func @colmax(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "colmax" [%J, %I] "RS" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f32>
    %s = arith.maximumf %v, %acc : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
