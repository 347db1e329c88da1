// RGMS, stage II (position space) of examples/rgms.mlir: iterations "zero"
// [I_detach, FO] "SS" and "rgms" [R, I, J, FO, FI] "RSRSR". I's auxiliary
// buffers hang under R; J's under I_dense, the dense view of its sparse
// parent I: J_indptr over [R, I_dense] (extra 1), J_indices over
// [R, I_dense, J_dense]. Y's row is the coordinate I_indices[r, i], X's row
// J_indices[r, i, j]; A and W are read by positions.
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
  // Auxiliary buffers of I.
  %I_dense = sparse_iter.dense_variable %R, %indptr_i length %m nnz %nnz_rows : memref<?xi32>
  %I_indptr = sparse_iter.match_buffer %indptr_i [%R] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %I_indices = sparse_iter.match_buffer %indices_i [%R, %I_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  // Auxiliary buffers of J.
  %J_dense = sparse_iter.dense_variable %I_dense, %indptr_j length %n nnz %nnz : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr_j [%R, %I_dense] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %J_indices = sparse_iter.match_buffer %indices_j [%R, %I_dense, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %I_indptr in [%c0, %nnz_rows] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %I_indices in [%c0, %m] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<3, i32>
  // "zero": Y = 0.
  sparse_pos.for "zero_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    sparse_pos.for "zero_fo" spatial %c0 to %feat_out {
    ^bb0(%vfo: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %Y[%vi, %vfo] : !sparse_iter.buffer<2, f32>
    }
  }
  // "rgms": Y[I_indices[r, i], fo] +=
  //   A[r, i, j] * W[r, fo, fi] * X[J_indices[r, i, j], fi].
  sparse_pos.for "rgms_r" reduction %c0 to %num_rel {
  ^bb0(%vr: index):
    %vr1 = arith.addi %vr, %c1 : index
    %ilo32 = sparse_pos.load %I_indptr[%vr] : !sparse_iter.buffer<1, i32>
    %ihi32 = sparse_pos.load %I_indptr[%vr1] : !sparse_iter.buffer<1, i32>
    %ilo = arith.index_cast %ilo32 : i32 to index
    %ihi = arith.index_cast %ihi32 : i32 to index
    %ilen = arith.subi %ihi, %ilo : index
    sparse_pos.for "rgms_i" spatial %c0 to %ilen {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_indices[%vr, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      %vi1 = arith.addi %vi, %c1 : index
      %jlo32 = sparse_pos.load %J_indptr[%vr, %vi] : !sparse_iter.buffer<2, i32>
      %jhi32 = sparse_pos.load %J_indptr[%vr, %vi1] : !sparse_iter.buffer<2, i32>
      %jlo = arith.index_cast %jlo32 : i32 to index
      %jhi = arith.index_cast %jhi32 : i32 to index
      %jlen = arith.subi %jhi, %jlo : index
      sparse_pos.for "rgms_j" reduction %c0 to %jlen {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_indices[%vr, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        sparse_pos.for "rgms_fo" spatial %c0 to %feat_out {
        ^bb0(%vfo: index):
          sparse_pos.for "rgms_fi" reduction %c0 to %feat_in {
          ^bb0(%vfi: index):
            %acc = sparse_pos.load %Y[%row, %vfo] : !sparse_iter.buffer<2, f32>
            %av = sparse_pos.load %A[%vr, %vi, %vj] : !sparse_iter.buffer<3, f32>
            %wv = sparse_pos.load %W[%vr, %vfo, %vfi] : !sparse_iter.buffer<3, f32>
            %xv = sparse_pos.load %X[%col, %vfi] : !sparse_iter.buffer<2, f32>
            %aw = arith.mulf %av, %wv : f32
            %prod = arith.mulf %aw, %xv : f32
            %sum = arith.addf %acc, %prod : f32
            sparse_pos.store %sum, %Y[%row, %vfo] : !sparse_iter.buffer<2, f32>
          }
        }
      }
    }
  }
  return
}
