// RUN: sptir-opt %s -p 'builtin.module(drop-cast-fast-math)' | FileCheck %s
// RUN: sptir-opt %s -p 'builtin.module(sptir-stage3-to-llvm)' | FileCheck %s --check-prefix=LLVM

// The casts lose their flags; other ops keep theirs.
// CHECK-LABEL: func.func @casts
//       CHECK: arith.extf %arg0 : f16 to f32
//       CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
//       CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @casts(%a: f16) -> f16 {
  %0 = arith.extf %a fastmath<contract> : f16 to f32
  %1 = arith.addf %0, %0 fastmath<contract> : f32
  %2 = arith.truncf %1 fastmath<contract> : f32 to f16
  return %2 : f16
}

// f16 math runs in f32 between casts that math-extend-to-supported-types
// marks; in the LLVM dialect they carry no #arith attribute, so the module
// parses where arith is not loaded (mlir-translate, mlir-runner).
// LLVM-LABEL: llvm.func @exp16
//       LLVM: llvm.fpext %{{.*}} : f16 to f32
//   LLVM-NOT: #arith
//       LLVM: llvm.return
func.func @exp16(%a: f16) -> f16 {
  %0 = math.exp %a : f16
  return %0 : f16
}
