// RUN: sptir-opt %examples/decompose_bsr.mlir -p 'builtin.module(decompose-format)' | FileCheck %s --check-prefix=BSR
// RUN: sptir-opt %examples/decompose_hyb.mlir -p 'builtin.module(decompose-format)' | FileCheck %s --check-prefix=HYB
// RUN: sptir-opt %examples/decompose_hyb.mlir -p 'builtin.module(decompose-format,sptir-to-stage3)' | FileCheck %s --check-prefix=LOWERED
// RUN: sptir-opt %S/Inputs/two_sources.mlir -p 'builtin.module(decompose-format)' | FileCheck %s --check-prefix=TWO
// RUN: sptir-opt %S/Inputs/rule_placement.mlir -p 'builtin.module(decompose-format)' | FileCheck %S/Inputs/rule_placement.mlir
// RUN: sed 's/\[%I, %J, %K\] "SRS"/[fuse(%I), %J, %K] "SRS"/' %examples/decompose_bsr.mlir | sptir-opt - -p 'builtin.module(decompose-format)' | FileCheck %s --check-prefix=BSR
// RUN: sptir-opt %S/Inputs/decompose_taken_label.mlir -p 'builtin.module(decompose-format)' | FileCheck %S/Inputs/decompose_taken_label.mlir --check-prefix=TAKEN
// RUN: sptir-opt %S/Inputs/decompose_taken_label.mlir -p 'builtin.module(decompose-format,sptir-to-stage3)' -o /dev/null
// RUN: sptir-opt %S/Inputs/decompose_padding_axis.mlir -p 'builtin.module(decompose-format)' | FileCheck %S/Inputs/decompose_padding_axis.mlir --check-prefix=PAD

// The rule is consumed; a copy fills the blocks from A at the inverse
// coordinate, zero where that lies outside A (partial blocks).
//   BSR-NOT: format_rewrite
//       BSR: %[[IO:.*]] = sparse_iter.dense_fixed %arg12
//       BSR: %[[JO:.*]] = sparse_iter.sparse_variable %[[IO]]
//       BSR: %[[II:.*]] = sparse_iter.dense_fixed %c2
//       BSR: %[[JI:.*]] = sparse_iter.dense_fixed %c2
//       BSR: %[[AB:.*]] = sparse_iter.match_buffer %arg11[%[[IO]], %[[JO]], %[[II]], %[[JI]]]
//       BSR: sparse_iter.iterate "copy0" [%[[IO]], %[[JO]], %[[II]], %[[JI]]] "SSSS" attributes {preprocess} body {
//  BSR-NEXT: ^bb0(%[[A0:.*]]: index, %[[A1:.*]]: index, %[[A2:.*]]: index, %[[A3:.*]]: index):
//       BSR: %[[ROW:.*]] = arith.addi %{{.*}}, %[[A2]]
//       BSR: arith.cmpi ult, %[[ROW]], %arg5
//       BSR: %[[COL:.*]] = arith.addi %{{.*}}, %[[A3]]
//       BSR: arith.cmpi ult, %[[COL]], %arg6
//       BSR: scf.if %{{.*}} -> (f32) {
//  BSR-NEXT: sparse_iter.load %{{.*}}[%[[ROW]], %[[COL]]]
//       BSR: } else {
//       BSR: sparse_iter.store %{{.*}}, %[[AB]][%[[A0]], %[[A1]], %[[A2]], %[[A3]]]
// The init region becomes its own iteration, run once per output point.
//       BSR: sparse_iter.iterate "csrmm.init" [%{{.*}}, %{{.*}}] "SS" body {
// Block rows and inner rows are spatial, block columns and inner columns
// reductions, as the map says; the body reads the blocks.
//       BSR: sparse_iter.iterate "csrmm.0" [%[[IO]], %[[JO]], %[[II]], %[[JI]], %{{.*}}] "SRSRS" body {
//       BSR: scf.if
//       BSR: sparse_iter.load %[[AB]][
//   BSR-NOT: sparse_iter.iterate "csrmm"

// One copy and one compute iteration per bucket.
// HYB: sparse_iter.iterate "copy0" [{{.*}}] "SSS" attributes {preprocess}
// HYB: sparse_iter.iterate "copy1" [{{.*}}] "SSS" attributes {preprocess}
// HYB: sparse_iter.iterate "csrmm.init"
// HYB: sparse_iter.iterate "csrmm.0" [{{.*}}] "SSRS"
// HYB: sparse_iter.iterate "csrmm.1" [{{.*}}] "SSRS"

// LOWERED-NOT: sparse_iter.
// LOWERED: scf.while
// LOWERED: sptir.label = "copy0.

// Two sources, a copy each, right before the iteration that reads it:
// the copies have labels of their own, for a schedule to name one.
// TWO: sparse_iter.iterate "copy0"
// TWO: sparse_iter.iterate "ya.0"
// TWO: sparse_iter.iterate "copy1"
// TWO: sparse_iter.iterate "zd.0"
