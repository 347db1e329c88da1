// A buffer of the program's own (a global alloc_buffer) written by one
// launch and read by the next: on the GPU it must live in GPU memory.
func.func @staged(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %T = sparse_iter.alloc_buffer [%I] : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "double" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %w = arith.addf %v, %v : f32
    sparse_iter.store %w, %T[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "square" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %T[%i] : !sparse_iter.buffer<1, f32>
    %w = arith.mulf %v, %v : f32
    sparse_iter.store %w, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
