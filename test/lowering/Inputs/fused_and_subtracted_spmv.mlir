// SpMV bodies that leave an element as it was where the source's value is
// zero, written as a fused multiply-add onto it or as a subtraction of the
// product: decompose-format takes them as it takes `old + a * x`.
// CHECK-LABEL: func.func @fma_spmv
// CHECK: sparse_iter.iterate "it.0"
// CHECK-LABEL: func.func @sub_spmv
// CHECK: sparse_iter.iterate "it.0"
func.func @fma_spmv(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %new = math.fma %av, %xv, %old : f32
    sparse_iter.store %new, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

func.func @sub_spmv(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%j] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %p = arith.mulf %av, %xv : f32
    %new = arith.subf %old, %p : f32
    sparse_iter.store %new, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
