func.func @marked(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{sparse-pos-bind: loop "v" is marked to vectorize; bind a loop around it instead (split it first with sparse-pos-split)}}
  sparse_pos.for "v" spatial %c0 to %c4 attributes {vectorize = 4 : index} {
  ^bb0(%p: index):
  }
  return
}
