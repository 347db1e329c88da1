// A buffer whose size is read from memory (indptr[m]) is allocated once,
// before the launches that use it: pad-grid-loops reads values again in a
// launch, never makes a buffer again there (each launch had its own T,
// so the products read a T that was never filled).
// CHECK: sparse_iter.alloc_buffer
// CHECK-NOT: sparse_iter.alloc_buffer
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
             %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %sz32 = memref.load %indptr[%m] : memref<?xi32>
  %sz = arith.index_cast %sz32 : i32 to index
  %P = sparse_iter.dense_fixed %sz
  %T = sparse_iter.alloc_buffer [%P] : !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "fill" [%P] "S" body {
  ^bb0(%p: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %T[%p] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %t = sparse_iter.load %T[%j] : !sparse_iter.buffer<1, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %pt = arith.mulf %prod, %t : f32
    %sum = arith.addf %acc, %pt : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
