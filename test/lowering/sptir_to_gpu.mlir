// RUN: sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chip=sm_80})' | FileCheck %s --check-prefix=CSC
// RUN: not sptir-opt %examples/csr_spmm.mlir --pass-pipeline='builtin.module(sptir-to-gpu{chp=sm_80})' 2>&1 | FileCheck %s --check-prefix=BADOPT

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

// A reduction bound to blocks updates its output atomically.
// CSC: gpu.binary @csc_spmm_kernel
// CSC: .target sm_80
// CSC: atom.global.add.f32

// BADOPT: pipeline 'sptir-to-gpu': unknown option 'chp'
