// sparse_iter.alloc_buffer by scope: global is heap memory freed where its
// block ends; local is stack memory (each thread's own on the GPU); shared
// is one buffer per block of threads, sized when compiling, marked for
// lower-loop-bindings to make it workgroup memory.
// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s

// CHECK-LABEL: func.func @scopes
//       CHECK: %[[G:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
//       CHECK: %[[L:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//       CHECK: %[[S:.*]] = memref.alloca() {sptir.shared} : memref<8xf32>
//       CHECK: memref.store %{{.*}}, %[[G]]
//       CHECK: memref.store %{{.*}}, %[[L]]
//       CHECK: memref.store %{{.*}}, %[[S]]
//       CHECK: memref.dealloc %[[G]]
//   CHECK-NOT: memref.dealloc
func.func @scopes(%n: index) {
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %I = sparse_iter.dense_fixed %n
  %E = sparse_iter.dense_fixed %c8
  %G = sparse_iter.alloc_buffer [%I] : !sparse_iter.buffer<1, f32>
  %L = sparse_iter.alloc_buffer [%I] scope "local" : !sparse_iter.buffer<1, f32>
  %S = sparse_iter.alloc_buffer [%E] scope "shared" : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "g" [%I] "S" body {
  ^bb0(%i: index):
    sparse_iter.store %one, %G[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %one, %L[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "s" [%E] "S" body {
  ^bb0(%e: index):
    sparse_iter.store %one, %S[%e] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A shared buffer's size must be known when compiling.
func.func @unsized(%n: index) {
  %one = arith.constant 1.0 : f32
  %I = sparse_iter.dense_fixed %n
  // expected-error@+1 {{a buffer in scope "shared" needs a size known when compiling}}
  %S = sparse_iter.alloc_buffer [%I] scope "shared" : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "s" [%I] "S" body {
  ^bb0(%i: index):
    sparse_iter.store %one, %S[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A constant length of zero is a known size: an empty shared buffer.
// CHECK-LABEL: func.func @empty
//       CHECK: memref.alloca() {sptir.shared} : memref<0xf32>
func.func @empty() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %E = sparse_iter.dense_fixed %c0
  %S = sparse_iter.alloc_buffer [%E] scope "shared" : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "s" [%E] "S" body {
  ^bb0(%e: index):
    sparse_iter.store %one, %S[%e] : !sparse_iter.buffer<1, f32>
  }
  return
}
