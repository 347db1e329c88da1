// RGMS (relational gather-matmul-scatter, the RGCN layer of SparseTIR 4.2):
// Y[i, fo] = sum_r sum_j sum_fi A[r, i, j] * W[r, fo, fi] * X[j, fi].
// A is a num_rel x m x n sparse tensor (relation x destination x source),
// one CSR per relation stored as CSF: R = dense_fixed(num_rel);
// I = sparse_variable(R) lists the rows that have edges of relation r
// (indptr_i [num_rel+1], indices_i [nnz_rows], ascending per relation);
// J = sparse_variable(I) holds their columns (indptr_j [nnz_rows+1],
// indices_j [nnz], ascending per row); a [nnz] holds the edge values; A is the
// buffer (R, I, J). W is num_rel x feat_out x feat_in dense, row-major, over
// (R, FO, FI); X is n x feat_in dense, row-major, over (J_detach, FI); Y is
// m x feat_out dense, row-major, over (I_detach, FO).
// Every relation adds into Y (R is a reduction axis) and rows without edges
// must read 0, so Y is zeroed by its own iteration first and "rgms" has no
// init.
func.func @rgms(%indptr_i: memref<?xi32>, %indices_i: memref<?xi32>,
                %indptr_j: memref<?xi32>, %indices_j: memref<?xi32>,
                %a: memref<?xf32>, %w: memref<?xf32>, %x: memref<?xf32>,
                %y: memref<?xf32>,
                %num_rel: index, %m: index, %n: index, %nnz_rows: index,
                %nnz: index, %feat_in: index, %feat_out: index) {
  %R = sparse_iter.dense_fixed %num_rel
  %I = sparse_iter.sparse_variable %R, %indptr_i, %indices_i length %m nnz %nnz_rows sorted
         : memref<?xi32>, memref<?xi32>
  %J = sparse_iter.sparse_variable %I, %indptr_j, %indices_j length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %I_detach = sparse_iter.dense_fixed %m
  %J_detach = sparse_iter.dense_fixed %n
  %FI = sparse_iter.dense_fixed %feat_in
  %FO = sparse_iter.dense_fixed %feat_out
  %A = sparse_iter.match_buffer %a [%R, %I, %J] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %W = sparse_iter.match_buffer %w [%R, %FO, %FI] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %X = sparse_iter.match_buffer %x [%J_detach, %FI] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I_detach, %FO] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "zero" [%I_detach, %FO] "SS" body {
  ^bb0(%i: index, %fo: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %Y[%i, %fo] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "rgms" [%R, %I, %J, %FO, %FI] "RSRSR" body {
  ^bb0(%r: index, %i: index, %j: index, %fo: index, %fi: index):
    %acc = sparse_iter.load %Y[%i, %fo] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%r, %i, %j] : !sparse_iter.buffer<3, f32>
    %wv = sparse_iter.load %W[%r, %fo, %fi] : !sparse_iter.buffer<3, f32>
    %xv = sparse_iter.load %X[%j, %fi] : !sparse_iter.buffer<2, f32>
    %aw = arith.mulf %av, %wv : f32
    %prod = arith.mulf %aw, %xv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %Y[%i, %fo] : !sparse_iter.buffer<2, f32>
  }
  return
}
