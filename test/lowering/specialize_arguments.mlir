// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=64},lower-sparse-iter,canonicalize)' | FileCheck %s
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=64},sptir-to-stage3)' | FileCheck %s --check-prefix=STAGE3
// RUN: sptir-opt %examples/sddmm_fused.mlir -p 'builtin.module(specialize-arguments{function=sddmm_fused args=9 values=16},lower-sparse-iter,sparse-pos-split{loop=sddmm.0 factor=8},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},sparse-pos-bind{loop=sddmm.0.i to=threadIdx.y},sparse-pos-split{loop=sddmm.1 factor=16},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true},sptir-stage2-to-launches)' | FileCheck %s --check-prefix=LANES
// RUN: sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=2,1 values=-3,7},canonicalize)' | FileCheck %s --check-prefix=TWO
// RUN: sptir-opt %s -p 'builtin.module(func.func(specialize-arguments{function=two args=1 values=5}))' | FileCheck %s --check-prefix=NESTED
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=nope args=1 values=2})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=0 values=2})' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=3 values=2})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=1,1 values=2,3})' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=1,2 values=2})' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=two args=1 values=x})' 2>&1 | FileCheck %s --check-prefix=VALUES
// RUN: not sptir-opt %s -p 'builtin.module(specialize-arguments{function=declared args=0 values=1})' 2>&1 | FileCheck %s --check-prefix=BODY

// The signature stays; the feature axis and every loop over it get the
// constant length. The argument is only compared with it.
//      CHECK: func.func @csr_spmm({{.*}}, %[[FEAT:.*]]: index) {
//      CHECK: %[[C64:.*]] = arith.constant 64 : index
//      CHECK: arith.cmpi eq, %[[FEAT]], %[[C64]]
//      CHECK: cf.assert
//      CHECK: sparse_iter.dense_fixed %[[C64]]
//      CHECK: sparse_pos.for "csrmm.init.1" spatial %{{.*}} to %[[C64]]
//      CHECK: sparse_pos.for "csrmm.2" spatial %{{.*}} to %[[C64]]
//  CHECK-NOT: %[[FEAT]]

// Row-major addressing multiplies by the constant.
//     STAGE3: %[[C64:.*]] = arith.constant 64 : index
//     STAGE3: scf.for %{{.*}} = %{{.*}} to %[[C64]] step

// 16 features on 16 lanes: the features' loop and its tail guard
// (threadIdx.x < 16, decided by the block size) are gone, and each lane's
// one product goes straight to the shuffle.
//      LANES: gpu.launch
//      LANES: memref.load %arg4
//  LANES-NOT: scf.
//      LANES: gpu.subgroup_reduce  add %{{.*}} cluster(size = 16)

// Scheduled on functions, the pass changes only the one named.
//      NESTED: func.func @two(
// NESTED-NEXT:   %[[C:.*]] = arith.constant 5 : index
// NESTED-NEXT:   arith.cmpi eq, %arg1, %[[C]]
// NESTED-NEXT:   cf.assert
// NESTED-NEXT:   arith.addi %[[C]], %arg2
//      NESTED: func.func private @declared

// The function asserts that a caller passes the values it was compiled
// for, instead of computing with them silently otherwise.
//      TWO: func.func @two(%{{.*}}: memref<?xf32>, %[[N:.*]]: index, %[[M:.*]]: index) -> index {
// TWO-NEXT:   %[[C:.*]] = arith.constant 4 : index
//      TWO:   %[[ISM:.*]] = arith.cmpi eq, %[[M]], %{{.*}} : index
// TWO-NEXT:   cf.assert %[[ISM]], "specialize-arguments: @two was compiled for argument 2 = -3, and is called with another value"
// TWO-NEXT:   %[[ISN:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// TWO-NEXT:   cf.assert %[[ISN]], "specialize-arguments: @two was compiled for argument 1 = 7, and is called with another value"
// TWO-NEXT:   return %[[C]] : index
func.func @two(%a: memref<?xf32>, %n: index, %m: index) -> index {
  %0 = arith.addi %n, %m : index
  return %0 : index
}

func.func private @declared(%n: index) -> index

// MISSING: error: specialize-arguments: no func.func @nope
// TYPE: error: specialize-arguments: argument 0 of @two is memref<?xf32>, not index
// RANGE: error: specialize-arguments: @two has 3 arguments, so it has no argument 3
// TWICE: error: specialize-arguments: argument 1 is named twice
// COUNT: error: specialize-arguments: 2 args but 1 values
// VALUES: option 'values' of pass 'specialize-arguments' must be a comma-separated list of integers, got 'x'
// BODY: error: specialize-arguments: @declared has no body
