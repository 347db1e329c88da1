// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chip=sm_80})' | FileCheck %s --check-prefix=CSC
// RUN: not sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chp=sm_80})' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chip=sm_100})' 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chip=bogus})' 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chip=sm_80 chip=sm_90})' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=64},sparse-pos-split{loop=csrmm.2.i factor=4},sparse-pos-vectorize{loop=csrmm.2.i.i},sparse-pos-bind{loop=csrmm.2.i.o to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=64},sparse-pos-split{loop=csrmm.init.1.i factor=4},sparse-pos-vectorize{loop=csrmm.init.1.i.i},sparse-pos-bind{loop=csrmm.init.1.i.o to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.0 factor=8},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=VEC
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=64},sparse-pos-split{loop=csrmm.2.i factor=4},sparse-pos-vectorize{loop=csrmm.2.i.i},sparse-pos-bind{loop=csrmm.2.i.o to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=64},sparse-pos-split{loop=csrmm.init.1.i factor=4},sparse-pos-vectorize{loop=csrmm.init.1.i.i},sparse-pos-bind{loop=csrmm.init.1.i.o to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.0 factor=8},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=SUNK
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=32},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=32},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=32 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-bind{loop=csrmm.1.i.cache to=threadIdx.x},sparse-pos-bind{loop=csrmm.0 to=blockIdx.x},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=SHARED
// RUN: sptir-opt %examples/sddmm_fused.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=sddmm.0 factor=8},sparse-pos-bind{loop=sddmm.0.o to=blockIdx.x},sparse-pos-bind{loop=sddmm.0.i to=threadIdx.y},sparse-pos-split{loop=sddmm.1 factor=16},sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x shuffle=true},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=SHUFFLE
// RUN: sptir-opt %S/sparse_pos_auto_bind.mlir --split-input-file --pass-pipeline='builtin.module(sptir-to-gpu)' | FileCheck %s --check-prefix=DEFAULT
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=8},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=8},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=16 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-split{loop=csrmm.1.i.cache factor=8},sparse-pos-bind{loop=csrmm.1.i.cache.i to=threadIdx.x},sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=ROWTILE
// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=64},sparse-pos-bind{loop=csrmm.2.i to=threadIdx.x},sparse-pos-split{loop=csrmm.init.1 factor=64},sparse-pos-bind{loop=csrmm.init.1.i to=threadIdx.x},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1},sparse-pos-split{loop=csrmm.1 factor=64 clamp=true},sparse-pos-cache-read{loop=csrmm.1.i},sparse-pos-split{loop=csrmm.1.i.cache factor=64},sparse-pos-bind{loop=csrmm.1.i.cache.i to=threadIdx.x},sparse-pos-split{loop=csrmm.0 factor=4},sparse-pos-bind{loop=csrmm.0.o to=blockIdx.x},sparse-pos-bind{loop=csrmm.0.i to=threadIdx.y},sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=ROWWARPS
// RUN: sptir-opt %S/Inputs/row_extrema.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-split{loop=rext.0 factor=4},sparse-pos-bind{loop=rext.0.i to=threadIdx.y},sparse-pos-split{loop=rext.1 factor=8},sparse-pos-bind{loop=rext.1.i to=threadIdx.x shuffle=true},sparse-pos-bind{loop=rx.0 to=blockIdx.x},sparse-pos-split{loop=rx.1 factor=32},sparse-pos-bind{loop=rx.1.i to=threadIdx.x atomic=true},sparse-pos-auto-bind,sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=EXTREMA
// RUN: sptir-opt %S/Inputs/shuffled_updates.mlir --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-reorder{loops=cr.1,cr.0},sparse-pos-bind{loop=cr.1 to=blockIdx.x},sparse-pos-split{loop=cr.0 factor=8},sparse-pos-bind{loop=cr.0.i to=threadIdx.x shuffle=true},sparse-pos-split{loop=rr.1 factor=8},sparse-pos-bind{loop=rr.1.i to=threadIdx.x shuffle=true},sparse-pos-auto-bind,sptir-stage2-to-gpu)' | FileCheck %s --check-prefix=UPDATES

// Stage I to PTX in one pipeline: the kernel is compiled in-process and
// the host function launches it.
//       CHECK: llvm.func @csr_spmm(
//       CHECK: gpu.launch_func @csr_spmm_kernel::@csr_spmm_kernel
//       CHECK: llvm.func @_mlir_ciface_csr_spmm
//       CHECK: gpu.binary @csr_spmm_kernel
//  CHECK-SAME: .target sm_90
//  CHECK-SAME: .visible .entry csr_spmm_kernel(
//  CHECK-SAME: %ctaid.x
//  CHECK-SAME: %tid.x
//  CHECK-SAME: ld.global
//  CHECK-SAME: st.global
// The buffers the kernel only reads (A's structure and values, B) come
// through the read-only cache (mark-noalias-kernel-arguments); C is
// written, and its loads stay plain.
//  CHECK-SAME: ld.global.nc.s32
//  CHECK-SAME: ld.global.b32
//  CHECK-SAME: ld.global.nc.b32

// A reduction bound to blocks updates its output atomically.
// CSC: gpu.binary @csc_spmm_kernel
// CSC: .target sm_80
// CSC: atom.global.add.f32

// BADOPT: pipeline 'sptir-to-gpu': unknown option 'chp'
// A chip that PTX 8.1 does not know is an error, not an LLVM abort.
// BADCHIP: chip '{{.*}}' is not a PTX 8.1 target (sm_50 to sm_90a)
// TWICE: pipeline 'sptir-to-gpu': option 'chip' is given twice

// A vectorized schedule: 16-byte loads and stores of the features (under
// the run-time alignment check), rows on threadIdx.y, and the accumulator
// kept in registers across the non-zeros (no store inside that loop),
// multiply-adds fused (contract-float-ops).
// VEC: .visible .entry csr_spmm_kernel(
// VEC-DAG: %tid.y
// VEC-DAG: ld.global.nc.v4.b32
// VEC-DAG: st.global.v4.b32
// VEC-DAG: fma.rn.f32

// The split factors and the vector width reach the kernel as constants
// (sunk into the launch before outlining), not as parameters: no 64-bit
// division or remainder is left in it.
// SUNK-NOT: {{(div|rem)\.u64}}

// Non-zeros through shared memory: two 128-byte tiles, written and read
// with shared-memory instructions, a barrier after the copy and one after
// the chunk's walk (laid out at the loop's latch, before the copy).
// SHARED: .visible .entry csr_spmm_kernel(
// SHARED-SAME: .shared .align 16 .b8 {{[^[]*}}[128];
// SHARED-SAME: .shared .align 16 .b8 {{[^[]*}}[128];
// SHARED-SAME: bar.sync{{.*}}st.shared.b32{{.*}}st.shared.b32{{.*}}bar.sync{{.*}}ld.shared.s32{{.*}}ld.shared.b32

// Each non-zero's dot product on 16 lanes: the lanes' sums meet in four
// butterfly shuffles inside the cluster's segment ((32-16) << 8 | 31 =
// 4127), then one lane adds the total; no atomics.
// SHUFFLE: .visible .entry sddmm_fused_kernel(
// SHUFFLE-SAME: shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 8, 4127,{{.*}}shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 4, 4127,{{.*}}shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 2, 4127,{{.*}}shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 1, 4127,{{.*}}bar.warp.sync
// SHUFFLE-NOT: atom.

// The default schedule on reductions other than float sums: integer sums
// add atomically; a float maximum is one launch whose blocks update the
// element in a compare-and-swap loop (the GPU has no float atomic max).
// DEFAULT-LABEL: llvm.func @int_column_sums
//       DEFAULT: gpu.binary @int_column_sums_kernel_0
//  DEFAULT-SAME: atom.global.add.u32
// DEFAULT-LABEL: llvm.func @column_maxima
//   DEFAULT-NOT: llvm.br
//       DEFAULT: gpu.launch_func @column_maxima_kernel_0::@column_maxima_kernel
//   DEFAULT-NOT: llvm.br
//       DEFAULT: gpu.binary @column_maxima_kernel_0
//  DEFAULT-SAME: max.NaN.f32 {{.09}}[[MAX:%r[0-9]+]], [[OLD:%r[0-9]+]], {{%r[0-9]+}};
//  DEFAULT-SAME: atom.relaxed.gpu.global.cas.b32 {{.09}}{{%r[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[MAX]];

// Four rows a block, each caching 16 non-zeros in its own 256-byte tiles:
// its 8 lanes meet at bar.warp.sync on their own mask, never bar.sync.
// ROWTILE: .visible .entry csr_spmm_kernel(
// ROWTILE-SAME: .shared .align 16 .b8 {{[^[]*}}[256];
// ROWTILE-SAME: .shared .align 16 .b8 {{[^[]*}}[256];
// ROWTILE-SAME: %laneid
// ROWTILE-SAME: bar.warp.sync{{.*}}st.shared.b32{{.*}}st.shared.b32{{.*}}bar.warp.sync{{.*}}ld.shared
// ROWTILE-NOT: bar.sync

// The same with rows of two warps: row y's 64 threads meet at named
// barrier 1 + y.
// ROWWARPS: .visible .entry csr_spmm_kernel(
// ROWWARPS-SAME: .shared .align 16 .b8 {{[^[]*}}[1024];
// ROWWARPS-SAME: .shared .align 16 .b8 {{[^[]*}}[1024];
// ROWWARPS-SAME: %tid.z;\0A\09shl.b32 \09[[Z:%r[0-9]+]], %r{{[0-9]+}}, 2;\0A\09add.s32 \09[[ROW:%r[0-9]+]], %r{{[0-9]+}}, [[Z]];\0A\09add.s32 \09[[ID:%r[0-9]+]], [[ROW]], 1;
// ROWWARPS-SAME: bar.sync \09[[ID]], 64;{{.*}}st.shared.b32{{.*}}st.shared.b32{{.*}}bar.sync \09[[ID]], 64;{{.*}}ld.shared
// ROWWARPS-NOT: bar.warp.sync

// Maxima and minima across lanes and threads: 8 lanes a row meet in three
// shuffles of each reduction, combined by max.NaN.f32 (arith.maximumf) and
// min.s32, with no atomics; a block's threads update the row atomically,
// atom.global.min.s32 for the integer minimum and a compare-and-swap loop
// for the float maximum.
// EXTREMA: gpu.binary @rowext_kernel
// EXTREMA-SAME: shfl.sync.bfly.b32 {{.09}}[[S1:%r[0-9]+]], [[M1:%r[0-9]+]], 4, 6175,
// EXTREMA-SAME: min.s32 {{.09}}{{%r[0-9]+}}, [[M1]], [[S1]];
// EXTREMA-SAME: shfl.sync.bfly.b32 {{.09}}[[S2:%r[0-9]+]], [[X1:%r[0-9]+]], 4, 6175,
// EXTREMA-SAME: max.NaN.f32 {{.09}}{{%r[0-9]+}}, [[X1]], [[S2]];
// EXTREMA-NOT: atom.
// EXTREMA: gpu.binary @rowext_atomic_kernel_0
// EXTREMA-SAME: atom.global.min.s32
// EXTREMA-SAME: max.NaN.f32 {{.09}}[[NEW:%r[0-9]+]], [[OLD:%r[0-9]+]], {{%r[0-9]+}};
// EXTREMA-SAME: atom.relaxed.gpu.global.cas.b32 {{.09}}{{%r[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[NEW]];

// A maxnumf shuffled over lanes (Inputs/shuffled_updates.mlir): the
// butterfly combines by max.f32, no libdevice. Beside a shuffled row sum,
// each lane's in-place clamp of its own element is a plain store.
// UPDATES: gpu.binary @colred_kernel
// UPDATES-SAME: shfl.sync.bfly.b32 {{.09}}[[S:%r[0-9]+]], [[V:%r[0-9]+]], 4, 6175,
// UPDATES-SAME: max.f32 {{.09}}{{%r[0-9]+}}, [[V]], [[S]];
// UPDATES-NOT: __nv_
// UPDATES: gpu.binary @rr_kernel
// UPDATES-SAME: max.NaN.f32 {{.09}}[[C:%r[0-9]+]],
// UPDATES-SAME: st.global.b32 {{.09}}[{{%rd[0-9]+}}], [[C]];
// UPDATES-SAME: shfl.sync.bfly.b32
// UPDATES-NOT: atom.
