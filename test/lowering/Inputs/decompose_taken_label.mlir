// decompose_bsr.mlir with an iteration labelled "csrmm.0" after the SpMM:
// decompose-format labels the rewritten iteration "csrmm.0_1" instead
// (lowering refuses two iterations whose loops share labels).
// RUN line in ../decompose_format.mlir.
// TAKEN-LABEL: func.func
//       TAKEN: sparse_iter.iterate "copy0"
//       TAKEN: sparse_iter.iterate "csrmm.init"
//       TAKEN: sparse_iter.iterate "csrmm.0_1"
//       TAKEN: sparse_iter.iterate "csrmm.0" [
// Format decomposition, CSR -> BSR(2), written as a rule (SparseTIR 3.2.1).
// C[i, k] = sum_j A[i, j] * B[j, k] with A given in CSR (indptr, indices, a;
// m x n, nnz). The rule stores A's values again in 2 x 2 blocks: the BSR
// structure (bindptr [nb+1], bindices [nnzb], nb = ceil(m/2) block rows,
// mb = ceil(n/2) block columns) comes from the caller, and ab [nnzb*4]
// is filled by the copy iteration that `decompose-format` emits. B is n x
// feat, C is m x feat, dense row-major.
func.func @decompose_bsr(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                      %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index,
                      %bindptr: memref<?xi32>, %bindices: memref<?xi32>, %ab: memref<?xf32>,
                      %nb: index, %mb: index, %nnzb: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %c2 = arith.constant 2 : index
  %IO = sparse_iter.dense_fixed %nb
  %JO = sparse_iter.sparse_variable %IO, %bindptr, %bindices length %mb nnz %nnzb sorted : memref<?xi32>, memref<?xi32>
  %II = sparse_iter.dense_fixed %c2
  %JI = sparse_iter.dense_fixed %c2
  %AB = sparse_iter.match_buffer %ab [%IO, %JO, %II, %JI] : memref<?xf32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.format_rewrite %A -> %AB
      map affine_map<(i, j) -> (i floordiv 2, j floordiv 2, i mod 2, j mod 2)>
      inverse affine_map<(io, jo, ii, ji) -> (io * 2 + ii, jo * 2 + ji)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<4, f32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  // An iteration of the user's own, labelled as the rewritten one would be.
  sparse_iter.iterate "csrmm.0" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %v = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %twice = arith.addf %v, %v : f32
    sparse_iter.store %twice, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
