// RUN: sptir-opt %s -p 'builtin.module(contract-float-ops)' | FileCheck %s

// Float multiplies, adds and subtractions, scalar or vector, may contract;
// flags an op already has are kept; integer arithmetic is left alone.
// CHECK-LABEL: func.func @mixed
//       CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
//       CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
//       CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
//       CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<fast> : f32
//       CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf32>
//       CHECK: arith.muli %{{.*}}, %{{.*}} : i32
func.func @mixed(%a: f32, %b: f32, %v: vector<4xf32>, %i: i32) -> (f32, f32, vector<4xf32>, i32) {
  %p = arith.mulf %a, %b : f32
  %s = arith.addf %p, %a : f32
  %d = arith.subf %s, %b fastmath<nnan> : f32
  %f = arith.mulf %d, %d fastmath<fast> : f32
  %w = arith.mulf %v, %v : vector<4xf32>
  %k = arith.muli %i, %i : i32
  return %s, %f, %w, %k : f32, f32, vector<4xf32>, i32
}
