// RUN: sptir-opt %s -p 'builtin.module(specialize-arguments{function=rows args=3 values=16},lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s

// Rows on blocks, each row's features on threads: the row's buffer is the
// block's workgroup memory, and the threads meet at a barrier between
// writing it and reading it reversed.
// CHECK-LABEL: func.func @rows
//       CHECK: gpu.launch {{.*}} workgroup(%[[T:.*]] : memref<16xf32, #gpu.address_space<workgroup>>)
//       CHECK: memref.store %{{.*}}, %[[T]][%{{.*}}]
//  CHECK-NEXT: gpu.barrier
//       CHECK: memref.load %[[T]]
func.func @rows(%b: memref<?xf32>, %c: memref<?xf32>, %m: index, %feat: index) {
  %c1 = arith.constant 1 : index
  %last = arith.subi %feat, %c1 : index
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %K2 = sparse_iter.dense_fixed %feat
  %B = sparse_iter.match_buffer %b [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    %T = sparse_iter.alloc_buffer [%K] scope "shared" : !sparse_iter.buffer<1, f32>
    sparse_iter.iterate "a" [%K] "S" body {
    ^bb0(%k: index):
      %v = sparse_iter.load %B[%i, %k] : !sparse_iter.buffer<2, f32>
      sparse_iter.store %v, %T[%k] : !sparse_iter.buffer<1, f32>
    }
    sparse_iter.iterate "b" [%K2] "S" body {
    ^bb0(%k: index):
      %r = arith.subi %last, %k : index
      %v = sparse_iter.load %T[%r] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}
