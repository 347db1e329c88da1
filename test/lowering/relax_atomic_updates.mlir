// RUN: sptir-opt %s -p 'builtin.module(gpu.module(relax-atomic-updates))' | FileCheck %s

// memref.atomic_rmw's lowering asks for acq_rel at system scope; sptir's
// atomic reductions need atomicity only: monotonic at device scope, which
// NVPTX emits as atom.relaxed.gpu (a float maximum's compare-and-swap
// loop was atom.acq_rel.sys).
// CHECK-LABEL: llvm.func @update
//       CHECK: llvm.atomicrmw fmaximum %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr, f32
//       CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr, i32
gpu.module @kernels {
  llvm.func @update(%p: !llvm.ptr, %q: !llvm.ptr, %v: f32, %w: i32) {
    %0 = llvm.atomicrmw fmaximum %p, %v acq_rel : !llvm.ptr, f32
    %1 = llvm.atomicrmw add %q, %w acq_rel : !llvm.ptr, i32
    llvm.return
  }
}
