// CSR SpMM scaled by a value read from a scratch cell that is written
// again after the read (1.0 read, then 5.0 stored): the scale is 1.
// pad-grid-loops reads again inside a launch only memory the function
// never writes, so the launch uses the host's read (which
// place-device-memory then refuses, the host touching memory: an error,
// not a scale of 5).
// CHECK: %[[SCALE:.*]] = memref.load %alloc
// CHECK: sparse_pos.for "csrmm.0"
// CHECK-NOT: memref.load %alloc
// CHECK: arith.mulf %{{.*}}, %[[SCALE]] : f32
func.func @k(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
             %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%Jd, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %scr = memref.alloc(%c1) : memref<?xf32>
  %f1 = arith.constant 1.0 : f32
  %f5 = arith.constant 5.0 : f32
  memref.store %f1, %scr[%c0] : memref<?xf32>
  %s = memref.load %scr[%c0] : memref<?xf32>
  memref.store %f5, %scr[%c0] : memref<?xf32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %p0 = arith.mulf %av, %bv : f32
    %prod = arith.mulf %p0, %s : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
