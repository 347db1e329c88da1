func.func @bound_twice(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: loop "s" is already bound}}
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%p: index):
  }
  return
}
