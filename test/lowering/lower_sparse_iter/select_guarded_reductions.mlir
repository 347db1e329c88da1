// RUN: sptir-opt %s --split-input-file -p 'builtin.module(lower-sparse-iter)' | FileCheck %s

// Reductions under a guard the data decides become unguarded updates by
// select(c, term, identity): -inf for a maximum, 0 for an integer sum.
// CHECK-LABEL: func.func @positives
//   CHECK-NOT: scf.if
//       CHECK: %[[E:[^ ]+]] = sparse_pos.load
//       CHECK: %[[C:[^ ]+]] = arith.cmpf ogt, %[[E]]
//       CHECK: %[[NINF:[^ ]+]] = arith.constant 0xFF800000 : f32
//       CHECK: %[[T:[^ ]+]] = arith.select %[[C]], %[[E]], %[[NINF]] : f32
//       CHECK: arith.maximumf %{{[^ ]+}}, %[[T]] : f32
//       CHECK: %[[N:[^ ]+]] = arith.select %[[C]], %{{[^ ]+}}, %{{[^ ]+}} : i32
//       CHECK: arith.addi %{{[^ ]+}}, %[[N]] : i32
//   CHECK-NOT: scf.if
func.func @positives(%x: memref<?xf32>, %mx: memref<?xf32>, %count: memref<?xi32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %MX = sparse_iter.match_buffer %mx [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  %N = sparse_iter.match_buffer %count [] : memref<?xi32> -> !sparse_iter.buffer<0, i32>
  sparse_iter.iterate "it" [%I] "R" body {
  ^bb0(%i: index):
    %e = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %e, %zero : f32
    scf.if %c {
      %top = sparse_iter.load %MX[] : !sparse_iter.buffer<0, f32>
      %t = arith.maximumf %top, %e : f32
      sparse_iter.store %t, %MX[] : !sparse_iter.buffer<0, f32>
      %seen = sparse_iter.load %N[] : !sparse_iter.buffer<0, i32>
      %one = arith.constant 1 : i32
      %more = arith.addi %seen, %one : i32
      sparse_iter.store %more, %N[] : !sparse_iter.buffer<0, i32>
    }
  }
  return
}

// -----

// Left guarded: a store that does not reduce (the guard decides whether
// it happens at all), an else branch, and a reduction whose term reads
// the element it updates.
// CHECK-LABEL: func.func @kept
//       CHECK: scf.if
//       CHECK: scf.if
//       CHECK: } else {
//       CHECK: scf.if
func.func @kept(%x: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [] : memref<?xf32> -> !sparse_iter.buffer<0, f32>
  sparse_iter.iterate "it" [%I] "R" body {
  ^bb0(%i: index):
    %e = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %e, %zero : f32
    scf.if %c {
      sparse_iter.store %e, %Y[] : !sparse_iter.buffer<0, f32>
    }
    scf.if %c {
      %old = sparse_iter.load %Y[] : !sparse_iter.buffer<0, f32>
      %s = arith.addf %old, %e : f32
      sparse_iter.store %s, %Y[] : !sparse_iter.buffer<0, f32>
    } else {
      %old = sparse_iter.load %Y[] : !sparse_iter.buffer<0, f32>
      %s = arith.addf %old, %zero : f32
      sparse_iter.store %s, %Y[] : !sparse_iter.buffer<0, f32>
    }
    scf.if %c {
      %old = sparse_iter.load %Y[] : !sparse_iter.buffer<0, f32>
      %sq = arith.mulf %old, %old : f32
      %s = arith.addf %old, %sq : f32
      sparse_iter.store %s, %Y[] : !sparse_iter.buffer<0, f32>
    }
  }
  return
}
