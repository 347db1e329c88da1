// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sparse-pos-bind{loop=csrmm.2 to=threadIdx.x},sparse-pos-bind{loop=csrmm.1 to=threadIdx.y atomic=true})' | FileCheck %s

// RUN: sptir-opt %examples/sddmm_fused.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=sddmm.1 factor=8},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true})' | FileCheck %s --check-prefix=SHUFFLE

// SHUFFLE: sparse_pos.for "sddmm.1.i" reduction {{.*}} attributes {bind = "threadIdx.x", shuffle}

// CHECK: sparse_pos.for "csrmm.0" spatial {{.*}} attributes {bind = "blockIdx.x"}
// CHECK: sparse_pos.for "csrmm.init.1" spatial
// CHECK-NOT: bind
// CHECK: sparse_pos.for "csrmm.1" reduction {{.*}} attributes {atomic, bind = "threadIdx.y"}
// CHECK: sparse_pos.for "csrmm.2" spatial {{.*}} attributes {bind = "threadIdx.x"}
