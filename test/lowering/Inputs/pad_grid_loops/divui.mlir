// lb = (ip[1] - ip[0]) / 2 : its range lower bound is divui(0 - nnz, 2), a huge unsigned value.
func.func @k(%x: memref<?xf32>, %ip: memref<?xi32>, %m: index, %nnz: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %I = sparse_iter.dense_fixed %m
  %P = sparse_iter.dense_fixed %c2
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %IP = sparse_iter.match_buffer %ip [%P] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %IP in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  %a = sparse_pos.load %IP[%c0] : !sparse_iter.buffer<1, i32>
  %b = sparse_pos.load %IP[%c1] : !sparse_iter.buffer<1, i32>
  %ai = arith.index_cast %a : i32 to index
  %bi = arith.index_cast %b : i32 to index
  %d = arith.subi %bi, %ai : index
  %lb = arith.divui %d, %c2 : index
  sparse_pos.for "t.0" spatial %lb to %m attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_pos.store %one, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
memref.global "private" constant @ipg : memref<2xi32> = dense<[0, 4]>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc(%c6) : memref<?xf32>
  scf.for %p = %c0 to %c6 step %c1 {
    memref.store %zero, %x[%p] : memref<?xf32>
  }
  %g = memref.get_global @ipg : memref<2xi32>
  %ip = memref.cast %g : memref<2xi32> to memref<?xi32>
  func.call @k(%x, %ip, %c6, %c4) : (memref<?xf32>, memref<?xi32>, index, index) -> ()
  %u = memref.cast %x : memref<?xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
