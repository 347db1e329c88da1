// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s
// RUN: sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-auto-bind,lower-sparse-buffer,canonicalize,cse,lower-loop-bindings)' | FileCheck %s --check-prefix=ATOMIC

// Rows are blocks and features threads; the grid and block sizes are the
// loops' trip counts, the loops become block and thread ids.
// CHECK-LABEL: func.func @csr_spmm
//       CHECK: %[[ROWS:.*]] = arith.subi %arg5, %c0
//       CHECK: %[[FEAT:.*]] = arith.subi %arg8, %c0
//       CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[FEAT]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
//       CHECK: %[[ROW:.*]] = arith.addi %c0, %[[BX]]
//       CHECK: %[[F:.*]] = arith.addi %c0, %[[TX]]
//   CHECK-NOT: sptir.label = "csrmm.0"
//       CHECK: scf.for {{.*}} {
//       CHECK: } {sptir.kind = "reduction", sptir.label = "csrmm.1"}
//       CHECK: gpu.terminator

// A reduction over blocks: its stores are marked for atomic additions
// (lower-atomic-accumulations makes them atomic).
// ATOMIC-LABEL: func.func @csc_spmm
//       ATOMIC: gpu.launch
//       ATOMIC: gpu.launch
//       ATOMIC: memref.store %{{.*}} {sptir.atomic}
//   ATOMIC-NOT: memref.store
//       ATOMIC: gpu.terminator
