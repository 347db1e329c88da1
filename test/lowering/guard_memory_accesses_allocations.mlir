// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses)' | FileCheck %s
// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses,sptir-stage3-to-llvm)' -o /dev/null

// A stack buffer of a run-time size is checked as the CPU makes it, on the
// heap (bound-stack-allocations): a size over 2^47 bytes (unsigned: a
// negative one too) allocates nothing, and a null pointer for a non-empty
// buffer fails. Either is counted under the allocation's own check, the
// last one, and every access to the buffer then fails too.
// CHECK: sptir.memory_checks = [
// CHECK-SAME: "{{[^"]*}}:[[@LINE+26]]:13: allocation of memref<?xf32> in @k (its size is more than memory holds, or the allocation failed)"]
// CHECK-LABEL: func.func @k
//       CHECK:   %[[MOST:.*]] = arith.constant 35184372088832 : index
//       CHECK:   %[[LIMIT:.*]] = arith.divui %[[MOST]]
//       CHECK:   %[[UNDER:.*]] = arith.cmpi ule, %arg0, %[[LIMIT]] : index
//       CHECK:   %[[ZERO:.*]] = arith.cmpi eq, %arg0, %{{.*}} : index
//       CHECK:   %[[FITS:.*]] = arith.ori %[[UNDER]], %[[ZERO]] : i1
//       CHECK:   %[[SIZE:.*]] = arith.select %[[FITS]], %arg0, %{{.*}} : index
//       CHECK:   %[[BUFFER:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
//       CHECK:   %[[POINTER:.*]] = memref.extract_aligned_pointer_as_index %[[BUFFER]]
//       CHECK:   %[[NONNULL:.*]] = arith.cmpi ne, %[[POINTER]]
//       CHECK:   %[[GOT:.*]] = arith.ori %[[NONNULL]]
//       CHECK:   %[[OK:.*]] = arith.andi %[[FITS]], %[[GOT]] : i1
//       CHECK:   scf.if %[[OK]] {
//  CHECK-NEXT:   } else {
//       CHECK:     memref.atomic_rmw addi
//       CHECK:     %[[ID:.*]] = arith.constant 3 : i32
//       CHECK:     memref.atomic_rmw maxs %[[ID]]
//       CHECK:   %[[DIM:.*]] = memref.dim %[[BUFFER]]
//       CHECK:   %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %[[DIM]] : index
//       CHECK:   %[[ALLOWED:.*]] = arith.andi %[[INSIDE]], %[[OK]] : i1
//       CHECK:   scf.if %[[ALLOWED]] {
//  CHECK-NEXT:     memref.store %{{.*}}, %[[BUFFER]]
//       CHECK:   memref.dealloc %[[BUFFER]]
func.func @k(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %buffer = memref.alloca(%n) : memref<?xf32>
  %v = memref.load %out[%c0] : memref<?xf32>
  memref.store %v, %buffer[%c0] : memref<?xf32>
  return
}

