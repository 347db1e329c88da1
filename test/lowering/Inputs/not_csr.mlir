// A buffer over one dense axis: not something the CSR rules decompose.
func.func @dense(%a: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{decompose-format: a built-in rule needs exactly one sparse input buffer (read, never written) in the iteration, found 0}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
