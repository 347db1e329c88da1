// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-unroll{loop=csrmm.2.i})' | FileCheck %s --check-prefix=MARK
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4},sparse-pos-unroll{loop=csrmm.2.i},lower-sparse-buffer,unroll-loops,canonicalize)' | FileCheck %s
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.2})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=128},sparse-pos-unroll{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=64},lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-unroll{loop=csrmm.2.o})' | FileCheck %s --check-prefix=COMPUTED
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(specialize-arguments{function=csr_spmm args=8 values=1040},lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=16},sparse-pos-unroll{loop=csrmm.2.o})' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=4 clamp=true},sparse-pos-unroll{loop=csrmm.2.i})' 2>&1 | FileCheck %s --check-prefix=CLAMPED
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.1 factor=4})' | FileCheck %s --check-prefix=BY4
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.1 factor=4},lower-sparse-buffer,unroll-loops)' | FileCheck %s --check-prefix=BY4-SCF
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=64},sparse-pos-split{loop=csrmm.2.i factor=4},sparse-pos-vectorize{loop=csrmm.2.i.i},sparse-pos-bind{loop=csrmm.2.i.o to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=64},sparse-pos-split{loop=csrmm.init.1.i factor=4},sparse-pos-vectorize{loop=csrmm.init.1.i.i},sparse-pos-bind{loop=csrmm.init.1.i.o to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-unroll{loop=csrmm.1 factor=4},sparse-pos-split{loop=csrmm.0 factor=8},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=BY4-PTX
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.1 factor=1})' 2>&1 | FileCheck %s --check-prefix=FACTOR1
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.1 factor=65})' 2>&1 | FileCheck %s --check-prefix=FACTOR65
// RUN: not sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-unroll{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x})' 2>&1 | FileCheck %s --check-prefix=BY4-BIND
// RUN: not sptir-opt %examples/sddmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=sddmm.2 factor=4},sparse-pos-bind{loop=sddmm.2.i to=threadIdx.x shuffle=true},sparse-pos-unroll{loop=sddmm.1 factor=2},sparse-pos-bind{loop=sddmm.0 to=blockIdx.x},sptir-stage2-to-launches)' 2>&1 | FileCheck %s --check-prefix=SYNC

// MARK: sparse_pos.for "csrmm.2.i" spatial %{{.*}} to %c4 attributes {unroll} {

// Compiled for 64 features, the chunk loop of a split by 16 runs
// ceildiv(64 - 0, 16) = 4 times, which the schedule can tell before
// anything folds.
// COMPUTED: %[[N:.*]] = arith.ceildivui
// COMPUTED: sparse_pos.for "csrmm.2.o" spatial %{{.*}} to %[[N]] attributes {unroll} {

// Four copies of the guarded body, one per feature of the chunk, and no
// loop over them.
//     CHECK: %[[CHUNKS:.*]] = arith.ceildivui
//     CHECK: scf.for %{{.*}} = %{{.*}} to %[[CHUNKS]] step %{{.*}} {
// CHECK-NOT: scf.for
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
//     CHECK: scf.if
//     CHECK: memref.store
// CHECK-NOT: memref.store

// TRIP: sparse-pos-unroll: loop "csrmm.2{{.*}}" must have a constant trip count between 1 and 64 (split it first with sparse-pos-split)
// MISSING: sparse-pos-unroll: no sparse_pos.for labelled "nope"

// CLAMPED: sparse-pos-unroll: loop "csrmm.2.i" must have a constant trip count between 1 and 64 (it is the inner loop of a clamp=true split, which runs min(factor, what is left) positions: split without clamp=true, whose guard keeps the trip count constant)

// A row's non-zero loop, whose trip count only the matrix knows, is marked
// with its factor; at stage III the mark becomes LLVM's unroll count.
// BY4: sparse_pos.for "csrmm.1" reduction %{{.*}} to %{{.*}} attributes {unroll = 4 : i64} {
// BY4-SCF: #loop_unroll = #llvm.loop_unroll<count = 4 : i64>
// BY4-SCF: #loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
// BY4-SCF: scf.for
// BY4-SCF-NOT: unroll =
// BY4-SCF: } {loop_annotation = #loop_annotation, sptir.kind = "reduction", sptir.label = "csrmm.1"}

// In the PTX the vectorized row walk loads four rows of B in one block
// of the loop (LLVM alone unrolls it by 2), then a remainder loop.
// BY4-PTX: .pragma \22nounroll\22;{{[^$]*}}ld.global.nc.v4.b32{{[^$]*}}ld.global.nc.v4.b32{{[^$]*}}ld.global.nc.v4.b32{{[^$]*}}ld.global.nc.v4.b32{{[^$]*}}@%p{{[0-9]+}} bra

// FACTOR1: sparse-pos-unroll: factor must be between 2 and 64 (iterations a step), got 1
// FACTOR65: sparse-pos-unroll: factor must be between 2 and 64 (iterations a step), got 65
// BY4-BIND: sparse-pos-bind: loop "csrmm.0" is marked to unroll

// Lanes that meet in a warp shuffle inside the loop: LLVM would refuse
// (a remainder loop changes which lanes meet), so the pipeline does.
// SYNC: sddmm.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unroll-loops: a loop that holds a barrier or a warp shuffle (shuffle=true) cannot run several iterations a step
