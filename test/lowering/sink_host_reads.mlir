// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(sink-host-reads)' | FileCheck %s

// A scale read once on the host, with the arithmetic on it, moves into
// the launch that uses it.
// CHECK-LABEL: func.func @scale
//   CHECK-NOT:   memref.load
//   CHECK-NOT:   arith.mulf
//       CHECK:   gpu.launch
//  CHECK-NEXT:     %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
//  CHECK-NEXT:     %[[B:.*]] = arith.mulf %[[A]], %[[A]] : f32
//       CHECK:     %[[X:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xf32>
//       CHECK:     arith.mulf %[[B]], %[[X]] : f32
func.func @scale(%s: memref<2xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %s[%c0] : memref<2xf32>
  %b = arith.mulf %a, %a : f32
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %b, %v : f32
    memref.store %w, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Two launches use the read: each gets its own copy, and only the one
// that uses the product gets the multiplication.
// CHECK-LABEL: func.func @two_launches
//   CHECK-NOT:   memref.load
//       CHECK:   gpu.launch
//  CHECK-NEXT:     %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
//  CHECK-NEXT:     memref.store %[[A]]
//       CHECK:   gpu.launch
//  CHECK-NEXT:     %[[A2:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
//  CHECK-NEXT:     %[[B:.*]] = arith.addf %[[A2]], %[[A2]] : f32
//  CHECK-NEXT:     memref.store %[[B]]
func.func @two_launches(%s: memref<2xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %s[%c0] : memref<2xf32>
  %b = arith.addf %a, %a : f32
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %a, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %b, %z[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch that writes the memory read before it would give its threads
// values other than the one the host read: the read stays.
// CHECK-LABEL: func.func @written_by_the_launch
//       CHECK:   %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xf32>
//       CHECK:   gpu.launch
//   CHECK-NOT:     memref.load %{{.*}}[%c0
//       CHECK:     arith.subf %{{.*}}, %[[A]]
func.func @written_by_the_launch(%y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %y[%c0] : memref<?xf32>
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %y[%i] : memref<?xf32>
    %w = arith.subf %v, %a : f32
    memref.store %w, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch between the read and the one that uses it writes that memory
// (through a view): the read stays.
// CHECK-LABEL: func.func @written_between
//       CHECK:   %[[A:.*]] = memref.load
//       CHECK:   gpu.launch
//       CHECK:   gpu.launch
//       CHECK:     memref.store %[[A]]
func.func @written_between(%s: memref<2xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %s[%c0] : memref<2xf32>
  %view = memref.subview %s[1] [1] [1] : memref<2xf32> to memref<1xf32, strided<[1], offset: 1>>
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%i, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %view[%c0] : memref<1xf32, strided<[1], offset: 1>>
    gpu.terminator
  }
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %a, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A read whose value the host also uses (a launch's size, a result)
// stays where it is, for place-device-memory to name.
// CHECK-LABEL: func.func @host_needs_it
//       CHECK:   %[[E:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi32>
//       CHECK:   %[[N:.*]] = arith.index_cast %[[E]]
//       CHECK:   gpu.launch blocks({{.*}}) in ({{.*}} = %[[N]],
//       CHECK:   %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
//       CHECK:   gpu.launch
//       CHECK:     memref.store %[[A]]
//       CHECK:   return %[[A]]
func.func @host_needs_it(%indptr: memref<?xi32>, %s: memref<2xf32>, %y: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %end = memref.load %indptr[%c1] : memref<?xi32>
  %n = arith.index_cast %end : i32 to index
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  %a = memref.load %s[%c0] : memref<2xf32>
  gpu.launch blocks(%i, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %a, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  return %a : f32
}

// -----

// A launch in a host loop: the read before the loop moves into it, the
// loop's own read (of an element the loop's launch writes) stays.
// CHECK-LABEL: func.func @launch_in_a_loop
//       CHECK:   scf.for %[[K:.*]] =
//       CHECK:     %[[P:.*]] = memref.load %{{.*}}[%[[K]]] : memref<?xf32>
//       CHECK:     gpu.launch
//  CHECK-NEXT:       %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
//  CHECK-NEXT:       %[[G:.*]] = math.exp %[[A]] : f32
//       CHECK:       arith.addf %[[G]], %[[P]] : f32
func.func @launch_in_a_loop(%s: memref<2xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %s[%c0] : memref<2xf32>
  %g = math.exp %a : f32
  scf.for %k = %c0 to %n step %c1 {
    %p = memref.load %y[%k] : memref<?xf32>
    gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %w = arith.addf %g, %p : f32
      memref.store %w, %y[%i] : memref<?xf32>
      gpu.terminator
    }
  }
  return
}

// -----

// A read under a range check (scf.if) moves as a whole; the check on
// the size (no read of an element) stays on the host.
// CHECK-LABEL: func.func @guarded_read
//   CHECK-NOT:   scf.if
//       CHECK:   gpu.launch
//  CHECK-NEXT:     %[[V:.*]] = scf.if
//       CHECK:       memref.load
//       CHECK:     memref.store %[[V]]
func.func @guarded_read(%s: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %size = memref.dim %s, %c0 : memref<?xf32>
  %ok = arith.cmpi ult, %c0, %size : index
  %v = scf.if %ok -> f32 {
    %a = memref.load %s[%c0] : memref<?xf32>
    scf.yield %a : f32
  } else {
    scf.yield %zero : f32
  }
  gpu.launch blocks(%i, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %y[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}
