// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(sparse-fuse{iteration=sddmm loops=0,1})' | FileCheck %s
// RUN: sptir-opt %examples/sddmm.mlir --pass-pipeline='builtin.module(sparse-fuse{iteration=sddmm loops=0,1},lower-sparse-iter)' | FileCheck %s --check-prefix=STAGE2

// The row and column loops become one loop over the non-zeros.
// CHECK: sparse_iter.iterate "sddmm" [fuse(%{{.*}}, %{{.*}}), %{{.*}}] "SSR"

// STAGE2: sparse_pos.for "sddmm.0" spatial %{{.*}} to %arg8 {
// STAGE2-NEXT: ^bb0(%[[FLAT:.*]]: index):
// STAGE2: sparse_pos.parent_position %{{.*}}, %[[FLAT]]
// STAGE2: sparse_pos.for "sddmm.1" reduction
