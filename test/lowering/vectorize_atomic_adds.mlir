// RUN: sptir-opt %s --split-input-file -p 'builtin.module(vectorize-atomic-adds)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=128},sparse-pos-split{loop=cscmm.2.i factor=4},sparse-pos-vectorize{loop=cscmm.2.i.i},sparse-pos-bind{loop=cscmm.2.i.o to=threadIdx.x},sparse-pos-bind{loop=cscmm.0 to=blockIdx.x atomic=true},sparse-pos-auto-bind,sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=PTX
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=128},sparse-pos-split{loop=cscmm.2.i factor=4},sparse-pos-vectorize{loop=cscmm.2.i.i},sparse-pos-bind{loop=cscmm.2.i.o to=threadIdx.x},sparse-pos-bind{loop=cscmm.0 to=blockIdx.x atomic=true},sparse-pos-auto-bind,sptir-stage2-to-gpu{chip=sm_80})' | FileCheck %s --check-prefix=SM80

// CSC SpMM with vectorized features, its column loop on blocks adding to
// C atomically: on sm_90 the aligned version adds 4 features in one
// vector reduction; the scalar version (unaligned features) keeps scalar
// atomics. sm_80 has no vector reduction.
// PTX: .version 8.1
// PTX-DAG: red.global.add.v4.f32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// PTX-DAG: atom.global.add.f32
// SM80-NOT: red.global.add.v
// SM80: atom.global.add.f32
// SM80-NOT: red.global.add.v

// Four adds of one aligned vector, at i .. i+3: one red.global.add.v4.f32
// at the aligned pointer plus 4 i bytes, after the last lane is extracted.
// CHECK-LABEL: gpu.func @four
//       CHECK: %[[E3:.*]] = vector.extract %{{.*}}[3]
//       CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg0
//       CHECK: %[[BYTES:.*]] = arith.muli %arg2, %c4
//       CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[BYTES]]
//       CHECK: %[[I64:.*]] = arith.index_cast %[[ADDRESS]] : index to i64
//       CHECK: %[[POINTER:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr
//       CHECK: llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}" %[[POINTER]], %{{.*}}, %{{.*}}, %{{.*}}, %[[E3]] : (!llvm.ptr, f32, f32, f32, f32) -> ()
//   CHECK-NOT: memref.atomic_rmw
//       CHECK: gpu.return
gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx81">] {
  gpu.func @four(%m: memref<?xf32>, %v: vector<4xf32>, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %e0 = vector.extract %v[0] : f32 from vector<4xf32>
    %a0 = memref.atomic_rmw addf %e0, %m[%i] {sptir.vector_add = 4 : i64} : (f32, memref<?xf32>) -> f32
    %e1 = vector.extract %v[1] : f32 from vector<4xf32>
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %e1, %m[%i1] : (f32, memref<?xf32>) -> f32
    %e2 = vector.extract %v[2] : f32 from vector<4xf32>
    %i2 = arith.addi %i, %c2 : index
    %a2 = memref.atomic_rmw addf %e2, %m[%i2] : (f32, memref<?xf32>) -> f32
    %e3 = vector.extract %v[3] : f32 from vector<4xf32>
    %i3 = arith.addi %i, %c3 : index
    %a3 = memref.atomic_rmw addf %e3, %m[%i3] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}

// -----

// Two lanes: red.global.add.v2.f32.
// CHECK-LABEL: gpu.func @two
//       CHECK: llvm.inline_asm has_side_effects "red.global.add.v2.f32 [$0], {$1, $2};", "l,f,f,~{memory}"
//   CHECK-NOT: memref.atomic_rmw
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx83">] {
  gpu.func @two(%m: memref<?xf32>, %a: f32, %b: f32, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %b, %m[%i1] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}

// -----

// What does not fit the marker's claim keeps its scalar atomics: a chip
// or PTX version without vector reductions, lanes that are not one apart,
// a result in use, an op with effects between the lanes, workgroup memory.
// CHECK-LABEL: gpu.module @old_chip
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-LABEL: gpu.module @old_ptx
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-LABEL: gpu.module @checks
//   CHECK-LABEL: gpu.func @gap
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-LABEL: gpu.func @used
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-LABEL: gpu.func @store_between
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-LABEL: gpu.func @shared
//       CHECK-COUNT-2: memref.atomic_rmw
//   CHECK-NOT: llvm.inline_asm
gpu.module @old_chip [#nvvm.target<chip = "sm_80", features = "+ptx81">] {
  gpu.func @pair(%m: memref<?xf32>, %a: f32, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}
gpu.module @old_ptx [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  gpu.func @pair(%m: memref<?xf32>, %a: f32, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}
gpu.module @checks [#nvvm.target<chip = "sm_90", features = "+ptx81">] {
  gpu.func @gap(%m: memref<?xf32>, %a: f32, %i: index) kernel {
    %c2 = arith.constant 2 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    %i1 = arith.addi %i, %c2 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
  gpu.func @used(%m: memref<?xf32>, %out: memref<?xf32>, %a: f32, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<?xf32>) -> f32
    memref.store %a0, %out[%i] : memref<?xf32>
    gpu.return
  }
  gpu.func @store_between(%m: memref<?xf32>, %a: f32, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<?xf32>) -> f32
    memref.store %a, %m[%i] : memref<?xf32>
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
  gpu.func @shared(%a: f32, %i: index) workgroup(%m: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %c1 = arith.constant 1 : index
    %a0 = memref.atomic_rmw addf %a, %m[%i] {sptir.vector_add = 2 : i64} : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    %i1 = arith.addi %i, %c1 : index
    %a1 = memref.atomic_rmw addf %a, %m[%i1] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    gpu.return
  }
}
