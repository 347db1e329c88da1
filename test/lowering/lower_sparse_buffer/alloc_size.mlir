// A buffer the program allocates over sparse axes holds as many elements
// as the spaces its chains of axes close, taken from the axes' operands
// (nnz, lengths), never read from the structure arrays: on the GPU the
// host sizes it without reading GPU memory.
// RUN: sptir-opt %s --split-input-file -p 'builtin.module(lower-sparse-iter,lower-sparse-buffer)' | FileCheck %s
// RUN: sptir-opt %s --split-input-file -p 'builtin.module(sptir-to-gpu)' | FileCheck %s --check-prefix=GPU

// CSR: nnz elements; with a dense feature axis after it, nnz times its length.
// CHECK-LABEL: func.func @csr
//   CHECK-NOT: memref.load
//       CHECK: memref.alloc(%arg4) : memref<?xf32>
//       CHECK: %[[N:.*]] = arith.muli %arg4, %arg5 : index
//       CHECK: memref.alloc(%[[N]]) : memref<?xf32>
func.func @csr(%indptr: memref<?xi32>, %indices: memref<?xi32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.dense_fixed %feat
  %T = sparse_iter.alloc_buffer [%I, %J] : !sparse_iter.buffer<2, f32>
  %U = sparse_iter.alloc_buffer [%I, %J, %K] : !sparse_iter.buffer<3, f32>
  sparse_iter.iterate "fill" [%I, %J, %K] "SSS" body {
  ^bb0(%i: index, %j: index, %k: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %T[%i, %j] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %one, %U[%i, %j, %k] : !sparse_iter.buffer<3, f32>
  }
  return
}

// -----

// ELL (a sparse_fixed axis under the rows): rows times slots. Blocks of
// BSR: stored blocks times the block's two sides.
// CHECK-LABEL: func.func @ell_and_bsr
//       CHECK: %[[E:.*]] = arith.muli %arg2, %c4 : index
//       CHECK: memref.alloc(%[[E]]) : memref<?xf32>
//       CHECK: %[[B1:.*]] = arith.muli %arg4, %c4 : index
//       CHECK: %[[B:.*]] = arith.muli %[[B1]], %c4 : index
//       CHECK: memref.alloc(%[[B]]) : memref<?xf32>
func.func @ell_and_bsr(%ell_indices: memref<?xi32>, %indptr: memref<?xi32>, %m: index, %n: index, %nnzb: index) {
  %c4 = arith.constant 4 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_fixed %I, %ell_indices length %n nnz_cols %c4 : memref<?xi32>
  %E = sparse_iter.alloc_buffer [%I, %J] : !sparse_iter.buffer<2, f32>
  %JB = sparse_iter.sparse_variable %I, %indptr, %ell_indices length %n nnz %nnzb sorted : memref<?xi32>, memref<?xi32>
  %BI = sparse_iter.dense_fixed %c4
  %BJ = sparse_iter.dense_fixed %c4
  %B = sparse_iter.alloc_buffer [%I, %JB, %BI, %BJ] : !sparse_iter.buffer<4, f32>
  sparse_iter.iterate "e" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %E[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "b" [%I, %JB, %BI, %BJ] "SSSS" body {
  ^bb0(%i: index, %j: index, %bi: index, %bj: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %B[%i, %j, %bi, %bj] : !sparse_iter.buffer<4, f32>
  }
  return
}

// -----

// A per-edge intermediate between two iterations, on the device (the host
// allocates nnz elements of GPU memory without reading indptr).
// GPU-LABEL: llvm.func @staged
//   GPU-NOT: llvm.load
//       GPU: llvm.call @mgpuMemAlloc
func.func @staged(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %b: memref<?xf32>,
                  %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %T = sparse_iter.alloc_buffer [%I, %J] : !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "dbl" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %w = arith.addf %v, %v : f32
    sparse_iter.store %w, %T[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "cp" [%I, %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %v = sparse_iter.load %T[%i, %j] : !sparse_iter.buffer<2, f32>
    sparse_iter.store %v, %B[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
