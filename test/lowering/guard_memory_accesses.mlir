// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses)' | FileCheck %s
// RUN: sptir-opt %s -p 'builtin.module(guard-memory-accesses,serialize-launches,sptir-stage3-to-llvm)' -o /dev/null

// Each access checks every index against its dimension (a constant where
// the size is static, memref.dim where not), and a vector access its last
// index plus the vector's length. Inside: the access, its results passed
// on. Outside: the count in the new last parameter goes up by one, its
// second element becomes at least the check's number, and a load yields
// zero. The module lists the checks, numbered from 1.
// CHECK: module attributes {sptir.memory_checks = [
// CHECK-SAME: "{{.*}}guard_memory_accesses.mlir:[[@LINE+37]]:8: load from parameter #0 (memref<?xf32>) in @k",
// CHECK-SAME: "{{.*}}guard_memory_accesses.mlir:[[@LINE+37]]:3: store to parameter #1 (memref<8xf32>) in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+37]]:8: vector load from parameter #0 (memref<?xf32>) in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+37]]:3: vector store to parameter #1 (memref<8xf32>) in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+37]]:8: load from parameter #2 (memref<4x?xi32>) in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+37]]:8: atomic update of parameter #2 (memref<4x?xi32>) in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+41]]:8: load from the memref<16xf32, strided<[1], offset: 16>, 3> of 'memref.alloca' at {{.*}}:[[@LINE+39]]:8 in @k",
// CHECK-SAME: "{{.*}}:[[@LINE+56]]:5: store to parameter #0 (memref<?xf32>) in @launch",
// CHECK-LABEL: func.func @k(
//  CHECK-SAME: %[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<8xf32>, %[[S:.*]]: memref<4x?xi32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[F:.*]]: memref<?xi32>)
//       CHECK: %[[DIM:.*]] = memref.dim %[[A]], %{{.*}} : memref<?xf32>
//       CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[DIM]] : index
//       CHECK: %[[V:.*]] = scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:   %[[L:.*]] = memref.load %[[A]][%[[I]]] : memref<?xf32>
//  CHECK-NEXT:   scf.yield %[[L]] : f32
//  CHECK-NEXT: } else {
//       CHECK:   memref.atomic_rmw addi %{{.*}}, %[[F]][%{{.*}}] : (i32, memref<?xi32>) -> i32
//       CHECK:   %[[ID:.*]] = arith.constant 1 : i32
//       CHECK:   memref.atomic_rmw maxs %[[ID]], %[[F]][%{{.*}}] : (i32, memref<?xi32>) -> i32
//       CHECK:   %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   scf.yield %[[Z]] : f32
//       CHECK: %[[C8:.*]] = arith.constant 8 : index
//       CHECK: arith.cmpi ult, %[[J]], %[[C8]] : index
//       CHECK: memref.store %[[V]], %[[B]][%[[J]]]
//       CHECK: %[[END:.*]] = arith.addi %[[J]], %{{.*}} : index
//       CHECK: arith.cmpi ule, %[[END]], %{{.*}} : index
//       CHECK: scf.if %{{.*}} -> (vector<4xf32>)
//       CHECK:   arith.constant dense<0.000000e+00> : vector<4xf32>
//       CHECK: vector.store
//       CHECK: memref.dim %[[S]], %{{.*}} : memref<4x?xi32>
//       CHECK: arith.andi
//       CHECK: memref.load %[[S]][%[[I]], %[[J]]]
//       CHECK: memref.atomic_rmw addi %{{.*}}, %[[S]][%[[J]], %[[I]]]
//   A 0-D memref has no index to check.
//       CHECK: %[[R:.*]] = memref.alloca() : memref<f32>
//  CHECK-NEXT: memref.store %[[V]], %[[R]][] : memref<f32>
func.func @k(%a: memref<?xf32>, %b: memref<8xf32>, %s: memref<4x?xi32>, %i: index, %j: index) {
  %v = memref.load %a[%i] : memref<?xf32>
  memref.store %v, %b[%j] : memref<8xf32>
  %w = vector.load %a[%j] : memref<?xf32>, vector<4xf32>
  vector.store %w, %b[%i] : memref<8xf32>, vector<4xf32>
  %x = memref.load %s[%i, %j] : memref<4x?xi32>
  %y = memref.atomic_rmw addi %x, %s[%j, %i] : (i32, memref<4x?xi32>) -> i32
  %r = memref.alloca() : memref<f32>
  memref.store %v, %r[] : memref<f32>
  %t = memref.alloca() : memref<64xf32, 3>
  %u = memref.subview %t[16] [16] [1] : memref<64xf32, 3> to memref<16xf32, strided<[1], offset: 16>, 3>
  %e = memref.load %u[%i] : memref<16xf32, strided<[1], offset: 16>, 3>
  return
}

// Accesses inside launches are checked where they are; the launch uses
// the function's new parameter like any other value from outside.
// CHECK-LABEL: func.func @launch(
//  CHECK-SAME: %[[A:.*]]: memref<?xf32>, %{{.*}}: index, %[[F:.*]]: memref<?xi32>)
//       CHECK: gpu.launch
//       CHECK:   scf.if
//       CHECK:     memref.store %{{.*}}, %[[A]]
//       CHECK:     memref.atomic_rmw maxs %{{.*}}, %[[F]]
func.func @launch(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// A complex load out of bounds yields a complex zero.
// CHECK-LABEL: func.func @complex(
//       CHECK: scf.if %{{.*}} -> (complex<f32>)
//       CHECK:   memref.load
//       CHECK: } else {
//       CHECK:   complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
func.func @complex(%a: memref<?xcomplex<f32>>, %b: memref<?xcomplex<f32>>, %i: index) {
  %v = memref.load %a[%i] : memref<?xcomplex<f32>>
  memref.store %v, %b[%i] : memref<?xcomplex<f32>>
  return
}

// A memref of vectors holds one vector an element: a vector load of one
// checks its index alone.
// CHECK-LABEL: func.func @of_vectors(
//       CHECK: %[[C8:.*]] = arith.constant 8 : index
//  CHECK-NEXT: arith.cmpi ult, %{{.*}}, %[[C8]] : index
//   CHECK-NOT: arith.cmpi ule
//       CHECK: vector.load
func.func @of_vectors(%a: memref<8xvector<4xf32>>, %i: index) -> vector<4xf32> {
  %v = vector.load %a[%i] : memref<8xvector<4xf32>>, vector<4xf32>
  return %v : vector<4xf32>
}

// An access through views also checks that the elements it touches lie in
// the memory the views start from: a view's sizes and offset are its
// maker's claim. Positions count elements from the view's offset and
// strides, against the root's span.
// CHECK-LABEL: func.func @views(
//  CHECK-SAME: %[[A:.*]]: memref<?xf32>, %{{.*}}: index, %[[I:.*]]: index,
//       CHECK: %[[V:.*]] = memref.reinterpret_cast %[[A]]
//       CHECK: %[[D:.*]] = memref.dim %[[V]]
//       CHECK: arith.cmpi ult, %[[I]], %[[D]]
//       CHECK: %{{[^,]*}}, %[[VOFF:[^,]*]], %{{[^,]*}}, %[[VSTRIDE:[^ ]*]] = memref.extract_strided_metadata %[[V]]
//  CHECK-NEXT: %[[AT:.*]] = arith.muli %[[I]], %[[VSTRIDE]]
//  CHECK-NEXT: arith.addi %[[VOFF]], %[[AT]]
//       CHECK: %{{[^,]*}}, %{{[^,]*}}, %[[RSIZE:[^,]*]], %{{[^ ]*}} = memref.extract_strided_metadata %[[A]]
//       CHECK: arith.cmpi sgt, %[[RSIZE]]
//       CHECK: arith.cmpi sge
//       CHECK: arith.cmpi sle
//       CHECK: scf.if
//       CHECK:   memref.store %{{.*}}, %[[V]][%[[I]]]
// memref.view moves the pointer by bytes and changes the element type:
// positions are then bytes from each one's aligned pointer.
//       CHECK: %[[W:.*]] = memref.view
//       CHECK: memref.extract_aligned_pointer_as_index %[[W]]
//       CHECK: memref.extract_aligned_pointer_as_index %[[B:[^ ]*]]
//       CHECK: scf.if
//       CHECK:   memref.load %[[W]]
func.func @views(%a: memref<?xf32>, %n: index, %i: index, %b: memref<?xi8>) -> f32 {
  %one = arith.constant 1.0 : f32
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  memref.store %one, %v[%i] : memref<?xf32, strided<[1]>>
  %w = memref.view %b[%n][] : memref<?xi8> to memref<4xf32>
  %x = memref.load %w[%i] : memref<4xf32>
  return %x : f32
}
