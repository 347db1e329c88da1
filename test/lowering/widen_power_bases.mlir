// RUN: sptir-opt %s -p 'builtin.module(widen-power-bases)' | FileCheck %s

// fpowi on f32, f16 and vectors of them is computed in f64 and rounded
// back; on f64 it stays.
// CHECK-LABEL: func.func @powers
//       CHECK: %[[X:.*]] = arith.extf %arg0 : f32 to f64
//       CHECK: %[[P:.*]] = math.fpowi %[[X]], %arg3 : f64, i32
//       CHECK: arith.truncf %[[P]] : f64 to f32
//       CHECK: %[[H:.*]] = arith.extf %arg1 : f16 to f64
//       CHECK: %[[Q:.*]] = math.fpowi %[[H]], %arg3 fastmath<nnan> : f64, i32
//       CHECK: arith.truncf %[[Q]] : f64 to f16
//       CHECK: %[[V:.*]] = arith.extf %arg2 : vector<4xf32> to vector<4xf64>
//       CHECK: %[[R:.*]] = math.fpowi %[[V]], %arg4 : vector<4xf64>, vector<4xi32>
//       CHECK: arith.truncf %[[R]] : vector<4xf64> to vector<4xf32>
//       CHECK: math.fpowi %arg5, %arg3 : f64, i32
//   CHECK-NOT: arith.truncf
func.func @powers(%x: f32, %h: f16, %v: vector<4xf32>, %n: i32, %ns: vector<4xi32>, %d: f64)
    -> (f32, f16, vector<4xf32>, f64) {
  %a = math.fpowi %x, %n : f32, i32
  %b = math.fpowi %h, %n fastmath<nnan> : f16, i32
  %c = math.fpowi %v, %ns : vector<4xf32>, vector<4xi32>
  %e = math.fpowi %d, %n : f64, i32
  return %a, %b, %c, %e : f32, f16, vector<4xf32>, f64
}
