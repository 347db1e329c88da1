func.func @spatial(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: loop "s" is not a reduction; shuffle=true adds the lanes' sums of one output}}
  sparse_pos.for "s" spatial %c0 to %n {
  ^bb0(%p: index):
  }
  return
}
