// RUN: sptir-opt %s --sptir-to-gpu | FileCheck %s
// RUN: sptir-opt %s --sptir-to-cpu -o /dev/null

// SpMM storing f8: A in f8E4M3FN, C in f8E5M2, the products and sums
// rounded to f8E5M2. The kernel loads and stores bytes and converts with
// integer and f32 instructions.
// CHECK: .entry k_kernel
// CHECK: ld.global.s8
// CHECK: cvt.rzi.u32.f32
// CHECK: st.global.b8
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf8E4M3FN>, %b: memref<?xf32>, %c: memref<?xf8E5M2>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf8E4M3FN> -> !sparse_iter.buffer<2, f8E4M3FN>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf8E5M2> -> !sparse_iter.buffer<2, f8E5M2>
  sparse_iter.iterate "mm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %z = arith.constant 0.0 : f8E5M2
    sparse_iter.store %z, %C[%i, %k] : !sparse_iter.buffer<2, f8E5M2>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f8E5M2>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f8E4M3FN>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %a32 = arith.extf %av : f8E4M3FN to f32
    %p = arith.mulf %a32, %bv : f32
    %p8 = arith.truncf %p : f32 to f8E5M2
    %s = arith.addf %acc, %p8 : f8E5M2
    sparse_iter.store %s, %C[%i, %k] : !sparse_iter.buffer<2, f8E5M2>
  }
  return
}
