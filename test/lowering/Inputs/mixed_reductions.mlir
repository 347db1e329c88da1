// Two updates of one element that do not commute: Y[i] += X[j, i], then,
// where Z > 0, Y[i] = max(Y[i], Z[j, i]). Sequential over j the order is
// fixed; threads that share j (atomic=true) would apply the sums and the
// maxima in any order, so binding j is refused, and the default schedule
// (sparse-pos-auto-bind) keeps j sequential.
func.func @mix(%x: memref<?xf32>, %z: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Z = sparse_iter.match_buffer %z [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "mix" [%J, %I] "RS" body {
  ^bb0(%j: index, %i: index):
    %a = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %xv = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %a, %xv : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
    %zv = sparse_iter.load %Z[%j, %i] : !sparse_iter.buffer<2, f32>
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %zv, %zero : f32
    scf.if %pos {
      %b = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
      %t = arith.maximumf %b, %zv : f32
      // CHECK: mixed_reductions.mlir:[[@LINE+1]]:7: error: lower-loop-bindings: a store in an atomic loop updates an element by arith.maximumf where another update in the loop uses arith.addf on the same memory
      sparse_iter.store %t, %Y[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
