// Each position clears its element, written `last - k`, then adds to it,
// the index computed again: the same arithmetic of the same values, so
// one element a position, as if the index were computed once.
func.func @reversed(%t: !sparse_iter.buffer<1, f32>, %x: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%k: index):
    %zero = arith.constant 0.0 : f32
    %r = arith.subi %last, %k : index
    sparse_pos.store %zero, %t[%r] : !sparse_iter.buffer<1, f32>
    %again = arith.subi %last, %k : index
    %old = sparse_pos.load %t[%again] : !sparse_iter.buffer<1, f32>
    %v = sparse_pos.load %x[%k] : !sparse_iter.buffer<1, f32>
    %sum = arith.addf %old, %v : f32
    sparse_pos.store %sum, %t[%again] : !sparse_iter.buffer<1, f32>
  }
  return
}

// One off: position k reads the element position k - 1 clears.
func.func @neighbour(%t: !sparse_iter.buffer<1, f32>, %x: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  // expected-error@+1 {{sparse-pos-bind: positions of loop "s" pass data to each other}}
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%k: index):
    %zero = arith.constant 0.0 : f32
    %r = arith.subi %last, %k : index
    sparse_pos.store %zero, %t[%r] : !sparse_iter.buffer<1, f32>
    %next = arith.subi %n, %k : index
    %old = sparse_pos.load %t[%next] : !sparse_iter.buffer<1, f32>
    %v = sparse_pos.load %x[%k] : !sparse_iter.buffer<1, f32>
    %sum = arith.addf %old, %v : f32
    sparse_pos.store %sum, %t[%next] : !sparse_iter.buffer<1, f32>
  }
  return
}
