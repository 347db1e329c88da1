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

// Both branches reduce: the then branch's terms are selected by c, the
// else branch's by !c, one update after the other (the element both
// update too).
// CHECK-LABEL: func.func @signs
//   CHECK-NOT: scf.if
//       CHECK: %[[E:[^ ]+]] = sparse_pos.load
//       CHECK: %[[C:[^ ]+]] = arith.cmpf ogt, %[[E]]
//       CHECK: %[[TRUE:[^ ]+]] = arith.constant true
//       CHECK: %[[NC:[^ ]+]] = arith.xori %[[C]], %[[TRUE]] : i1
//       CHECK: %[[T:[^ ]+]] = arith.select %[[C]], %[[E]], %{{[^ ]+}} : f32
//       CHECK: arith.maximumf %{{[^ ]+}}, %[[T]] : f32
//       CHECK: %[[U:[^ ]+]] = arith.select %[[NC]], %{{[^ ]+}}, %{{[^ ]+}} : f32
//       CHECK: arith.maximumf %{{[^ ]+}}, %[[U]] : f32
//       CHECK: %[[N:[^ ]+]] = arith.select %[[NC]], %{{[^ ]+}}, %{{[^ ]+}} : i32
//       CHECK: arith.addi %{{[^ ]+}}, %[[N]] : i32
//   CHECK-NOT: scf.if
func.func @signs(%x: memref<?xf32>, %mx: memref<?xf32>, %count: memref<?xi32>, %m: index) {
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
    } else {
      %top = sparse_iter.load %MX[] : !sparse_iter.buffer<0, f32>
      %ne = arith.negf %e : f32
      %t = arith.maximumf %top, %ne : f32
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
// it happens at all), in a branch or in the else of a reducing one, and a
// reduction whose term reads the element it updates.
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
      sparse_iter.store %zero, %Y[] : !sparse_iter.buffer<0, f32>
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

// -----

// Left guarded too: an element that a spatial position shares with others
// (only row j wrote y[j]; unguarded, every row would read and write it
// back at once), a combine that fast-math lets assume no NaN or infinity
// (the identities would be poison), and a division the guard protects.
// CHECK-LABEL: func.func @unsafe
//       CHECK: scf.if
//       CHECK: scf.if
//       CHECK: scf.if
//       CHECK: index.divs
func.func @unsafe(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %y: memref<?xf32>,
                  %z: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%Jd] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "diag" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %on = arith.cmpi eq, %i, %j : index
    scf.if %on {
      %old = sparse_iter.load %Y[%j] : !sparse_iter.buffer<1, f32>
      %t = arith.maximumf %old, %e : f32
      sparse_iter.store %t, %Y[%j] : !sparse_iter.buffer<1, f32>
    }
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %e, %zero : f32
    scf.if %pos {
      %old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
      %t = arith.maxnumf %old, %e fastmath<fast> : f32
      sparse_iter.store %t, %Z[%i] : !sparse_iter.buffer<1, f32>
    }
    %c0 = arith.constant 0 : index
    %nz = arith.cmpi ne, %j, %c0 : index
    scf.if %nz {
      %c100 = arith.constant 100 : index
      %q = index.divs %c100, %j
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %old = sparse_iter.load %Z[%i] : !sparse_iter.buffer<1, f32>
      %t = arith.addf %old, %qf : f32
      sparse_iter.store %t, %Z[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----

// One update stored twice: its term is selected once, and both stores
// keep storing it.
// CHECK-LABEL: func.func @twice
//   CHECK-NOT: scf.if
//       CHECK: %[[T:[^ ]+]] = arith.select
//  CHECK-NEXT: %[[M:[^ ]+]] = arith.maximumf %{{[^ ]+}}, %[[T]] : f32
//  CHECK-NEXT: sparse_pos.store %[[M]]
//  CHECK-NEXT: sparse_pos.store %[[M]]
func.func @twice(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "r" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %xv = sparse_iter.load %X[%i, %j] : !sparse_iter.buffer<2, f32>
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %xv, %zero : f32
    scf.if %pos {
      %b = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
      %t = arith.maximumf %b, %xv : f32
      sparse_iter.store %t, %Y[%i] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %t, %Y[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
