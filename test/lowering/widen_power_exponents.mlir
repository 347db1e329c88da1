// RUN: sptir-opt %s -p 'builtin.module(widen-power-exponents)' | FileCheck %s

// An exponent of fewer than 8 bits is sign-extended to i32 (true is -1),
// scalar or vector; wider ones stay.
// CHECK-LABEL: func.func @narrow
//       CHECK:   %[[E:.*]] = arith.extsi %arg1 : i1 to i32
//       CHECK:   math.fpowi %arg0, %[[E]] : f32, i32
//       CHECK:   %[[V:.*]] = arith.extsi %arg3 : vector<2xi4> to vector<2xi32>
//       CHECK:   math.fpowi %arg2, %[[V]] : vector<2xf32>, vector<2xi32>
//       CHECK:   math.fpowi %arg0, %arg4 : f32, i8
func.func @narrow(%x: f32, %b: i1, %v: vector<2xf32>, %n: vector<2xi4>, %m: i8) -> (f32, vector<2xf32>, f32) {
  %p = math.fpowi %x, %b : f32, i1
  %q = math.fpowi %v, %n : vector<2xf32>, vector<2xi4>
  %r = math.fpowi %x, %m : f32, i8
  return %p, %q, %r : f32, vector<2xf32>, f32
}
