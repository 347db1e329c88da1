// Steps of a recurrence per batch: a step's rows read the row the step
// before wrote, one position over. The rows of one step are independent,
// and so are the batches, but rows and batches in one launch would put the
// steps inside it, with no barrier between them.
func.func @batched_steps(%x: !sparse_iter.buffer<3, f32>, %batches: index, %steps: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{sparse-pos-bind: binding loop "batch" puts loop "row", bound inside it, in one launch with it, where positions of "row" at different positions of "batch" pass data to each other: the sparse_pos.load at line 17:14 and the sparse_pos.store at line 19:9 may touch one element, and one of them stores it}}
  sparse_pos.for "batch" spatial %c0 to %batches {
  ^bb0(%b: index):
    sparse_pos.for "step" spatial %c0 to %steps {
    ^bb0(%t: index):
      sparse_pos.for "row" spatial %c0 to %n {
      ^bb0(%i: index):
        %next = arith.addi %t, %c1 : index
        %right = arith.addi %i, %c1 : index
        %v = sparse_pos.load %x[%b, %t, %right] : !sparse_iter.buffer<3, f32>
        %w = arith.mulf %v, %v : f32
        sparse_pos.store %w, %x[%b, %next, %i] : !sparse_iter.buffer<3, f32>
      }
    }
  }
  return
}
