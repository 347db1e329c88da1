// Elementwise math functions over a vector: y[i] = f(x[i]) with exp,
// exp2, log, log2, sqrt, rsqrt, tanh, sin, cos, tan, powf, fpowi, asinh,
// absf, fma, floor, ceil, round, roundeven, trunc and copysign. On
// the GPU they become NVPTX instructions (no libdevice), on the CPU LLVM
// intrinsics.
func.func @math(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "f" [%I] "S" body {
  ^bb0(%i: index):
    %v = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %one = arith.constant 1.0 : f32
    %threehalves = arith.constant 1.5 : f32
    %half = arith.constant 0.5 : f32
    %a = math.absf %v : f32
    %a1 = arith.addf %a, %one : f32
    %e = math.exp %v : f32
    %e2 = math.exp2 %v : f32
    %l = math.log %a1 : f32
    %l2 = math.log2 %a1 : f32
    %s = math.sqrt %a : f32
    %r = math.rsqrt %a1 : f32
    %t = math.tanh %v : f32
    %si = math.sin %v : f32
    %co = math.cos %v : f32
    %p = math.powf %a1, %threehalves : f32
    %f = math.fma %e, %l, %s : f32
    %s1 = arith.addf %f, %e2 : f32
    %s2 = arith.addf %s1, %l2 : f32
    %s3 = arith.addf %s2, %r : f32
    %s4 = arith.addf %s3, %t : f32
    %s5 = arith.addf %s4, %si : f32
    %s6 = arith.addf %s5, %co : f32
    %s7 = arith.addf %s6, %p : f32
    // Roundings of x, of 2.5 x, and of h = trunc(4 x) / 2, whose halves
    // are ties: round goes away from zero, roundeven to the even one.
    %two5 = arith.constant 2.5 : f32
    %four = arith.constant 4.0 : f32
    %w = arith.mulf %v, %two5 : f32
    %v4 = arith.mulf %v, %four : f32
    %t4 = math.trunc %v4 : f32
    %h = arith.mulf %t4, %half : f32
    %fl = math.floor %v : f32
    %ce = math.ceil %w : f32
    %ro = math.round %h : f32
    %re = math.roundeven %h : f32
    %tr = math.trunc %w : f32
    %cs = math.copysign %a1, %v : f32
    // tan of x / 4, away from its poles.
    %quarter = arith.constant 0.25 : f32
    %q = arith.mulf %v, %quarter : f32
    %tn = math.tan %q : f32
    %s8 = arith.addf %s7, %fl : f32
    %s9 = arith.addf %s8, %ce : f32
    %s10 = arith.addf %s9, %ro : f32
    %s11 = arith.addf %s10, %re : f32
    %s12 = arith.addf %s11, %tr : f32
    %s13 = arith.addf %s12, %cs : f32
    // Negative bases to integer powers (x^3 in GELU's tanh form), and
    // asinh of either sign.
    %three = arith.constant 3.0 : f32
    %cube = math.powf %v, %three : f32
    // The same exponent known only at run time (0 x + 3): 2^(3 log2 |x|)
    // with the sign of an odd power.
    %zero = arith.constant 0.0 : f32
    %none = arith.mulf %v, %zero : f32
    %y3 = arith.addf %none, %three : f32
    %cube2 = math.powf %v, %y3 : f32
    %two = arith.constant 2 : i32
    %square = math.fpowi %v, %two : f32, i32
    %as = math.asinh %w : f32
    %s14 = arith.addf %s13, %tn : f32
    %s15 = arith.addf %s14, %cube : f32
    %s15b = arith.addf %s15, %cube2 : f32
    %s16 = arith.addf %s15b, %square : f32
    %s17 = arith.addf %s16, %as : f32
    sparse_iter.store %s17, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
