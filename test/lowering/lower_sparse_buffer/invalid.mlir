// Errors of lower-sparse-buffer on programs that pass the verifier.
// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(lower-sparse-buffer)'

// Stage I input is refused before anything is removed.
func.func @stage_one_input(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{'sparse_iter.iterate' is stage I; run lower-sparse-iter first}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    %w = arith.addf %v, %v : f32
    sparse_iter.store %w, %B[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A copy whose loads feed only stores used to vanish silently.
func.func @stage_one_copy(%a: memref<?xf32>, %b: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{'sparse_iter.iterate' is stage I}}
  sparse_iter.iterate "copy" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %v, %B[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// An axis that escapes to a call cannot be removed: the callee's
// signature is refused.
// expected-error@+1 {{argument #0 of this function is a sparse_iter axis or buffer, which has no storage to lower to}}
func.func private @use(!sparse_iter.axis)
func.func @escaping_axis(%m: index) {
  %I = sparse_iter.dense_fixed %m
  func.call @use(%I) : (!sparse_iter.axis) -> ()
  return
}

// -----

// A buffer passed in as a function argument has no value array or axes to
// flatten positions with.
// expected-error@+1 {{argument #0 of this function is a sparse_iter axis or buffer, which has no storage to lower to: pass the memrefs and sizes, and define axes and buffers inside the function}}
func.func @buffer_without_definition(%A: !sparse_iter.buffer<1, f32>, %m: index) {
  %c0 = arith.constant 0 : index
  sparse_pos.for "it.0" spatial %c0 to %m {
  ^bb0(%p: index):
    %v = sparse_pos.load %A[%p] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A heap buffer allocated in a block's loop and shared by its threads:
// inside the launch each thread would allocate its own.
func.func @global_tile_in_block(%x: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %I = sparse_iter.dense_fixed %m
  %F = sparse_iter.dense_fixed %c8
  %X = sparse_iter.match_buffer %x [%I, %F] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_pos.for "rows" spatial %c0 to %m attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    // expected-error@+1 {{a buffer in scope "global" is allocated inside loop "rows", which runs on the GPU (bound to blockIdx.x), and threads share it: allocate it outside the loops bound to the GPU, or use scope "shared" (a buffer per block) or "local" (a buffer per thread)}}
    %T = sparse_iter.alloc_buffer [%F] scope "global" : !sparse_iter.buffer<1, f32>
    sparse_pos.for "fill" spatial %c0 to %c8 attributes {bind = "threadIdx.x"} {
    ^bb0(%k: index):
      %v = sparse_pos.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
      sparse_pos.store %v, %T[%k] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----

// A rewrite rule left for the lowering: decompose-format applies rules.
func.func @rule_not_decomposed(%x: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %A = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{'sparse_iter.format_rewrite' is stage I; run decompose-format before the lowering, which applies its rules}}
  sparse_iter.format_rewrite %A -> %B map affine_map<(i) -> (i)> inverse affine_map<(i) -> (i)> : !sparse_iter.buffer<1, f32> -> !sparse_iter.buffer<1, f32>
  return
}

// -----

// A size known when compiling that no machine's memory holds, or that
// wraps around when counted in bytes, is refused where the buffer is made.
func.func @huge_buffer(%m: index) {
  %c = arith.constant 4611686018427387904 : index
  %T = sparse_iter.dense_fixed %c
  // expected-error@+1 {{a buffer of 4611686018427387904 elements of f32 takes more than 2^47 bytes, more than any machine's memory}}
  %B = sparse_iter.alloc_buffer [%T] : !sparse_iter.buffer<1, f32>
  return
}

// -----

func.func @negative_buffer(%m: index) {
  %c = arith.constant -3 : index
  %T = sparse_iter.dense_fixed %c
  // expected-error@+1 {{a buffer of f32: one of its axes' spaces has a negative size (-3)}}
  %B = sparse_iter.alloc_buffer [%T] scope "local" : !sparse_iter.buffer<1, f32>
  return
}

// -----

// Two negative lengths: their product is positive, each is still wrong.
func.func @negative_pair(%m: index) {
  %c = arith.constant -1 : index
  %T = sparse_iter.dense_fixed %c
  %U = sparse_iter.dense_fixed %c
  // expected-error@+1 {{a buffer of f32: one of its axes' spaces has a negative size (-1)}}
  %B = sparse_iter.alloc_buffer [%T, %U] : !sparse_iter.buffer<2, f32>
  return
}

// -----

// 2^32 x 2^32 elements wrap to 0 in index arithmetic: refused, not a
// buffer of none. Shared memory says the same, not that its size is
// unknown.
func.func @wrapping_buffer(%m: index) {
  %c = arith.constant 4294967296 : index
  %T = sparse_iter.dense_fixed %c
  %U = sparse_iter.dense_fixed %c
  // expected-error@+1 {{a buffer of f32: its axes' sizes multiply past 2^63 elements, more than any machine's memory}}
  %B = sparse_iter.alloc_buffer [%T, %U] : !sparse_iter.buffer<2, f32>
  return
}

// -----

func.func @wrapping_shared_buffer(%m: index) {
  %c = arith.constant 4294967296 : index
  %T = sparse_iter.dense_fixed %c
  %U = sparse_iter.dense_fixed %c
  // expected-error@+1 {{a buffer of f32: its axes' sizes multiply past 2^63 elements}}
  %B = sparse_iter.alloc_buffer [%T, %U] scope "shared" : !sparse_iter.buffer<2, f32>
  return
}
