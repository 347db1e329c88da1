// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(lower-atomic-accumulations)' | FileCheck %s

// Not promoted: `m[i] = m[i] + v` adds v atomically.
// CHECK-LABEL: func.func @direct
//  CHECK-NEXT: %[[V:.*]] = memref.load %arg1[%arg2]
//  CHECK-NEXT: memref.atomic_rmw addf %[[V]], %arg0[%arg2]
//  CHECK-NEXT: return
func.func @direct(%m: memref<?xf32>, %x: memref<?xf32>, %i: index) {
  %old = memref.load %m[%i] : memref<?xf32>
  %v = memref.load %x[%i] : memref<?xf32>
  %new = arith.addf %old, %v : f32
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

// A register accumulation (promote-accumulators): the sum starts at -0.0,
// through a loop and a guard, and is added once.
// CHECK-LABEL: func.func @promoted
//       CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
//       CHECK: memref.atomic_rmw addf %[[SUM]], %arg0[%arg2]
//   CHECK-NOT: memref.store
func.func @promoted(%m: memref<?xf32>, %x: memref<?xf32>, %i: index, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.load %m[%i] : memref<?xf32>
  %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %next = scf.if %c -> (f32) {
      %v = memref.load %x[%j] : memref<?xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %next : f32
  }
  memref.store %sum, %m[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

// A vector accumulation: one atomic add per lane, at i, i+1, i+2, i+3.
// The store claims no alignment: the adds are not marked as one vector.
// CHECK-LABEL: func.func @vector
//       CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<4xf32>
//       CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<4xf32>)
//       CHECK: %[[E0:.*]] = vector.extract %[[SUM]][0]
//       CHECK: memref.atomic_rmw addf %[[E0]], %arg0[%{{.*}}]
//   CHECK-NOT: sptir.vector_add
//       CHECK: %[[E3:.*]] = vector.extract %[[SUM]][3]
//       CHECK: %[[AT3:.*]] = arith.addi %arg2, %c3
//       CHECK: memref.atomic_rmw addf %[[E3]], %arg0[%[[AT3]]]
func.func @vector(%m: memref<?xf32>, %x: memref<?xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
    %v = vector.load %x[%j] : memref<?xf32>, vector<4xf32>
    %a = arith.addf %v, %acc : vector<4xf32>
    scf.yield %a : vector<4xf32>
  }
  vector.store %sum, %m[%i] {sptir.atomic} : memref<?xf32>, vector<4xf32>
  return
}

// -----

// Aligned to its 16 bytes (vectorize-loops' claim): the first lane's add
// is marked as the start of one vector of 4; aligned to 8 bytes only, not.
// CHECK-LABEL: func.func @aligned_vector
//       CHECK: memref.atomic_rmw addf {{.*}} {sptir.vector_add = 4 : i64}
//   CHECK-NOT: sptir.vector_add
//       CHECK: return
func.func @aligned_vector(%m: memref<?xf32>, %x: memref<?xf32>, %i: index) {
  %init = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  %v = vector.load %x[%i] : memref<?xf32>, vector<4xf32>
  %a = arith.addf %v, %init : vector<4xf32>
  vector.store %a, %m[%i] {alignment = 16 : i64, sptir.atomic} : memref<?xf32>, vector<4xf32>
  %init2 = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  %b = arith.addf %v, %init2 : vector<4xf32>
  vector.store %b, %m[%i] {alignment = 8 : i64, sptir.atomic} : memref<?xf32>, vector<4xf32>
  return
}

// -----

// Integers add with addi.
// CHECK-LABEL: func.func @integer
//       CHECK: memref.atomic_rmw addi
func.func @integer(%m: memref<?xi32>, %v: i32, %i: index) {
  %old = memref.load %m[%i] : memref<?xi32>
  %new = arith.addi %v, %old : i32
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xi32>
  return
}

// -----

func.func @overwrite(%m: memref<?xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{lower-atomic-accumulations: the stored value is not the element's old value plus other terms}}
  memref.store %v, %m[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

func.func @doubled(%m: memref<?xf32>, %i: index) {
  %old = memref.load %m[%i] : memref<?xf32>
  %new = arith.addf %old, %old : f32
  // expected-error@+1 {{lower-atomic-accumulations: the stored value is not the element's old value plus other terms}}
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

// The element stored back as loaded adds no term (rewriting it crashed on
// the erased load).
func.func @stored_as_loaded(%m: memref<?xf32>, %i: index) {
  %old = memref.load %m[%i] : memref<?xf32>
  // expected-error@+1 {{lower-atomic-accumulations: the stored value is not the element's old value plus other terms}}
  memref.store %old, %m[%i] {sptir.atomic} : memref<?xf32>
  return
}

// -----

// A sum of a type the GPU has no atomic add for is refused where it was
// bound atomically (sparse-pos-bind's atomic=true).
func.func @no_atomic_add(%m: memref<?xf8E5M2>, %x: memref<?xf8E5M2>, %i: index) {
  %old = memref.load %m[%i] : memref<?xf8E5M2>
  %v = memref.load %x[%i] : memref<?xf8E5M2>
  %new = arith.addf %old, %v : f8E5M2
  // expected-error@+1 {{lower-atomic-accumulations: the GPU has no atomic add of f8E5M2; it adds f16, bf16, f32, f64, i32 and i64}}
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xf8E5M2>
  return
}

// -----

func.func @no_atomic_index_add(%m: memref<?xindex>, %x: memref<?xindex>, %i: index) {
  %old = memref.load %m[%i] : memref<?xindex>
  %v = memref.load %x[%i] : memref<?xindex>
  %new = arith.addi %old, %v : index
  // expected-error@+1 {{the GPU has no atomic add of index}}
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xindex>
  return
}

// -----

// Nor has it atomics of a vector element (a memref of vector<4xf32>).
func.func @no_atomic_vector_add(%m: memref<?xvector<4xf32>>, %x: memref<?xvector<4xf32>>, %i: index) {
  %old = memref.load %m[%i] : memref<?xvector<4xf32>>
  %v = memref.load %x[%i] : memref<?xvector<4xf32>>
  %new = arith.addf %old, %v : vector<4xf32>
  // expected-error@+1 {{the GPU has no atomic add of vector<4xf32>}}
  memref.store %new, %m[%i] {sptir.atomic} : memref<?xvector<4xf32>>
  return
}
