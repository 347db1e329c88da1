// hyb SpMM, stage II (position space) of examples/hyb_spmm.mlir.
// Iterations: "copy_ell0/1" [O_b, I_b, J_b] "SSS" (preprocess), "zero"
// [I, K] "SS", "spmm_ell0" [O_0, I_0, J_0, K] "SSRS" and "spmm_ell1"
// [O_1, I_1, J_1, K] "SRRS".
// The ELL axes are fixed, so their loops run 0 .. num_rows_b and
// 0 .. width_b; their indices appear as I_b_indices over [O_b, I_b_dense]
// and J_b_indices over [O_b, I_b_dense, J_b_dense], where the dense views
// are dense_fixed roots of extent num_rows_b and width_b (the dialect has no
// fixed dense child axis; the flat layouts are the same).
// The copies read A at the coordinates (row, col) = (I_b_indices[o, i],
// J_b_indices[o, i, j]). A's row axis is dense, so the row's position is the
// row itself; the column's position in that row is a coordinate lookup
// (sparse_pos.find, binary search in the sorted row of J). An entry that is
// padding (mask 0) or not stored in A (not found) copies A's default value 0.
func.func @hyb_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index,
                    %rows_0: memref<?xi32>, %cols_0: memref<?xi32>,
                    %mask_0: memref<?xi32>, %a_0: memref<?xf32>,
                    %num_rows_0: index, %width_0: index,
                    %rows_1: memref<?xi32>, %cols_1: memref<?xi32>,
                    %mask_1: memref<?xi32>, %a_1: memref<?xf32>,
                    %num_rows_1: index, %width_1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The original CSR format.
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] {default_value = 0.0 : f32}
         : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // Auxiliary buffers of J (read by the lookups).
  %J_dense = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi32>
  %J_indptr = sparse_iter.match_buffer %indptr [%I] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense]
                 : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  sparse_pos.assume_domain %J_indices in [%c0, %n] : !sparse_iter.buffer<2, i32>
  // Bucket 0: ELL of width width_0 over num_rows_0 rows.
  %O_0 = sparse_iter.dense_fixed %c1
  %I_0 = sparse_iter.sparse_fixed %O_0, %rows_0 length %m nnz_cols %num_rows_0 : memref<?xi32>
  %J_0 = sparse_iter.sparse_fixed %I_0, %cols_0 length %n nnz_cols %width_0 : memref<?xi32>
  %A_0 = sparse_iter.match_buffer %a_0 [%O_0, %I_0, %J_0] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %M_0 = sparse_iter.match_buffer %mask_0 [%O_0, %I_0, %J_0] : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  // Auxiliary buffers of I_0 and J_0.
  %I_0_dense = sparse_iter.dense_fixed %num_rows_0
  %I_0_indices = sparse_iter.match_buffer %rows_0 [%O_0, %I_0_dense]
                   : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %J_0_dense = sparse_iter.dense_fixed %width_0
  %J_0_indices = sparse_iter.match_buffer %cols_0 [%O_0, %I_0_dense, %J_0_dense]
                   : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  sparse_pos.assume_domain %I_0_indices in [%c0, %m] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_0_indices in [%c0, %n] : !sparse_iter.buffer<3, i32>
  // Bucket 1 (last): ELL of width width_1 over num_rows_1 rows.
  %O_1 = sparse_iter.dense_fixed %c1
  %I_1 = sparse_iter.sparse_fixed %O_1, %rows_1 length %m nnz_cols %num_rows_1 : memref<?xi32>
  %J_1 = sparse_iter.sparse_fixed %I_1, %cols_1 length %n nnz_cols %width_1 : memref<?xi32>
  %A_1 = sparse_iter.match_buffer %a_1 [%O_1, %I_1, %J_1] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %M_1 = sparse_iter.match_buffer %mask_1 [%O_1, %I_1, %J_1] : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  // Auxiliary buffers of I_1 and J_1.
  %I_1_dense = sparse_iter.dense_fixed %num_rows_1
  %I_1_indices = sparse_iter.match_buffer %rows_1 [%O_1, %I_1_dense]
                   : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %J_1_dense = sparse_iter.dense_fixed %width_1
  %J_1_indices = sparse_iter.match_buffer %cols_1 [%O_1, %I_1_dense, %J_1_dense]
                   : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  sparse_pos.assume_domain %I_1_indices in [%c0, %m] : !sparse_iter.buffer<2, i32>
  sparse_pos.assume_domain %J_1_indices in [%c0, %n] : !sparse_iter.buffer<3, i32>
  // "copy_ell0": A_0[o, i, j] = mask ? A[row, col] : 0.
  // The root loop carries the preprocess mark of the copy iteration.
  sparse_pos.for "copy_ell0_o" spatial %c0 to %c1 attributes {preprocess} {
  ^bb0(%vo: index):
    sparse_pos.for "copy_ell0_i" spatial %c0 to %num_rows_0 {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_0_indices[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      sparse_pos.for "copy_ell0_j" spatial %c0 to %width_0 {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_0_indices[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        %mv = sparse_pos.load %M_0[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %zero_i = arith.constant 0 : i32
        %real = arith.cmpi ne, %mv, %zero_i : i32
        %pos, %found = sparse_pos.find %J[%row], %col
        %take = arith.andi %real, %found : i1
        %v = scf.if %take -> (f32) {
          %av = sparse_pos.load %A[%row, %pos] : !sparse_iter.buffer<2, f32>
          scf.yield %av : f32
        } else {
          %zero = arith.constant 0.0 : f32
          scf.yield %zero : f32
        }
        sparse_pos.store %v, %A_0[%vo, %vi, %vj] : !sparse_iter.buffer<3, f32>
      }
    }
  }
  // "copy_ell1": A_1[o, i, j] = mask ? A[row, col] : 0.
  // The root loop carries the preprocess mark of the copy iteration.
  sparse_pos.for "copy_ell1_o" spatial %c0 to %c1 attributes {preprocess} {
  ^bb0(%vo: index):
    sparse_pos.for "copy_ell1_i" spatial %c0 to %num_rows_1 {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_1_indices[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      sparse_pos.for "copy_ell1_j" spatial %c0 to %width_1 {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_1_indices[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        %mv = sparse_pos.load %M_1[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %zero_i = arith.constant 0 : i32
        %real = arith.cmpi ne, %mv, %zero_i : i32
        %pos, %found = sparse_pos.find %J[%row], %col
        %take = arith.andi %real, %found : i1
        %v = scf.if %take -> (f32) {
          %av = sparse_pos.load %A[%row, %pos] : !sparse_iter.buffer<2, f32>
          scf.yield %av : f32
        } else {
          %zero = arith.constant 0.0 : f32
          scf.yield %zero : f32
        }
        sparse_pos.store %v, %A_1[%vo, %vi, %vj] : !sparse_iter.buffer<3, f32>
      }
    }
  }
  // "zero": C = 0.
  sparse_pos.for "zero_i" spatial %c0 to %m {
  ^bb0(%vi: index):
    sparse_pos.for "zero_k" spatial %c0 to %feat {
    ^bb0(%vk: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    }
  }
  // "spmm_ell0": C[I_0_indices[o, i], k] +=
  //   A_0[o, i, j] * B[J_0_indices[o, i, j], k].
  sparse_pos.for "spmm_ell0_o" spatial %c0 to %c1 {
  ^bb0(%vo: index):
    sparse_pos.for "spmm_ell0_i" spatial %c0 to %num_rows_0 {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_0_indices[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      sparse_pos.for "spmm_ell0_j" reduction %c0 to %width_0 {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_0_indices[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        sparse_pos.for "spmm_ell0_k" spatial %c0 to %feat {
        ^bb0(%vk: index):
          %acc = sparse_pos.load %C[%row, %vk] : !sparse_iter.buffer<2, f32>
          %av = sparse_pos.load %A_0[%vo, %vi, %vj] : !sparse_iter.buffer<3, f32>
          %bv = sparse_pos.load %B[%col, %vk] : !sparse_iter.buffer<2, f32>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc, %prod : f32
          sparse_pos.store %sum, %C[%row, %vk] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  // "spmm_ell1": C[I_1_indices[o, i], k] +=
  //   A_1[o, i, j] * B[J_1_indices[o, i, j], k].
  // rows_1 may repeat a row, so the row loop is a reduction.
  sparse_pos.for "spmm_ell1_o" spatial %c0 to %c1 {
  ^bb0(%vo: index):
    sparse_pos.for "spmm_ell1_i" reduction %c0 to %num_rows_1 {
    ^bb0(%vi: index):
      %row32 = sparse_pos.load %I_1_indices[%vo, %vi] : !sparse_iter.buffer<2, i32>
      %row = arith.index_cast %row32 : i32 to index
      sparse_pos.for "spmm_ell1_j" reduction %c0 to %width_1 {
      ^bb0(%vj: index):
        %col32 = sparse_pos.load %J_1_indices[%vo, %vi, %vj] : !sparse_iter.buffer<3, i32>
        %col = arith.index_cast %col32 : i32 to index
        sparse_pos.for "spmm_ell1_k" spatial %c0 to %feat {
        ^bb0(%vk: index):
          %acc = sparse_pos.load %C[%row, %vk] : !sparse_iter.buffer<2, f32>
          %av = sparse_pos.load %A_1[%vo, %vi, %vj] : !sparse_iter.buffer<3, f32>
          %bv = sparse_pos.load %B[%col, %vk] : !sparse_iter.buffer<2, f32>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc, %prod : f32
          sparse_pos.store %sum, %C[%row, %vk] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  return
}
