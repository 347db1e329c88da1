// ub = index_cast(ip[0] + %k) with %k an i32 argument: the range mixes index (domain) and i32 (host value).
func.func @k(%x: memref<?xf32>, %ip: memref<?xi32>, %m: index, %nnz: index, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %P = sparse_iter.dense_fixed %c1
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %IP = sparse_iter.match_buffer %ip [%P] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %IP in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  %a = sparse_pos.load %IP[%c0] : !sparse_iter.buffer<1, i32>
  %s = arith.addi %a, %k : i32
  %ub = arith.index_cast %s : i32 to index
  sparse_pos.for "t.0" spatial %c0 to %ub attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_pos.store %one, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
