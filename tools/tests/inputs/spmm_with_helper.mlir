// CSR SpMM whose products come from a helper function, and whose sums
// are added to C by another that takes C's buffer: --kernel finds the
// kernel (the one function no other calls) and inlines the calls first
// (a buffer exists only where it is defined).
// The product of two values, a helper the kernel calls.
func.func private @product(%x: f32, %y: f32) -> f32 {
  %p = arith.mulf %x, %y : f32
  return %p : f32
}

// A private helper nothing calls: not taken for the kernel (the one
// function no other calls), which the inliner would delete anyway.
func.func private @unused(%x: f32) -> f32 {
  return %x : f32
}

// C[i, k] += t, on the kernel's buffer C.
func.func private @accumulate(%C: !sparse_iter.buffer<2, f32>, %i: index, %k: index, %t: f32) {
  %cv = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
  %s = arith.addf %cv, %t : f32
  sparse_iter.store %s, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  return
}

func.func @csr_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                    %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%JD, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %p = func.call @product(%av, %bv) : (f32, f32) -> f32
    func.call @accumulate(%C, %i, %k, %p) : (!sparse_iter.buffer<2, f32>, index, index, f32) -> ()
  }
  return
}
