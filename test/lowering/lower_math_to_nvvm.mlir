// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-math-to-nvvm))' | FileCheck %s
// RUN: sptir-opt %S/Inputs/tanh_f64.mlir --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(math-expand-ops,lower-math-to-nvvm))'
// RUN: sptir-opt %S/Inputs/ceil_vector.mlir --pass-pipeline='builtin.module(gpu.module(math-expand-ops{ops=tan,tanh,sinh,cosh,asinh,acosh,atanh,powf,fpowi,rsqrt,ctlz,clampf},lower-math-to-nvvm))' | FileCheck %S/Inputs/ceil_vector.mlir
// RUN: sptir-opt %S/Inputs/ceil_f16.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-math-to-nvvm))' | FileCheck %S/Inputs/ceil_f16.mlir
// RUN: sptir-opt %S/../../tools/tests/inputs/roundings.mlir --sptir-to-gpu | FileCheck %s --check-prefix=PTX
// RUN: sptir-opt %S/Inputs/ipowi_gpu.mlir --sptir-to-gpu | FileCheck %S/Inputs/ipowi_gpu.mlir

// Through the whole GPU pipeline, ceil, round, roundeven and fma are the
// PTX instructions, not math-expand-ops' conversions through i64 (wrong
// beyond 2^63 and for NaN) or a multiply and an add.
//       PTX: .visible .entry roundings_kernel(
//   PTX-NOT: cvt.rzi.s64.f32
//       PTX: cvt.rpi.f32.f32
//   PTX-NOT: cvt.rzi.s64.f32
//       PTX: cvt.rni.f32.f32
//   PTX-NOT: cvt.rzi.s64.f32
//       PTX: fma.rn.f32
//   PTX-NOT: cvt.rzi.s64.f32

// Each math function becomes the hardware's instruction: exact ones on
// f32 and f64, approximate ones on f32 with exp and log rescaled.
// CHECK-LABEL: gpu.func @functions
//       CHECK:   llvm.call_intrinsic "llvm.fabs.f32"
//       CHECK:   llvm.call_intrinsic "llvm.sqrt.f64"
//       CHECK:   llvm.call_intrinsic "llvm.fma.f32"(%{{.*}}, %{{.*}}, %{{.*}})
//       CHECK:   %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
//       CHECK:   %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[SCALED]])
//       CHECK:   %[[LG2:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
//       CHECK:   %[[LN2:.*]] = arith.constant 0.693147182 : f32
//       CHECK:   arith.mulf %[[LG2]], %[[LN2]] : f32
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.sin.approx.f"
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.cos.approx.f"
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @functions(%x: f32, %d: f64) -> f32 {
    %a = math.absf %x : f32
    %s = math.sqrt %d : f64
    %f = math.fma %a, %x, %x : f32
    %e = math.exp %f : f32
    %l = math.log %e : f32
    %si = math.sin %l : f32
    %co = math.cos %si : f32
    %r = math.rsqrt %co : f32
    gpu.return %r : f32
  }
}

// -----

gpu.module @kernels {
  gpu.func @approximate_f64(%d: f64) -> f64 {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.exp' on f64 (the op here, or what math-expand-ops writes an op here with: tanh, powf, sinh, cosh, ... on f64 use exp and log) has no lowering on the GPU without CUDA's libdevice (f32 has one)}}
    %e = math.exp %d : f64
    gpu.return %e : f64
  }
}

// -----

// Roundings and copysign are exact instructions on f32 and f64 alike.
// CHECK-LABEL: gpu.func @roundings
//       CHECK:   llvm.call_intrinsic "llvm.floor.f32"
//       CHECK:   llvm.call_intrinsic "llvm.ceil.f64"
//       CHECK:   llvm.call_intrinsic "llvm.trunc.f32"
//       CHECK:   llvm.call_intrinsic "llvm.roundeven.f64"
//       CHECK:   llvm.call_intrinsic "llvm.round.f32"
//       CHECK:   llvm.call_intrinsic "llvm.copysign.f64"(%{{.*}}, %{{.*}})
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @roundings(%x: f32, %d: f64) -> f64 {
    %f = math.floor %x : f32
    %c = math.ceil %d : f64
    %t = math.trunc %f : f32
    %e = math.roundeven %c : f64
    %r = math.round %t : f32
    %s = math.copysign %e, %d : f64
    gpu.return %s : f64
  }
}

// -----

// erf on f32: the series x P(x^2) for |x| <= 1, 1 - t A(t) e^(-x^2) with
// t = 1 / (1 + p |x|) above, its sign that of x; exp and abs then become
// instructions like any other.
// CHECK-LABEL: gpu.func @erf
//       CHECK:   %[[ABS:.*]] = llvm.call_intrinsic "llvm.fabs.f32"(%arg0)
//       CHECK:   %[[SQUARE:.*]] = arith.mulf %arg0, %arg0 : f32
//       CHECK:   %[[SERIES:.*]] = arith.mulf %arg0, %{{.*}} : f32
//       CHECK:   %[[NEG:.*]] = arith.negf %[[SQUARE]] : f32
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   %[[NEAR:.*]] = arith.cmpf ole, %[[ABS]], %{{.*}} : f32
//       CHECK:   %[[ERF:.*]] = arith.select %[[NEAR]], %[[SERIES]], %{{.*}} : f32
//       CHECK:   gpu.return %[[ERF]]
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @erf(%x: f32) -> f32 {
    %e = math.erf %x : f32
    gpu.return %e : f32
  }
}

// -----

gpu.module @kernels {
  gpu.func @no_instruction(%x: f32) -> f32 {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.erfc' here has no lowering on the GPU without CUDA's libdevice; write it with arith and the math ops that have one: on f32 abs}}
    %e = math.erfc %x : f32
    gpu.return %e : f32
  }
}

// -----

gpu.module @kernels {
  gpu.func @erf_f64(%x: f64) -> f64 {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.erf' on f64 has no lowering on the GPU without CUDA's libdevice}}
    %e = math.erf %x : f64
    gpu.return %e : f64
  }
}


// -----

// A vectorized loop's math: each lane's elements go through the scalar
// instruction (the approximate ones have no vector form), the operands'
// lanes in step, and the lanes are gathered back; erf's expansion too.
// CHECK-LABEL: gpu.func @vectors
//       CHECK:   %[[X0:.*]] = vector.extract %arg0[0] : f32 from vector<2xf32>
//       CHECK:   %[[Y0:.*]] = vector.extract %arg1[0] : f32 from vector<2xf32>
//       CHECK:   %[[Z0:.*]] = vector.extract %arg2[0] : f32 from vector<2xf32>
//       CHECK:   %[[F0:.*]] = llvm.call_intrinsic "llvm.fma.f32"(%[[X0]], %[[Y0]], %[[Z0]])
//       CHECK:   %[[X1:.*]] = vector.extract %arg0[1] : f32 from vector<2xf32>
//       CHECK:   %[[F1:.*]] = llvm.call_intrinsic "llvm.fma.f32"(%[[X1]],
//       CHECK:   %[[FMA:.*]] = vector.from_elements %[[F0]], %[[F1]] : vector<2xf32>
//       CHECK:   vector.extract %[[FMA]][0] : f32 from vector<2xf32>
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   vector.extract %[[FMA]][1] : f32 from vector<2xf32>
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   vector.extract %{{.*}}[1, 0] : f32 from vector<2x2xf32>
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   arith.select
//       CHECK:   vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<2x2xf32>
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @vectors(%x: vector<2xf32>, %y: vector<2xf32>, %z: vector<2xf32>, %w: vector<2x2xf32>) -> vector<2x2xf32> {
    %f = math.fma %x, %y, %z fastmath<contract> : vector<2xf32>
    %e = math.exp %f : vector<2xf32>
    %r = math.erf %w : vector<2x2xf32>
    gpu.return %r : vector<2x2xf32>
  }
}

// -----

gpu.module @kernels {
  gpu.func @vector_f64_approximate(%x: vector<2xf64>) -> vector<2xf64> {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.sin' on f64}}
    %s = math.sin %x : vector<2xf64>
    gpu.return %s : vector<2xf64>
  }
}

// -----

// powf as 2^(y log2 |x|) with C's signs and special cases: an odd integer
// power of a negative base negative (x^3 in GELU), a power that is not an
// integer NaN, x^0 and 1^y one; fpowi the same with the integer's low bit.
// CHECK-LABEL: gpu.func @powers
//       CHECK:   %[[TRUNC:.*]] = llvm.call_intrinsic "llvm.trunc.f32"(%arg1)
//       CHECK:   %[[INTEGER:.*]] = arith.cmpf oeq, %[[TRUNC]], %arg1 : f32
//       CHECK:   %[[ABS:.*]] = llvm.call_intrinsic "llvm.fabs.f32"(%arg0)
//       CHECK:   %[[LG2:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[ABS]])
//       CHECK:   %[[PRODUCT:.*]] = arith.mulf %arg1, %[[LG2]] : f32
//       CHECK:   %[[POWER:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[PRODUCT]])
//       CHECK:   %[[NEGATED:.*]] = arith.negf %[[POWER]] : f32
//       CHECK:   arith.select %{{.*}}, %[[NEGATED]], %[[POWER]] : f32
//       CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
//       CHECK:   arith.cmpf oeq, %arg1, %{{.*}} : f32
//       CHECK:   %[[N:.*]] = arith.sitofp %arg2 : i32 to f32
//       CHECK:   %[[BIT:.*]] = arith.andi %arg2, %{{.*}} : i32
//       CHECK:   arith.cmpi ne, %[[BIT]], %{{.*}} : i32
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
//       CHECK:   arith.mulf %[[N]], %{{.*}} : f32
//       CHECK:   llvm.call_intrinsic "llvm.sqrt.f32"
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
//       CHECK:   llvm.call_intrinsic "llvm.copysign.f32"
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @powers(%x: f32, %y: f32, %n: i32) -> (f32, f32, f32) {
    %p = math.powf %x, %y : f32
    %q = math.fpowi %x, %n : f32, i32
    %s = math.asinh %x : f32
    gpu.return %p, %q, %s : f32, f32, f32
  }
}

// -----

// Constant exponents are exact: integer powers by multiplication (on f64
// too), x^0.5 a square root with pow's +0 and +inf, x^0 one.
// CHECK-LABEL: gpu.func @constant_powers
//       CHECK:   %[[SQUARE:.*]] = arith.mulf %arg0, %arg0 : f32
//       CHECK:   %[[CUBE:.*]] = arith.mulf %arg0, %[[SQUARE]] : f32
//       CHECK:   %[[D2:.*]] = arith.mulf %arg1, %arg1 : f64
// A negative power is 1 / x^|n|, or (1 / x)^|n| where x^|n| overflows.
//       CHECK:   %[[RECIPROCAL:.*]] = arith.divf %{{.*}}, %arg1 : f64
//       CHECK:   arith.mulf %[[RECIPROCAL]], %[[RECIPROCAL]] : f64
//       CHECK:   %[[INVERSE:.*]] = arith.select
//       CHECK:   %[[ROOT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%arg0)
//       CHECK:   arith.addf %[[ROOT]], %{{.*}} : f32
//       CHECK:   arith.select
//   CHECK-NOT:   lg2
//       CHECK:   gpu.return %[[CUBE]], %[[INVERSE]], %{{.*}}, %{{.*}} : f32, f64, f32, f32
gpu.module @kernels {
  gpu.func @constant_powers(%x: f32, %d: f64) -> (f32, f64, f32, f32) {
    %three = arith.constant 3.0 : f32
    %p = math.powf %x, %three : f32
    %n = arith.constant -2 : i32
    %q = math.fpowi %d, %n : f64, i32
    %half = arith.constant 0.5 : f32
    %r = math.powf %x, %half : f32
    %zero = arith.constant 0.0 : f32
    %z = math.powf %x, %zero : f32
    gpu.return %p, %q, %r, %z : f32, f64, f32, f32
  }
}

// -----

// A 0-D vector has one element.
// CHECK-LABEL: gpu.func @zero_d
//       CHECK:   %[[E:.*]] = vector.extract %arg0[] : f32 from vector<f32>
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
//       CHECK:   vector.from_elements %{{.*}} : vector<f32>
gpu.module @kernels {
  gpu.func @zero_d(%x: vector<f32>) -> vector<f32> {
    %e = math.exp %x : vector<f32>
    gpu.return %e : vector<f32>
  }
}

// -----

gpu.module @kernels {
  gpu.func @scalable(%x: vector<[4]xf32>) -> vector<[4]xf32> {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.exp' is on a scalable vector, which GPU code does not have}}
    %e = math.exp %x : vector<[4]xf32>
    gpu.return %e : vector<[4]xf32>
  }
}

// -----

// Integer math: population count, leading and trailing zeros and the
// absolute value are LLVM's intrinsics, defined at zero and at the
// minimum (the flag false), lane by lane on vectors; ipowi is refused
// (the GPU pipeline turns it into a function first: Inputs/ipowi_gpu.mlir).
// CHECK-LABEL: gpu.func @integers
//       CHECK:   llvm.call_intrinsic "llvm.ctpop.i32"(%arg0) : (i32) -> i32
//       CHECK:   %[[F:.*]] = arith.constant false
//       CHECK:   llvm.call_intrinsic "llvm.cttz.i64"(%arg1, %[[F]]) : (i64, i1) -> i64
//       CHECK:   llvm.call_intrinsic "llvm.abs.i32"(%arg0, %{{.*}}) : (i32, i1) -> i32
//   CHECK-COUNT-2:   llvm.call_intrinsic "llvm.ctlz.i16"
gpu.module @kernels {
  gpu.func @integers(%x: i32, %y: i64, %v: vector<2xi16>) -> (i32, i64, i32, vector<2xi16>) {
    %a = math.ctpop %x : i32
    %b = math.cttz %y : i64
    %c = math.absi %x : i32
    %d = math.ctlz %v : vector<2xi16>
    gpu.return %a, %b, %c, %d : i32, i64, i32, vector<2xi16>
  }
}

// -----

gpu.module @kernels {
  gpu.func @integer_power(%x: i32) -> i32 {
    // expected-error@+1 {{lower-math-to-nvvm: 'math.ipowi' on integers has no NVPTX instruction (ctpop, ctlz, cttz and absi do); run convert-math-to-funcs before this pass, as sptir-launches-to-gpu does, or write it with arith}}
    %p = math.ipowi %x, %x : i32
    gpu.return %p : i32
  }
}

// -----

// isnan is x unordered with itself; isfinite, |x| ordered and not
// infinite; on any float, lane by lane on vectors.
// CHECK-LABEL: gpu.func @classes
//       CHECK:   arith.cmpf uno, %arg0, %arg0 : f32
//       CHECK:   %[[ABS:.*]] = llvm.call_intrinsic "llvm.fabs.f64"(%arg1)
//       CHECK:   arith.cmpf one, %[[ABS]], %{{.*}} : f64
//       CHECK:   arith.cmpf uno, %arg2, %arg2 : f16
//   CHECK-COUNT-2:   arith.cmpf one
//   CHECK-NOT:   math.
gpu.module @kernels {
  gpu.func @classes(%x: f32, %d: f64, %h: f16, %v: vector<2xf32>) -> (i1, i1, i1, vector<2xi1>) {
    %a = math.isnan %x : f32
    %b = math.isfinite %d : f64
    %c = math.isnan %h : f16
    %e = math.isfinite %v : vector<2xf32>
    gpu.return %a, %b, %c, %e : i1, i1, i1, vector<2xi1>
  }
}

// -----

// The float arith ops that upstream sends to libdevice: maxnumf and
// minnumf become LLVM's maxnum and minnum (PTX max and min), on any float
// and on vectors.
// CHECK-LABEL: gpu.func @extrema
//       CHECK:   llvm.intr.maxnum(%arg0, %arg0) : (f32, f32) -> f32
//       CHECK:   llvm.intr.minnum(%arg1, %arg1) : (f64, f64) -> f64
//       CHECK:   llvm.intr.maxnum(%arg2, %arg2) : (f16, f16) -> f16
//       CHECK:   llvm.intr.minnum(%arg3, %arg3) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
//   CHECK-NOT:   arith.maxnumf
//   CHECK-NOT:   arith.minnumf
gpu.module @kernels {
  gpu.func @extrema(%x: f32, %d: f64, %h: f16, %v: vector<4xf32>) -> f32 {
    %a = arith.maxnumf %x, %x : f32
    %b = arith.minnumf %d, %d : f64
    %c = arith.maxnumf %h, %h : f16
    %e = arith.minnumf %v, %v : vector<4xf32>
    gpu.return %a : f32
  }
}

// -----

// fmod has no PTX instruction.
gpu.module @kernels {
  gpu.func @remainder(%x: f32) -> f32 {
    // expected-error@+1 {{lower-math-to-nvvm: 'arith.remf' (fmod) has no lowering on the GPU without CUDA's libdevice}}
    %r = arith.remf %x, %x : f32
    gpu.return %r : f32
  }
}
