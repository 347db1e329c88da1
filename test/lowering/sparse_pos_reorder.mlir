// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=csrmm.2 factor=32},sparse-pos-reorder{loops=csrmm.2.o,csrmm.1})' | FileCheck %s
// RUN: not sptir-opt %S/Inputs/reorder_distinct_columns.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-reorder{loops=e.1,e.0})' 2>&1 | FileCheck %S/Inputs/reorder_distinct_columns.mlir
// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-reorder{loops=a,b})' | FileCheck %s --check-prefix=ORDER
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-reorder{loops=a,nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-reorder{loops=a})' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-reorder{loops=d,c})' | FileCheck %s --check-prefix=COLUMN
// RUN: sptir-opt %s -p 'builtin.module(sparse-pos-reorder{loops=fa,fb})' | FileCheck %s --check-prefix=MAX

// The feature chunk loop moves outside the non-zero loop: the column read
// that sat between them moves in with the body, and the chunk count
// (computed between them) moves out in front of both.
//      CHECK: sparse_pos.for "csrmm.0" spatial
//      CHECK: %[[LEN:.*]] = arith.subi
//      CHECK: %[[CHUNKS:.*]] = arith.ceildivui %{{.*}}, %c32
// CHECK-NEXT: sparse_pos.for "csrmm.2.o" spatial %{{.*}} to %[[CHUNKS]] {
// CHECK-NEXT: ^bb0(%[[CHUNK:.*]]: index):
// CHECK-NEXT: sparse_pos.for "csrmm.1" reduction %{{.*}} to %[[LEN]] {
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[COL:.*]] = sparse_pos.load %{{.*}}[%{{.*}}, %[[J]]] : <2, i32>
// CHECK-NEXT: arith.index_cast %[[COL]]
// CHECK-NEXT: sparse_pos.for "csrmm.2.i" spatial
//      CHECK: arith.muli %[[CHUNK]], %c32

// Already in the requested order: nothing changes.
//      ORDER: sparse_pos.for "a"
//      ORDER: sparse_pos.for "b"
func.func @in_order(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "a" spatial %c0 to %n {
  ^bb0(%i: index):
    sparse_pos.for "b" spatial %c0 to %n {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// Y[i, k] needs Y[i-1, k]: only the row loop carries it (each k is its
// own column), so the column loop may go outside.
//      COLUMN: sparse_pos.for "d"
//      COLUMN: sparse_pos.for "c"
//      COLUMN: sparse_pos.load %{{.*}}[%{{.*}}, %{{.*}}]
func.func @column_recurrence(%n: index, %y: !sparse_iter.buffer<2, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.for "c" spatial %c1 to %n {
  ^bb0(%i: index):
    sparse_pos.for "d" spatial %c0 to %n {
    ^bb0(%k: index):
      %im = arith.subi %i, %c1 : index
      %up = sparse_pos.load %y[%im, %k] : !sparse_iter.buffer<2, f32>
      sparse_pos.store %up, %y[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// MISSING: sparse-pos-reorder: no sparse_pos.for labelled "nope"
// ONE: sparse-pos-reorder: loops must name two loops, got 'a'

// Two reductions into a maximum: its order does not matter, so they swap.
//      MAX: sparse_pos.for "fa" reduction
//      MAX: sparse_pos.for "fb" reduction
//      MAX: arith.maximumf
func.func @fold_max(%x: !sparse_iter.buffer<2, f32>, %y: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  sparse_pos.for "fb" reduction %c0 to %n {
  ^bb0(%i: index):
    sparse_pos.for "fa" reduction %c0 to %n {
    ^bb0(%j: index):
      %v = sparse_pos.load %x[%i, %j] : !sparse_iter.buffer<2, f32>
      %o = sparse_pos.load %y[%c0] : !sparse_iter.buffer<1, f32>
      %s = arith.maximumf %o, %v : f32
      sparse_pos.store %s, %y[%c0] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
