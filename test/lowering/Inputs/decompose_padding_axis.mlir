// A rule whose inverse ignores a target axis of two slots (map puts each
// element at slot 0 of it): slot 1 is padding, which the copy fills with
// zero, since map does not send the element there; it used to copy the
// element into both, and the sum counted it twice.
// RUN line in ../decompose_format.mlir.
// PAD-LABEL: func.func @padding_axis
//       PAD: sparse_iter.iterate "copy0" [%{{.*}}, %{{.*}}, %{{.*}}] "SSS" attributes {preprocess} body {
//       PAD: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index, %[[R:.*]]: index):
//       PAD:   arith.cmpi eq, %[[I]], %[[I]]
//       PAD:   arith.cmpi eq, %[[J]], %[[J]]
//       PAD:   %[[SLOT0:.*]] = arith.cmpi eq, %c0{{.*}}, %[[R]]
//       PAD:   scf.if
func.func @padding_axis(%a: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %c2 = arith.constant 2 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %I2 = sparse_iter.dense_fixed %m
  %J2 = sparse_iter.dense_fixed %n
  %R = sparse_iter.dense_fixed %c2
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %T = sparse_iter.alloc_buffer [%I2, %J2, %R] : !sparse_iter.buffer<3, f32>
  sparse_iter.format_rewrite %A -> %T map affine_map<(i, j) -> (i, j, 0)> inverse affine_map<(i, j, r) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<3, f32>
  sparse_iter.iterate "rows" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %acc, %v : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
