// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses)' | FileCheck %s

// An allocation the pass does not check (a layout symbol) keeps its
// number, so that the next one's failure is described as its own; a size
// of zero makes an empty buffer whatever the other sizes, not a failure.
// CHECK: sptir.memory_checks = [
// CHECK-SAME: "{{[^"]*}}:[[@LINE+11]]:14: an allocation in @skipped (not checked)",
// CHECK-SAME: "{{[^"]*}}:[[@LINE+11]]:12: allocation of memref<?x?xf32> in @skipped
// CHECK-LABEL: func.func @skipped
//       CHECK:   %[[FITS:.*]] = arith.andi
//       CHECK:   %[[NONE:.*]] = arith.ori
//       CHECK:   %[[EMPTY_OK:.*]] = arith.ori %[[FITS]], %[[NONE]] : i1
//       CHECK:   memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
//       CHECK:   %[[ID:.*]] = arith.constant 4 : i32
//       CHECK:   memref.atomic_rmw maxs %[[ID]]
func.func @skipped(%n: index, %m: index, %s: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %shifted = memref.alloc()[%s] : memref<4xf32, strided<[1], offset: ?>>
  %sized = memref.alloc(%n, %m) : memref<?x?xf32>
  %v = memref.load %shifted[%c0] : memref<4xf32, strided<[1], offset: ?>>
  memref.store %v, %sized[%c0, %c0] : memref<?x?xf32>
  return
}
