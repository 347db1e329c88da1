// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(sptir-stage3-to-llvm)' 2>&1 | FileCheck %s --check-prefix=STAGE1
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sptir-stage3-to-llvm)' 2>&1 | FileCheck %s --check-prefix=STAGE2
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sptir-launches-to-gpu)' 2>&1 | FileCheck %s --check-prefix=STAGE2
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(sptir-to-stage3,check-stage-three)' | FileCheck %s --check-prefix=STAGE3

// A lowering from stage III given stage I or II names the first op of the
// earliest stage and the passes that lower it, before any conversion runs
// (a split's guard inside a sparse_pos.for used to break the loop's
// single-block region on the way: an internal verifier error).
// STAGE1: csr_spmm.mlir:14:3: error: check-stage-three: 'sparse_iter.iterate' is not stage III, where this lowering starts: run lower-sparse-iter (stage I to II), then lower-sparse-buffer (stage II to III) first
// STAGE2: csr_spmm.mlir:{{[0-9]+}}:{{[0-9]+}}: error: check-stage-three: 'sparse_iter.dense_fixed' is not stage III, where this lowering starts: run lower-sparse-buffer (stage II to III) first
// STAGE2-NOT: expects region
// Stage III passes through.
// STAGE3: func.func @csr_spmm
// STAGE3: scf.for
