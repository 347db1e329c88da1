// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sparse-pos-fuse{loops=a,b})'

func.func @not_perfect(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "a" spatial %c0 to %n {
  ^bb0(%i: index):
    // expected-error@+1 {{sparse-pos-fuse: loops "a" and "b" are not perfectly nested: this op between them writes or loops}}
    sparse_pos.store %f, %out[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.for "b" spatial %c0 to %n {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----
// A triangle: the inner trip count changes with the outer position.
func.func @triangle(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "a" spatial %c0 to %n {
  ^bb0(%i: index):
    // expected-error@+1 {{sparse-pos-fuse: the bounds of "b" depend on the position of "a"}}
    sparse_pos.for "b" spatial %c0 to %i {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----
func.func @after_inner(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "a" spatial %c0 to %n {
  ^bb0(%i: index):
    sparse_pos.for "b" spatial %c0 to %n {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
    // expected-error@+1 {{sparse-pos-fuse: loops "a" and "b" are not perfectly nested: this op follows "b" inside "a"}}
    sparse_pos.store %f, %out[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
