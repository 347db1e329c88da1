// RUN: sptir-opt %s --split-input-file -p 'builtin.module(lower-sparse-iter)' | FileCheck %s

// A sum of two terms into one element, written `(acc + a) + b` (either
// order), becomes `acc + (a + b)`: an accumulation that threads can share.
// CHECK-LABEL: func.func @two_terms
//       CHECK: %[[ACC:[^ ]+]] = sparse_pos.load %[[Y:[^ ]+]][%[[I:[^ ]+]]] : <1, f32>
//       CHECK: %[[A:[^ ]+]] = sparse_pos.load %[[X:[^ ]+]][%[[I]]] : <1, f32>
//       CHECK: %[[B:[^ ]+]] = arith.mulf %[[A]], %[[A]] : f32
//       CHECK: %[[TERMS:[^ ]+]] = arith.addf %[[A]], %[[B]] : f32
//       CHECK: %[[SUM:[^ ]+]] = arith.addf %[[ACC]], %[[TERMS]] : f32
//       CHECK: sparse_pos.store %[[SUM]], %[[Y]][%[[I]]] : <1, f32>
func.func @two_terms(%x: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I] "R" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %b = arith.mulf %a, %a : f32
    %partial = arith.addf %a, %acc : f32
    %sum = arith.addf %b, %partial : f32
    sparse_iter.store %sum, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// Left as written: a term that reads the element (acc + acc * w), and a
// partial sum used again (each thread would see a different one).
// CHECK-LABEL: func.func @not_regrouped
//       CHECK: %[[ACC:[^ ]+]] = sparse_pos.load
//       CHECK: %[[PARTIAL:[^ ]+]] = arith.addf %[[ACC]], %{{[^ ]+}} : f32
//       CHECK: %[[SUM:[^ ]+]] = arith.addf %[[PARTIAL]], %{{[^ ]+}} : f32
//       CHECK: sparse_pos.store %[[SUM]]
//       CHECK: %[[ACC2:[^ ]+]] = sparse_pos.load
//       CHECK: %[[PARTIAL2:[^ ]+]] = arith.addf %[[ACC2]], %{{[^ ]+}} : f32
//       CHECK: %[[SUM2:[^ ]+]] = arith.addf %[[PARTIAL2]], %{{[^ ]+}} : f32
//       CHECK: sparse_pos.store %[[SUM2]]
//       CHECK: sparse_pos.store %[[PARTIAL2]]
func.func @not_regrouped(%x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Z = sparse_iter.match_buffer %z [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "reads" [%I] "R" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %partial = arith.addf %acc, %a : f32
    %again = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %scaled = arith.mulf %again, %a : f32
    %sum = arith.addf %partial, %scaled : f32
    sparse_iter.store %sum, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  sparse_iter.iterate "used" [%I] "R" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, f32>
    %partial = arith.addf %acc, %a : f32
    %sum = arith.addf %partial, %a : f32
    sparse_iter.store %sum, %Y[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %partial, %Z[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// Overflow and fast-math flags held of the partial sums, not of the new
// ones: `acc + (c + a)` may overflow where `(acc + c) + a` did not.
// CHECK-LABEL: func.func @flags
//       CHECK: %[[T:[^ ]+]] = arith.addi %{{[^ ]+}}, %{{[^ ]+}} : i32
//       CHECK: arith.addi %{{[^ ]+}}, %[[T]] : i32
//       CHECK: %[[F:[^ ]+]] = arith.addf %{{[^ ]+}}, %{{[^ ]+}} : f32
//       CHECK: arith.addf %{{[^ ]+}}, %[[F]] : f32
func.func @flags(%x: memref<?xi32>, %y: memref<?xi32>, %u: memref<?xf32>, %v: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %U = sparse_iter.match_buffer %u [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %V = sparse_iter.match_buffer %v [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "ints" [%I] "S" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, i32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, i32>
    %c = arith.constant 2147483647 : i32
    %partial = arith.addi %acc, %c overflow<nsw> : i32
    %sum = arith.addi %partial, %a overflow<nsw> : i32
    sparse_iter.store %sum, %Y[%i] : !sparse_iter.buffer<1, i32>
  }
  sparse_iter.iterate "floats" [%I] "S" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %V[%i] : !sparse_iter.buffer<1, f32>
    %a = sparse_iter.load %U[%i] : !sparse_iter.buffer<1, f32>
    %partial = arith.addf %acc, %a : f32
    %sum = arith.addf %partial, %a fastmath<nnan,ninf> : f32
    sparse_iter.store %sum, %V[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A maximum of two terms regroups the same way, `max(b, max(acc, a))` as
// `max(acc, max(a, b))`; a maximum around a sum does not (two reductions).
// CHECK-LABEL: func.func @two_maxima
//       CHECK: %[[ACC:[^ ]+]] = sparse_pos.load %[[Y:[^ ]+]][%[[I:[^ ]+]]] : <1, i32>
//       CHECK: %[[A:[^ ]+]] = sparse_pos.load %{{[^ ]+}}[%[[I]]] : <1, i32>
//       CHECK: %[[B:[^ ]+]] = arith.muli %[[A]], %[[A]] : i32
//       CHECK: %[[TERMS:[^ ]+]] = arith.maxsi %[[A]], %[[B]] : i32
//       CHECK: %[[MAX:[^ ]+]] = arith.maxsi %[[ACC]], %[[TERMS]] : i32
//       CHECK: sparse_pos.store %[[MAX]], %[[Y]][%[[I]]] : <1, i32>
//       CHECK: %[[ACC2:[^ ]+]] = sparse_pos.load
//       CHECK: %[[PARTIAL:[^ ]+]] = arith.addi %[[ACC2]], %{{[^ ]+}} : i32
//       CHECK: arith.maxsi %{{[^ ]+}}, %[[PARTIAL]] : i32
func.func @two_maxima(%x: memref<?xi32>, %y: memref<?xi32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "it" [%I] "R" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, i32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, i32>
    %b = arith.muli %a, %a : i32
    %partial = arith.maxsi %acc, %a : i32
    %max = arith.maxsi %b, %partial : i32
    sparse_iter.store %max, %Y[%i] : !sparse_iter.buffer<1, i32>
  }
  sparse_iter.iterate "mixed" [%I] "R" body {
  ^bb0(%i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, i32>
    %a = sparse_iter.load %X[%i] : !sparse_iter.buffer<1, i32>
    %partial = arith.addi %acc, %a : i32
    %max = arith.maxsi %a, %partial : i32
    sparse_iter.store %max, %Y[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}
