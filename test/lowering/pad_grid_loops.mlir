// RUN: sptir-opt %s -p 'builtin.module(pad-grid-loops,canonicalize)' | FileCheck %s
// RUN: sptir-opt %S/Inputs/pad_grid_loops/structure_to_a_reader.mlir --sptir-to-gpu | FileCheck %S/Inputs/pad_grid_loops/structure_to_a_reader.mlir
// RUN: sptir-opt %S/Inputs/pad_grid_loops/reread_scale.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,pad-grid-loops)' | FileCheck %S/Inputs/pad_grid_loops/reread_scale.mlir
// RUN: sptir-opt %S/Inputs/pad_grid_loops/sized_from_memory.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,pad-grid-loops)' | FileCheck %S/Inputs/pad_grid_loops/sized_from_memory.mlir
// RUN: sptir-opt %examples/dcsr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' | FileCheck %s --check-prefix=DCSR
// RUN: sptir-opt %examples/dcsr_spmm.mlir --sptir-to-gpu | FileCheck %s --check-prefix=PTX
// RUN: sptir-opt %s -p 'builtin.module(sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s --check-prefix=EMULATED
// RUN: sptir-opt %examples/dcsr_spmm.mlir -p 'builtin.module(specialize-arguments{function=dcsr_spmm args=11 values=4},lower-sparse-iter,sparse-pos-auto-bind,sptir-stage2-to-launches)' \
// RUN:   | FileCheck %s --check-prefix=SINK
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sparse-pos-bind{loop=csrmm.1 to=threadIdx.x atomic=true},pad-grid-loops)' \
// RUN:   | FileCheck %s --check-prefix=THREAD

// A triangle: each row's loop, bound to blockIdx.x, ends at its row, which
// only the row's block knows. The grid gets the largest row (m) and each
// block tests its column against its row's end.
// CHECK-LABEL: func.func @triangular
//       CHECK: %[[SPAN:.*]] = arith.maxsi %arg1, %c0
//       CHECK: sparse_pos.for "t.0" spatial %c0 to %arg1 attributes {bind = "blockIdx.y"} {
//  CHECK-NEXT: ^bb0(%[[I:.*]]: index):
//  CHECK-NEXT:   sparse_pos.for "t.1" spatial %c0 to %[[SPAN]] attributes {bind = "blockIdx.x"} {
//  CHECK-NEXT:   ^bb0(%[[J:.*]]: index):
//  CHECK-NEXT:     %[[END:.*]] = arith.addi %[[I]], %c1
//  CHECK-NEXT:     %[[REAL:.*]] = arith.cmpi slt, %[[J]], %[[END]]
//  CHECK-NEXT:     scf.if %[[REAL]] {
//  CHECK-NEXT:       sparse_pos.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// Emulated, the lower triangle of a 4 x 4 matrix of zeros becomes ones.
//      EMULATED: [1,  0,  0,  0,  1,  1,  0,  0,  1,  1,  1,  0,  1,  1,  1,  1]
func.func @triangular(%x: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_pos.for "t.0" spatial %c0 to %m attributes {bind = "blockIdx.y"} {
  ^bb0(%i: index):
    %end = arith.addi %i, %c1 : index
    sparse_pos.for "t.1" spatial %c0 to %end attributes {bind = "blockIdx.x"} {
    ^bb0(%j: index):
      %one = arith.constant 1.0 : f32
      sparse_pos.store %one, %X[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc(%c16) : memref<?xf32>
  scf.for %p = %c0 to %c16 step %c1 {
    memref.store %zero, %x[%p] : memref<?xf32>
  }
  func.call @triangular(%x, %c4) : (memref<?xf32>, index) -> ()
  %u = memref.cast %x : memref<?xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<?xf32>
  return
}


// DCSR's stored rows: the loop over them, bound to blockIdx.x, has
// indptr_i[1] - indptr_i[0] positions, which only GPU memory holds; the
// grid gets nnz_rows (indptr_i's domain is [0, nnz_rows]) and each block
// reads the real count itself. The reads on the host are dead.
//   DCSR-LABEL: func.func @dcsr_spmm
//         DCSR: gpu.launch
//         DCSR: %[[SPAN:.*]] = arith.maxsi %arg9, %c0
//    DCSR-NEXT: gpu.launch blocks(%[[B:[^,]*]], %{{.*}}) in (%{{.*}} = %[[SPAN]], %{{.*}} = %c1, %{{.*}} = %c1)
//     DCSR-NOT: memref.load %arg0
//         DCSR: %[[END:.*]] = memref.load %arg0[%c1]
//         DCSR: %[[REAL:.*]] = arith.cmpi slt, %[[B]], %{{.*}}
//    DCSR-NEXT: scf.if %[[REAL]] {
// With four features the stored rows share blocks, 32 on threadIdx.y: the
// rows' loop is split, and the split's guard reads the real count too.
// Whatever the launch uses that the host would read from GPU memory is
// computed again inside it.
//   SINK-LABEL: func.func @dcsr_spmm
//         SINK: gpu.launch
//         SINK: arith.ceildivui
//    SINK-NEXT: %[[SPAN:.*]] = arith.maxsi
//    SINK-NEXT: gpu.launch blocks(%[[B:[^,]*]], %{{.*}}) in (%{{.*}} = %[[SPAN]], {{.*}} threads(%{{[^,]*}}, %[[Y:[^,]*]], %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c32,
//    SINK-NEXT:   %[[HI:.*]] = memref.load %arg0[%c1]
//         SINK:   %[[COUNT:.*]] = arith.subi
//         SINK:   arith.cmpi slt, %[[B]],
//         SINK:   %[[ROW:.*]] = arith.addi %{{.*}}, %[[Y]] : index
//    SINK-NEXT:   arith.cmpi ult, %[[ROW]], %[[COUNT]] : index
// The whole pipeline takes it (it used to refuse the host's reads).
// (two kernels: the zeroing and the product).
// PTX-COUNT-2: .visible .entry dcsr_spmm_kernel(


// Bounds the host knows stay.
// CHECK-LABEL: func.func @host_bounds
//       CHECK: sparse_pos.for "h.0" spatial %c0 to %arg1 attributes {bind = "blockIdx.x"} {
//   CHECK-NOT: scf.if
func.func @host_bounds(%x: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_pos.for "h.0" spatial %c0 to %m attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_pos.store %one, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}


// A bound read from a buffer without a domain has no range: the loop
// stays, for lower-loop-bindings to refuse.
// CHECK-LABEL: func.func @no_domain
//       CHECK: %[[END:.*]] = arith.index_cast
//       CHECK: sparse_pos.for "n.0" spatial %c0 to %[[END]] attributes {bind = "blockIdx.x"} {
//   CHECK-NOT: scf.if
func.func @no_domain(%x: memref<?xf32>, %n: memref<?xi32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %O = sparse_iter.dense_fixed %c1
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %N = sparse_iter.match_buffer %n [%O] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %count = sparse_pos.load %N[%c0] : !sparse_iter.buffer<1, i32>
  %end = arith.index_cast %count : i32 to index
  sparse_pos.for "n.0" spatial %c0 to %end attributes {bind = "blockIdx.x"} {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_pos.store %one, %X[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// Threads are left alone: a block holds at most 1024 of them, and a row's
// bound (nnz) is far above it.
// THREAD: sparse_pos.for "csrmm.1" reduction %c0{{.*}} to %{{[0-9]+}} attributes {atomic, bind = "threadIdx.x"} {
// THREAD-NOT: scf.if
