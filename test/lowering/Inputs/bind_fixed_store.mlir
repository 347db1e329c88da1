// Every position stores y[0]: the loop's spatial kind does not make
// its writes distinct, and threads would race on the element.
func.func @one_element(%x: !sparse_iter.buffer<1, f32>, %y: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: positions of loop "s" pass data to each other, so they cannot run at once on threadIdx.x: at two of its positions, the sparse_pos.store at line 9:5 may touch one element, and one of them stores it}}
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%i: index):
    %v = sparse_pos.load %x[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.store %v, %y[%c0] : !sparse_iter.buffer<1, f32>
  }
  return
}
