// Round trip of decompose_hyb.mlir: it parses and verifies, printing is a fixed point,
// and the rules survive printing.
// RUN: sptir-opt %examples/decompose_hyb.mlir > %t.1.mlir
// RUN: sptir-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

//       CHECK: #[[MAP:.*]] = affine_map<
//       CHECK: #[[INV:.*]] = affine_map<
// CHECK-LABEL: func.func @decompose_hyb
//       CHECK: sparse_iter.format_rewrite %{{.*}} -> %{{.*}} map #[[MAP]] inverse #[[INV]] : <2, f32> ->
//       CHECK: sparse_iter.iterate "csrmm" [%{{.*}}, %{{.*}}, %{{.*}}] "SRS" init {
