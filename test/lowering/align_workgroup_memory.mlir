// RUN: sptir-opt %s --split-input-file -p 'builtin.module(align-workgroup-memory)' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=9},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=9},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=9 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-bind{loop=csrmm.1.i.cache to=threadIdx.x},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=PTX

// Tiles get 16 bytes; an attribution's other attributes stay, and so does
// an alignment already given.
// CHECK-LABEL: gpu.func @tiles
//  CHECK-SAME: workgroup(%{{.*}} : memref<9xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<9xi32, #gpu.address_space<workgroup>> {foo = 1 : i64, llvm.align = 16 : i64}, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
// CHECK-LABEL: gpu.func @no_tiles
//   CHECK-NOT: llvm.align
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tiles(%out: memref<?xf32>)
        workgroup(%a: memref<9xf32, #gpu.address_space<workgroup>>, %b: memref<9xi32, #gpu.address_space<workgroup>>, %c: memref<4xf32, #gpu.address_space<workgroup>>)
        kernel attributes {workgroup_attrib_attrs = [{}, {foo = 1 : i64}, {llvm.align = 64 : i64}]} {
      gpu.return
    }
    gpu.func @no_tiles(%out: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Without attributes, every attribution gets one.
// CHECK-LABEL: gpu.func @bare
//  CHECK-SAME: {llvm.align = 16 : i64}, %{{.*}} : memref<9xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bare(%out: memref<?xf32>)
        workgroup(%a: memref<9xf32, #gpu.address_space<workgroup>>, %b: memref<9xi32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}

// Tiles of 9 values (36 bytes) each start on 16 bytes, as the vector
// loads LLVM may make from them need.
// PTX: .shared .align 16 .b8 {{[^[]*}}[36];
// PTX-SAME: .shared .align 16 .b8 {{[^[]*}}[36];
