// RUN: sptir-opt %s -p 'builtin.module(split-fma-accumulations)' | FileCheck %s

// A sum written with fma into the element it read becomes an addition of
// the product; an fma whose addend is another element stays.
// CHECK-LABEL: func.func @sums
//       CHECK:   %[[ACC:.*]] = memref.load %arg0[%arg3]
//       CHECK:   %[[PRODUCT:.*]] = arith.mulf %arg1, %arg2 : f32
//       CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[PRODUCT]] : f32
//       CHECK:   memref.store %[[SUM]], %arg0[%arg3]
//       CHECK:   %[[OTHER:.*]] = memref.load %arg0[%arg4]
//       CHECK:   math.fma %arg1, %arg2, %[[OTHER]] : f32
func.func @sums(%m: memref<?xf32>, %a: f32, %b: f32, %i: index, %j: index) {
  %acc = memref.load %m[%i] : memref<?xf32>
  %s = math.fma %a, %b, %acc : f32
  memref.store %s, %m[%i] : memref<?xf32>
  %other = memref.load %m[%j] : memref<?xf32>
  %t = math.fma %a, %b, %other : f32
  memref.store %t, %m[%i] : memref<?xf32>
  return
}
