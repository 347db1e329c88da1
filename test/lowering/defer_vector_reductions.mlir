// RUN: sptir-opt %s --split-input-file -p 'builtin.module(defer-vector-reductions)' | FileCheck %s

// An SDDMM dot product in 16-byte steps: the loop carries a vector, each
// step is x * y (the non-zero's value `a` leaves the sum), and the lanes
// are summed once after the loop, then scaled by `a` and added to the
// initial value.
// CHECK-LABEL: func.func @carried
//       CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<4xf32>
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<4xf32>)
//   CHECK-NOT:   vector.reduction
//       CHECK:   %[[X:.*]] = vector.load %arg1
//       CHECK:   %[[Y:.*]] = vector.load %arg2
//       CHECK:   %[[XY:.*]] = arith.mulf %[[X]], %[[Y]] : vector<4xf32>
//       CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %[[XY]] : vector<4xf32>
//       CHECK:   scf.yield %[[NEXT]] : vector<4xf32>
//       CHECK: %[[R:.*]] = vector.reduction <add>, %[[SUM]] : vector<4xf32> into f32
//       CHECK: %[[SCALED:.*]] = arith.mulf %[[R]], %arg0 : f32
//       CHECK: %[[TOTAL:.*]] = arith.addf %arg3, %[[SCALED]] : f32
//       CHECK: return %[[TOTAL]] : f32
func.func @carried(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %av = vector.broadcast %a : f32 to vector<4xf32>
  %s = scf.for %k = %c0 to %c64 step %c4 iter_args(%acc = %init) -> (f32) {
    %xv = vector.load %x[%k] : memref<?xf32>, vector<4xf32>
    %ax = arith.mulf %av, %xv : vector<4xf32>
    %yv = vector.load %y[%k] : memref<?xf32>, vector<4xf32>
    %axy = arith.mulf %ax, %yv : vector<4xf32>
    %r = vector.reduction <add>, %axy : vector<4xf32> into f32
    %next = arith.addf %acc, %r : f32
    scf.yield %next : f32
  }
  return %s : f32
}

// -----

// A loop unrolled whole: the chain of lane sums becomes vector additions
// and one lane sum; the common factor is applied once.
// CHECK-LABEL: func.func @straight_line
//       CHECK: %[[X0:.*]] = vector.load %arg1[%c0]
//       CHECK: %[[P0:.*]] = arith.mulf %[[X0]], %{{.*}} : vector<4xf32>
//       CHECK: %[[X1:.*]] = vector.load %arg1[%c4]
//       CHECK: %[[P1:.*]] = arith.mulf %[[X1]], %{{.*}} : vector<4xf32>
//       CHECK: %[[S1:.*]] = arith.addf %[[P0]], %[[P1]] : vector<4xf32>
//       CHECK: %[[X2:.*]] = vector.load %arg1[%c8]
//       CHECK: %[[P2:.*]] = arith.mulf %[[X2]], %{{.*}} : vector<4xf32>
//       CHECK: %[[S2:.*]] = arith.addf %[[S1]], %[[P2]] : vector<4xf32>
//       CHECK: %[[R:.*]] = vector.reduction <add>, %[[S2]]
//       CHECK: %[[SCALED:.*]] = arith.mulf %[[R]], %arg0 : f32
//       CHECK: arith.addf %arg3, %[[SCALED]] : f32
//   CHECK-NOT: vector.reduction
func.func @straight_line(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %av = vector.broadcast %a : f32 to vector<4xf32>
  %x0 = vector.load %x[%c0] : memref<?xf32>, vector<4xf32>
  %y0 = vector.load %y[%c0] : memref<?xf32>, vector<4xf32>
  %m0 = arith.mulf %av, %x0 : vector<4xf32>
  %p0 = arith.mulf %m0, %y0 : vector<4xf32>
  %r0 = vector.reduction <add>, %p0 : vector<4xf32> into f32
  %s0 = arith.addf %init, %r0 : f32
  %x1 = vector.load %x[%c4] : memref<?xf32>, vector<4xf32>
  %y1 = vector.load %y[%c4] : memref<?xf32>, vector<4xf32>
  %m1 = arith.mulf %av, %x1 : vector<4xf32>
  %p1 = arith.mulf %m1, %y1 : vector<4xf32>
  %r1 = vector.reduction <add>, %p1 : vector<4xf32> into f32
  %s1 = arith.addf %s0, %r1 : f32
  %x2 = vector.load %x[%c8] : memref<?xf32>, vector<4xf32>
  %y2 = vector.load %y[%c8] : memref<?xf32>, vector<4xf32>
  %m2 = arith.mulf %av, %x2 : vector<4xf32>
  %p2 = arith.mulf %m2, %y2 : vector<4xf32>
  %r2 = vector.reduction <add>, %p2 : vector<4xf32> into f32
  %s2 = arith.addf %r2, %s1 : f32
  return %s2 : f32
}

// -----

// One lane sum alone: only a broadcast scalar factor leaves it.
// CHECK-LABEL: func.func @single_term
//       CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
//       CHECK: %[[R:.*]] = vector.reduction <add>, %[[P]]
//       CHECK: %[[SCALED:.*]] = arith.mulf %[[R]], %arg0 : f32
//       CHECK: arith.addf %arg3, %[[SCALED]] : f32
func.func @single_term(%a: f32, %x: vector<4xf32>, %y: vector<4xf32>, %init: f32) -> f32 {
  %av = vector.broadcast %a : f32 to vector<4xf32>
  %m = arith.mulf %x, %av : vector<4xf32>
  %p = arith.mulf %m, %y : vector<4xf32>
  %r = vector.reduction <add>, %p : vector<4xf32> into f32
  %s = arith.addf %init, %r : f32
  return %s : f32
}

// -----

// A factor that changes in the loop stays in the sum; a vector factor
// from outside it multiplies the summed vector after the loop. Integers
// add and multiply alike.
// CHECK-LABEL: func.func @integers
//       CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<4xi32>
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<4xi32>)
//       CHECK:   %[[B:.*]] = vector.broadcast
//       CHECK:   %[[T:.*]] = arith.muli %[[B]], %{{.*}} : vector<4xi32>
//       CHECK:   arith.addi %[[ACC]], %[[T]] : vector<4xi32>
//       CHECK: %[[W:.*]] = arith.muli %[[SUM]], %arg0 : vector<4xi32>
//       CHECK: %[[R:.*]] = vector.reduction <add>, %[[W]]
//       CHECK: arith.addi %c7_i32, %[[R]] : i32
func.func @integers(%w: vector<4xi32>, %x: memref<?xi32>, %b: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c7 = arith.constant 7 : i32
  %s = scf.for %k = %c0 to %c9 step %c1 iter_args(%acc = %c7) -> (i32) {
    %xv = vector.load %x[%k] : memref<?xi32>, vector<4xi32>
    %bk = memref.load %b[%k] : memref<?xi32>
    %bv = vector.broadcast %bk : i32 to vector<4xi32>
    %t0 = arith.muli %w, %xv : vector<4xi32>
    %t = arith.muli %bv, %t0 : vector<4xi32>
    %r = vector.reduction <add>, %t : vector<4xi32> into i32
    %next = arith.addi %r, %acc : i32
    scf.yield %next : i32
  }
  return %s : i32
}

// -----

// A loop that may not run keeps its factor inside: outside, an infinite
// `a` times the empty sum would give NaN where the loop added nothing.
// CHECK-LABEL: func.func @maybe_empty
//       CHECK: scf.for {{.*}} -> (vector<4xf32>)
//       CHECK:   %[[AX:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
//       CHECK:   arith.addf %{{.*}}, %[[AX]] : vector<4xf32>
//       CHECK: %[[R:.*]] = vector.reduction <add>
//       CHECK: arith.addf %arg2, %[[R]] : f32
func.func @maybe_empty(%a: f32, %x: memref<?xf32>, %init: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %av = vector.broadcast %a : f32 to vector<4xf32>
  %s = scf.for %k = %c0 to %n step %c4 iter_args(%acc = %init) -> (f32) {
    %xv = vector.load %x[%k] : memref<?xf32>, vector<4xf32>
    %ax = arith.mulf %av, %xv : vector<4xf32>
    %r = vector.reduction <add>, %ax : vector<4xf32> into f32
    %next = arith.addf %acc, %r : f32
    scf.yield %next : f32
  }
  return %s : f32
}

// -----

// Lane sums taken in another order than they are added, and a factor
// squared: the vectors are added where the sums were.
// CHECK-LABEL: func.func @order_and_square
//       CHECK: %[[V2:.*]] = vector.load %arg1[%c4]
//       CHECK: %[[V1:.*]] = vector.load %arg1[%c0]
//       CHECK: %[[S:.*]] = arith.addf %[[V1]], %[[V2]] : vector<4xf32>
//       CHECK: %[[R:.*]] = vector.reduction <add>, %[[S]]
//       CHECK: %[[A1:.*]] = arith.mulf %[[R]], %arg0 : f32
//       CHECK: %[[A2:.*]] = arith.mulf %[[A1]], %arg0 : f32
//       CHECK: arith.addf %arg2, %[[A2]] : f32
func.func @order_and_square(%a: f32, %x: memref<?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %b = vector.broadcast %a : f32 to vector<4xf32>
  %bb = arith.mulf %b, %b : vector<4xf32>
  %v2 = vector.load %x[%c4] : memref<?xf32>, vector<4xf32>
  %p2 = arith.mulf %v2, %bb : vector<4xf32>
  %r2 = vector.reduction <add>, %p2 : vector<4xf32> into f32
  %v1 = vector.load %x[%c0] : memref<?xf32>, vector<4xf32>
  %p1 = arith.mulf %bb, %v1 : vector<4xf32>
  %r1 = vector.reduction <add>, %p1 : vector<4xf32> into f32
  %s1 = arith.addf %init, %r1 : f32
  %s2 = arith.addf %s1, %r2 : f32
  return %s2 : f32
}

// -----

// Not sums of lane sums: a carried value that the loop also reads, a
// lane sum used twice, a product of lanes. The loop keeps its scalar.
// CHECK-LABEL: func.func @left_alone
//       CHECK: scf.for {{.*}} -> (f32)
//       CHECK:   vector.reduction <add>
//       CHECK:   vector.reduction <add>
//       CHECK:   vector.reduction <mul>
func.func @left_alone(%x: memref<?xf32>, %o: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %k = %c0 to %n step %c4 iter_args(%acc = %zero) -> (f32) {
    %xv = vector.load %x[%k] : memref<?xf32>, vector<4xf32>
    %r = vector.reduction <add>, %xv : vector<4xf32> into f32
    memref.store %acc, %o[%k] : memref<?xf32>
    %next = arith.addf %acc, %r : f32
    %r2 = vector.reduction <add>, %xv : vector<4xf32> into f32
    %twice = arith.addf %next, %r2 : f32
    memref.store %r2, %o[%c0] : memref<?xf32>
    %p = vector.reduction <mul>, %xv : vector<4xf32> into f32
    %last = arith.addf %twice, %p : f32
    scf.yield %last : f32
  }
  return %s : f32
}
