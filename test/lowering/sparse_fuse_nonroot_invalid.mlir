// RUN: sptir-opt %s --verify-diagnostics --pass-pipeline='builtin.module(sparse-fuse{iteration=csf loops=1,2})'

// The non-zeros of each row's fibers (J, K under the root I) are one space
// per row: fusing them needs a space per position of I, so sparse-fuse
// refuses (lower-sparse-iter would, later and further from the cause).
func.func @csf(%pj: memref<?xi32>, %ij: memref<?xi32>, %pk: memref<?xi32>, %ik: memref<?xi32>, %a: memref<?xf32>,
               %y: memref<?xf32>, %m: index, %n: index, %p: index, %nnzj: index, %nnzk: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %pj, %ij length %n nnz %nnzj sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %pk, %ik length %p nnz %nnzk sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J, %K] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{sparse-fuse: axis #1 has a parent axis; a fused group must start at a root axis (one without a parent)}}
  sparse_iter.iterate "csf" [%I, %J, %K] "SRR" body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %av = sparse_iter.load %A[%i, %j, %k] : !sparse_iter.buffer<3, f32>
    %s = arith.addf %acc, %av : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
