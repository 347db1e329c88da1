// Roundings and fma where their expansions go wrong: beyond 2^63 (what a
// conversion through i64 cannot hold), infinities, NaN, ties, -0, and an
// fma whose product an unfused multiply would round.
// ceiled[i] = ceil(x[i]), rounded[i] = round(x[i]) (halves away from
// zero), even[i] = roundeven(x[i]), fused[i] = fma(x[i], x[i], -1).
func.func @roundings(%x: memref<?xf32>, %ceiled: memref<?xf32>, %rounded: memref<?xf32>,
                     %even: memref<?xf32>, %fused: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %C = sparse_iter.match_buffer %ceiled [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %R = sparse_iter.match_buffer %rounded [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %E = sparse_iter.match_buffer %even [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %F = sparse_iter.match_buffer %fused [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "r" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %c = math.ceil %v : f32
    %r = math.round %v : f32
    %e = math.roundeven %v : f32
    %minus = arith.constant -1.0 : f32
    %f = math.fma %v, %v, %minus : f32
    sparse_iter.store %c, %C[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %r, %R[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %e, %E[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %f, %F[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
