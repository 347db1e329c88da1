// ub = ip[0] * 2^16, built as 16 doublings d(k+1) = d(k) + d(k): a DAG of 16 ops.
func.func @k(%x: memref<?xf32>, %ip: memref<?xi32>, %m: index, %nnz: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %P = sparse_iter.dense_fixed %c1
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %IP = sparse_iter.match_buffer %ip [%P] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %IP in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  %a = sparse_pos.load %IP[%c0] : !sparse_iter.buffer<1, i32>
  %d0 = arith.index_cast %a : i32 to index
  %d1 = arith.addi %d0, %d0 : index
  %d2 = arith.addi %d1, %d1 : index
  %d3 = arith.addi %d2, %d2 : index
  %d4 = arith.addi %d3, %d3 : index
  %d5 = arith.addi %d4, %d4 : index
  %d6 = arith.addi %d5, %d5 : index
  %d7 = arith.addi %d6, %d6 : index
  %d8 = arith.addi %d7, %d7 : index
  %d9 = arith.addi %d8, %d8 : index
  %d10 = arith.addi %d9, %d9 : index
  %d11 = arith.addi %d10, %d10 : index
  %d12 = arith.addi %d11, %d11 : index
  %d13 = arith.addi %d12, %d12 : index
  %d14 = arith.addi %d13, %d13 : index
  %d15 = arith.addi %d14, %d14 : index
  %d16 = arith.addi %d15, %d15 : index
  sparse_pos.for "t.0" spatial %c0 to %d16 attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_pos.store %one, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
