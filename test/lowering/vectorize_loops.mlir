// RUN: sptir-opt %s --split-input-file -p 'builtin.module(vectorize-loops)' | FileCheck %s
// RUN: sptir-opt %S/Inputs/vectorize_invalid.mlir --split-input-file --verify-diagnostics -p 'builtin.module(vectorize-loops)'

// y[r*n + k] = a * x[c*n + k] for k in [base, base+4): vector loads and a
// store at the lane-0 index, under `n % 4 == 0` (the row strides) and
// 16-byte aligned pointers; the scalar loop stays for the other case. The
// guard `k < n` is the same for all lanes then, so it tests lane 0.
// CHECK-LABEL: func.func @axpy_row
//       CHECK: %[[K:.*]] = arith.muli %arg5, %c4
//       CHECK: %[[REM:.*]] = arith.remui %arg4, %c4
//       CHECK: arith.cmpi eq, %[[REM]], %c0
//       CHECK: memref.extract_aligned_pointer_as_index %arg0
//       CHECK: memref.extract_aligned_pointer_as_index %arg1
//       CHECK: scf.if %{{.*}} {
//       CHECK:   %[[OK:.*]] = arith.cmpi ult, %[[K]], %arg4
//       CHECK:   scf.if %[[OK]] {
//       CHECK:     vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
//       CHECK:     vector.broadcast %arg6 : f32 to vector<4xf32>
//       CHECK:     arith.mulf %{{.*}} : vector<4xf32>
//       CHECK:     vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
//       CHECK: } else {
//       CHECK:   scf.for
//       CHECK:     memref.load %arg0
//   CHECK-NOT:   vectorize
func.func @axpy_row(%x: memref<?xf32>, %y: memref<?xf32>, %r: index, %c: index, %n: index, %t: index, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %t, %c4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %k = arith.addi %base, %l : index
    %in = arith.cmpi ult, %k, %n : index
    scf.if %in {
      %xo = arith.muli %c, %n : index
      %xi = arith.addi %xo, %k : index
      %v = memref.load %x[%xi] : memref<?xf32>
      %p = arith.mulf %v, %a : f32
      %yo = arith.muli %r, %n : index
      %yi = arith.addi %yo, %k : index
      memref.store %p, %y[%yi] : memref<?xf32>
    }
  } {vectorize = 4 : index}
  return
}

// -----

// Offsets that are multiples of the width by construction need no check;
// i32 lanes of width 2 claim 8 bytes.
// CHECK-LABEL: func.func @static_offsets
//   CHECK-NOT: arith.remui %{{.*}}, %c2
//       CHECK: memref.extract_aligned_pointer_as_index %arg0
//       CHECK: arith.remui %{{.*}}, %c8
//       CHECK: vector.load %arg0[%{{.*}}] {alignment = 8 : i64} : memref<?xi32>, vector<2xi32>
//       CHECK: arith.addi %{{.*}} : vector<2xi32>
func.func @static_offsets(%x: memref<?xi32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1 : i32
  %base = arith.muli %t, %c6 : index
  scf.for %l = %c0 to %c2 step %c1 {
    %k = arith.addi %base, %l : index
    %v = memref.load %x[%k] : memref<?xi32>
    %w = arith.addi %v, %one : i32
    memref.store %w, %x[%k] : memref<?xi32>
  } {vectorize = 2 : index}
  return
}

// -----

// A dot product: the lanes' products are summed once into the output.
// CHECK-LABEL: func.func @dot
//       CHECK: %[[X:.*]] = vector.load %arg0
//       CHECK: %[[Y:.*]] = vector.load %arg1
//       CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : vector<4xf32>
//       CHECK: %[[S:.*]] = vector.reduction <add>, %[[P]] : vector<4xf32> into f32
//       CHECK: %[[OLD:.*]] = memref.load %arg2[%arg3]
//       CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[S]]
//       CHECK: memref.store %[[NEW]], %arg2[%arg3]
func.func @dot(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %a = memref.load %x[%l] : memref<?xf32>
    %b = memref.load %y[%l] : memref<?xf32>
    %ab = arith.mulf %a, %b : f32
    %o = memref.load %out[%p] : memref<?xf32>
    %s = arith.addf %o, %ab : f32
    memref.store %s, %out[%p] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}

// -----

// Chunks of a split by the vector width: chunk t starts at t*4 < n for
// every t below ceildiv(n, 4), so the tail guard is always true (the
// scalar fallback keeps its per-element guard).
// CHECK-LABEL: func.func @split_chunks
//       CHECK: scf.for %[[T:.*]] = %c0 to %{{.*}} step %c1 {
//       CHECK:   scf.if %{{.*}} {
//  CHECK-NEXT:     %[[TRUE:.*]] = arith.constant true
//  CHECK-NEXT:     scf.if %[[TRUE]] {
//       CHECK:       vector.store
//       CHECK:   } else {
//       CHECK:     arith.cmpi ult
func.func @split_chunks(%y: memref<?xf32>, %n: index, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %chunks = arith.ceildivui %n, %c4 : index
  scf.for %t = %c0 to %chunks step %c1 {
    %base = arith.muli %t, %c4 : index
    scf.for %l = %c0 to %c4 step %c1 {
      %k = arith.addi %base, %l : index
      %in = arith.cmpi ult, %k, %n : index
      scf.if %in {
        memref.store %a, %y[%k] : memref<?xf32>
      }
    } {vectorize = 4 : index}
  }
  return
}

// -----

// An access at a constant offset that is not a multiple of the width (a
// kernel compiled for 33 features) is never aligned: the loop stays
// scalar and unmarked, as the run-time check would choose.
// CHECK-LABEL: func.func @never_aligned
//   CHECK-NOT: vector.
//       CHECK: scf.for
//       CHECK:   memref.store
//   CHECK-NOT: vectorize
//   CHECK-NOT: vector.
func.func @never_aligned(%x: memref<?xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c33 = arith.constant 33 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %k = arith.addi %c33, %l : index
    memref.store %f, %x[%k] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}

// -----

// Mixed precision: f16 features read, computed in f32 (exp, a comparison
// and a select), written back as f16: the conversions have vector forms.
// CHECK-LABEL: func.func @half_features
//       CHECK: %[[H:.*]] = vector.load %arg0[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
//       CHECK: %[[F:.*]] = arith.extf %[[H]] : vector<4xf16> to vector<4xf32>
//       CHECK: %[[E:.*]] = math.exp %[[F]] : vector<4xf32>
//       CHECK: %[[C:.*]] = arith.cmpf ogt, %[[F]], %{{.*}} : vector<4xf32>
//       CHECK: %[[S:.*]] = arith.select %[[C]], %[[E]], %[[F]] : vector<4xi1>, vector<4xf32>
//       CHECK: %[[T:.*]] = arith.truncf %[[S]] : vector<4xf32> to vector<4xf16>
//       CHECK: vector.store %[[T]], %arg1[%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
func.func @half_features(%x: memref<?xf16>, %y: memref<?xf16>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %base = arith.muli %t, %c4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %k = arith.addi %base, %l : index
    %h = memref.load %x[%k] : memref<?xf16>
    %f = arith.extf %h : f16 to f32
    %e = math.exp %f : f32
    %positive = arith.cmpf ogt, %f, %zero : f32
    %s = arith.select %positive, %e, %f : f32
    %o = arith.truncf %s : f32 to f16
    memref.store %o, %y[%k] : memref<?xf16>
  } {vectorize = 4 : index}
  return
}

// -----

// A guarded read that is the same in every lane (a scale s[j] of a buffer
// the kernel also writes, so nothing hoisted it) runs once in the vector
// body as a scalar `if`, and its value is broadcast.
// CHECK-LABEL: func.func @uniform_guarded_read
//       CHECK: scf.if %{{.*}} {
//       CHECK:   %[[S:.*]] = scf.if %{{.*}} -> (f32) {
//  CHECK-NEXT:     memref.load %arg0[%arg3]
//       CHECK:   vector.load %arg1
//       CHECK:   vector.broadcast %[[S]] : f32 to vector<4xf32>
//       CHECK:   vector.store
//       CHECK: } else {
//       CHECK:   scf.for
func.func @uniform_guarded_read(%s: memref<?xf32>, %y: memref<?xf32>, %m: index, %j: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %base = arith.muli %t, %c4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %k = arith.addi %base, %l : index
    %in = arith.cmpi ult, %j, %m : index
    %sj = scf.if %in -> (f32) {
      %v = memref.load %s[%j] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %x = memref.load %y[%k] : memref<?xf32>
    %p = arith.mulf %x, %sj : f32
    memref.store %p, %y[%k] : memref<?xf32>
  } {vectorize = 4 : index}
  memref.store %zero, %s[%c0] : memref<?xf32>
  return
}
