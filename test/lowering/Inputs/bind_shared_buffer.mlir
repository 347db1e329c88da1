// A buffer in scope "shared" that each position of the loop uses as its
// own: on blocks each position has its block's copy, but a row's lanes
// (threadIdx.x) would all share one.
func.func @staged(%x: !sparse_iter.buffer<1, f32>, %y: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %E = sparse_iter.dense_fixed %c1
  // expected-error@+1 {{sparse-pos-bind: positions of loop "s" pass data to each other, so they cannot run at once on threadIdx.x: at two of its positions, the sparse_pos.store at line 13:5 may touch one element, and one of them stores it}}
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%i: index):
    %t = sparse_iter.alloc_buffer [%E] scope "shared" : !sparse_iter.buffer<1, f32>
    %v = sparse_pos.load %x[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.store %v, %t[%c0] : !sparse_iter.buffer<1, f32>
    %w = sparse_pos.load %t[%c0] : !sparse_iter.buffer<1, f32>
    sparse_pos.store %w, %y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
