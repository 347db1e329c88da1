// RUN: sptir-opt %s --split-input-file -p 'builtin.module(merge-alignment-versions)' | FileCheck %s

// A version aligned on C alone, then one aligned on C and B: the first's
// vector code runs in the second's vector branch, its scalar code in the
// scalar branch. The pure op and the load of another memref between them
// stay above.
// CHECK-LABEL: func.func @implied
//   CHECK-NOT: scf.if %arg3 {
//       CHECK: %[[BOTH:.*]] = arith.andi %arg3, %arg4
//       CHECK: memref.load %arg2
//       CHECK: scf.if %[[BOTH]] {
//  CHECK-NEXT:   vector.store %{{.*}}, %arg0
//  CHECK-NEXT:   vector.load %arg1
//       CHECK: } else {
//  CHECK-NEXT:   memref.store %{{.*}}, %arg0
//  CHECK-NEXT:   memref.load %arg1
//       CHECK: } {sptir.version}
func.func @implied(%c: memref<?xf32>, %b: memref<?xf32>, %ptr: memref<?xi32>, %a: i1, %bb: i1, %i: index) {
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %z = arith.constant 0.0 : f32
  scf.if %a {
    vector.store %zero, %c[%i] : memref<?xf32>, vector<4xf32>
  } else {
    memref.store %z, %c[%i] : memref<?xf32>
  } {sptir.version}
  %both = arith.andi %a, %bb : i1
  %p = memref.load %ptr[%i] : memref<?xi32>
  scf.if %both {
    %v = vector.load %b[%i] : memref<?xf32>, vector<4xf32>
  } else {
    %s = memref.load %b[%i] : memref<?xf32>
  } {sptir.version}
  return
}

// -----

// Left apart: a condition that does not imply the first's, a store in
// between, an op between that reads what the first version writes, and
// guards that are not versions.
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-8: scf.if
func.func @apart(%c: memref<?xf32>, %b: memref<?xf32>, %a: i1, %bb: i1, %i: index) {
  %z = arith.constant 0.0 : f32
  scf.if %a {
    memref.store %z, %c[%i] : memref<?xf32>
  } else {
    memref.store %z, %c[%i] : memref<?xf32>
  } {sptir.version}
  scf.if %bb {
    memref.store %z, %b[%i] : memref<?xf32>
  } else {
    memref.store %z, %b[%i] : memref<?xf32>
  } {sptir.version}
  memref.store %z, %b[%i] : memref<?xf32>
  scf.if %bb {
    memref.store %z, %b[%i] : memref<?xf32>
  } else {
    memref.store %z, %b[%i] : memref<?xf32>
  } {sptir.version}
  %x = memref.load %b[%i] : memref<?xf32>
  scf.if %bb {
    memref.store %x, %c[%i] : memref<?xf32>
  } else {
    memref.store %x, %c[%i] : memref<?xf32>
  } {sptir.version}
  scf.if %a {
    memref.store %z, %c[%i] : memref<?xf32>
  }
  scf.if %a {
    memref.store %z, %c[%i] : memref<?xf32>
  } else {
    memref.store %z, %c[%i] : memref<?xf32>
  } {sptir.version}
  scf.if %a {
    memref.store %z, %b[%i] : memref<?xf32>
  } else {
    memref.store %z, %b[%i] : memref<?xf32>
  }
  scf.if %a {
    memref.store %z, %b[%i] : memref<?xf32>
  } else {
    memref.store %z, %b[%i] : memref<?xf32>
  } {sptir.version}
  return
}
