// RUN: sptir-opt %s --sptir-to-cpu | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s --check-prefix=RESULT
// RUN: sptir-opt %s -p 'builtin.module(lower-sparse-iter)' | FileCheck %s

// A[i, j, k] in CSF: where j is not in row i, there is no fiber whose
// bounds K's search could read; it searches only where j was found. Before,
// it searched from the position J's search stopped at, reading kptr one
// past its end.
// CHECK-LABEL: func.func @csf3q
//       CHECK: %[[J:.*]], %[[JFOUND:.*]] = sparse_pos.find
//  CHECK-NEXT: %[[K:.*]]:2 = scf.if %[[JFOUND]] -> (index, i1) {
//  CHECK-NEXT:   %{{.*}}, %{{.*}} = sparse_pos.find %{{.*}}[%{{.*}}, %[[J]]]
// (2, 4, 2) is stored (7); (2, 5, 0) has no fiber (2, 5): the default, -1.
// RESULT: [7,  -1]
func.func @csf3q(%jptr: memref<?xi32>, %jidx: memref<?xi32>, %kptr: memref<?xi32>, %kidx: memref<?xi32>, %a: memref<?xf32>,
                %qi: memref<?xi32>, %qj: memref<?xi32>, %qk: memref<?xi32>, %out: memref<?xf32>,
                %m: index, %n: index, %p: index, %nnzj: index, %nnzk: index, %nq: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %jptr, %jidx length %n nnz %nnzj sorted : memref<?xi32>, memref<?xi32>
  %K = sparse_iter.sparse_variable %J, %kptr, %kidx length %p nnz %nnzk sorted : memref<?xi32>, memref<?xi32>
  %Q = sparse_iter.dense_fixed %nq
  %A = sparse_iter.match_buffer %a [%I, %J, %K] {default_value = -1.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %QI = sparse_iter.match_buffer %qi [%Q] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %QJ = sparse_iter.match_buffer %qj [%Q] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %QK = sparse_iter.match_buffer %qk [%Q] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %O = sparse_iter.match_buffer %out [%Q] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "query" [%Q] "S" body {
  ^bb0(%q: index):
    %a0 = sparse_iter.load %QI[%q] : !sparse_iter.buffer<1, i32>
    %a1 = sparse_iter.load %QJ[%q] : !sparse_iter.buffer<1, i32>
    %a2 = sparse_iter.load %QK[%q] : !sparse_iter.buffer<1, i32>
    %i = arith.index_cast %a0 : i32 to index
    %j = arith.index_cast %a1 : i32 to index
    %k = arith.index_cast %a2 : i32 to index
    %v = sparse_iter.load %A[%i, %j, %k] : !sparse_iter.buffer<3, f32>
    sparse_iter.store %v, %O[%q] : !sparse_iter.buffer<1, f32>
  }
  return
}
// Driver: CSF m=3,n=5,p=5. Fibers: (0,1),(0,3),(2,0),(2,4). kptr has nnzj+1 = 5 entries (a subview of a
// 6-entry array whose 6th entry, past the end of kptr, is 2000000000).
// Query (2, 4, 2) is stored (value 7); query (2, 5, 0) has no fiber j=5: the J search ends at position
// nnzj = 4 and the K lookup then reads kptr[4], kptr[5] (past the end) and binary-searches kidx up to 2e9.
memref.global "private" constant @jptr : memref<4xi32> = dense<[0, 2, 2, 4]>
memref.global "private" constant @jidx : memref<4xi32> = dense<[1, 3, 0, 4]>
memref.global "private" constant @kptr6 : memref<6xi32> = dense<[0, 2, 3, 5, 7, 2000000000]>
memref.global "private" constant @kidx : memref<7xi32> = dense<[0, 2, 1, 0, 4, 1, 2]>
memref.global "private" constant @vals : memref<7xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]>
memref.global "private" constant @qi : memref<2xi32> = dense<[2, 2]>
memref.global "private" constant @qj : memref<2xi32> = dense<[4, 5]>
memref.global "private" constant @qk : memref<2xi32> = dense<[2, 0]>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %g0 = memref.get_global @jptr : memref<4xi32>
  %g1 = memref.get_global @jidx : memref<4xi32>
  %g2 = memref.get_global @kptr6 : memref<6xi32>
  %g3 = memref.get_global @kidx : memref<7xi32>
  %g4 = memref.get_global @vals : memref<7xf32>
  %g5 = memref.get_global @qi : memref<2xi32>
  %g6 = memref.get_global @qj : memref<2xi32>
  %g7 = memref.get_global @qk : memref<2xi32>
  %o = memref.alloc() : memref<2xf32>
  %sv = memref.subview %g2[0] [5] [1] : memref<6xi32> to memref<5xi32, strided<[1]>>
  %x0 = memref.cast %g0 : memref<4xi32> to memref<?xi32>
  %x1 = memref.cast %g1 : memref<4xi32> to memref<?xi32>
  %x2 = memref.cast %sv : memref<5xi32, strided<[1]>> to memref<?xi32>
  %x3 = memref.cast %g3 : memref<7xi32> to memref<?xi32>
  %x4 = memref.cast %g4 : memref<7xf32> to memref<?xf32>
  %x5 = memref.cast %g5 : memref<2xi32> to memref<?xi32>
  %x6 = memref.cast %g6 : memref<2xi32> to memref<?xi32>
  %x7 = memref.cast %g7 : memref<2xi32> to memref<?xi32>
  %x8 = memref.cast %o : memref<2xf32> to memref<?xf32>
  %m = arith.constant 3 : index
  %n = arith.constant 6 : index
  %p = arith.constant 5 : index
  %nj = arith.constant 4 : index
  %nk = arith.constant 7 : index
  %nq = arith.constant 2 : index
  call @csf3q(%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7, %x8, %m, %n, %p, %nj, %nk, %nq) : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xf32>, index, index, index, index, index, index) -> ()
  %u = memref.cast %o : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
