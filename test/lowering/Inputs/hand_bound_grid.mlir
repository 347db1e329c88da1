// A grid loop the hand schedule bound stays as it is: sparse-pos-auto-bind
// does not split it into blocks of threads, though nothing inside can be
// the threads (a row sum's reduction), as it would split an unbound one.
// CHECK-LABEL: func.func @row_sums
//       CHECK:   sparse_pos.for "r_i" spatial {{.*}} attributes {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "r_j" reduction
//   CHECK-NOT:   bind
func.func @row_sums(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %c0 = arith.constant 0 : index
  sparse_pos.for "r_i" spatial %c0 to %m {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    sparse_pos.store %z, %Y[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.for "r_j" reduction %c0 to %n {
    ^bb0(%j: index):
      %a = sparse_pos.load %Y[%i] : !sparse_iter.buffer<1, f32>
      %b = sparse_pos.load %X[%i, %j] : !sparse_iter.buffer<2, f32>
      %s = arith.addf %a, %b : f32
      sparse_pos.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
