// hyb SpMM after format decomposition (SparseTIR 2.1 / 5.1, hyb(1, k) with
// two ELL buckets): C[i, k] = sum_j A[i, j] * B[j, k], computed as
// C = A_0 * B + A_1 * B where the ELL buckets A_0, A_1 partition the
// non-zeros of A.
// A is m x n in CSR: indptr [m+1], indices [nnz] (ascending per row, as the
// coordinate lookups of the copies need), a [nnz]; A is the buffer (I, J) and
// reads 0 at a coordinate it does not store. B is n x feat dense, row-major,
// over (J_detach, K); C is m x feat dense, row-major, over (I, K).
// Bucket b (b = 0, 1) is an ELL matrix over a subset of rows (the RFC's ELL
// rewrite rule): a placeholder O_b = dense_fixed(1); its row list
// I_b = sparse_fixed(O_b, rows_b, num_rows_b) with rows_b [num_rows_b] the
// row coordinates; its columns J_b = sparse_fixed(I_b, cols_b, width_b) with
// cols_b [num_rows_b*width_b] row-major. Short rows are padded up to width_b
// with column 0; mask_b [num_rows_b*width_b] is 1 at a real non-zero and 0 at
// padding. a_b [num_rows_b*width_b] receives the bucket's values; A_b and M_b
// are the buffers (O_b, I_b, J_b). Bucket 1 is the last bucket: a row longer
// than width_1 occupies several of its ELL rows, so rows_1 may repeat a row
// and its row axis I_1 is a reduction in the compute iteration.
// The copies "copy_ell0/1" (marked preprocess) fill a_b from A by
// coordinates; "zero" clears C once; "spmm_ell0/1" accumulate without init.
func.func @hyb_spmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                    %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                    %m: index, %n: index, %nnz: index, %feat: index,
                    %rows_0: memref<?xi32>, %cols_0: memref<?xi32>,
                    %mask_0: memref<?xi32>, %a_0: memref<?xf32>,
                    %num_rows_0: index, %width_0: index,
                    %rows_1: memref<?xi32>, %cols_1: memref<?xi32>,
                    %mask_1: memref<?xi32>, %a_1: memref<?xf32>,
                    %num_rows_1: index, %width_1: index) {
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
  // Bucket 0: ELL of width width_0 over num_rows_0 rows.
  %O_0 = sparse_iter.dense_fixed %c1
  %I_0 = sparse_iter.sparse_fixed %O_0, %rows_0 length %m nnz_cols %num_rows_0 : memref<?xi32>
  %J_0 = sparse_iter.sparse_fixed %I_0, %cols_0 length %n nnz_cols %width_0 : memref<?xi32>
  %A_0 = sparse_iter.match_buffer %a_0 [%O_0, %I_0, %J_0] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %M_0 = sparse_iter.match_buffer %mask_0 [%O_0, %I_0, %J_0] : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  // Bucket 1 (last): ELL of width width_1 over num_rows_1 rows.
  %O_1 = sparse_iter.dense_fixed %c1
  %I_1 = sparse_iter.sparse_fixed %O_1, %rows_1 length %m nnz_cols %num_rows_1 : memref<?xi32>
  %J_1 = sparse_iter.sparse_fixed %I_1, %cols_1 length %n nnz_cols %width_1 : memref<?xi32>
  %A_1 = sparse_iter.match_buffer %a_1 [%O_1, %I_1, %J_1] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %M_1 = sparse_iter.match_buffer %mask_1 [%O_1, %I_1, %J_1] : memref<?xi32> -> !sparse_iter.buffer<3, i32>
  // Format conversion: A_b[o, i, j] = A[i, j] at real entries, 0 at padding.
  sparse_iter.iterate "copy_ell0" [%O_0, %I_0, %J_0] "SSS" attributes {preprocess} body {
  ^bb0(%o: index, %i: index, %j: index):
    %mv = sparse_iter.load %M_0[%o, %i, %j] : !sparse_iter.buffer<3, i32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %zero_i = arith.constant 0 : i32
    %zero = arith.constant 0.0 : f32
    %real = arith.cmpi ne, %mv, %zero_i : i32
    %v = arith.select %real, %av, %zero : f32
    sparse_iter.store %v, %A_0[%o, %i, %j] : !sparse_iter.buffer<3, f32>
  }
  sparse_iter.iterate "copy_ell1" [%O_1, %I_1, %J_1] "SSS" attributes {preprocess} body {
  ^bb0(%o: index, %i: index, %j: index):
    %mv = sparse_iter.load %M_1[%o, %i, %j] : !sparse_iter.buffer<3, i32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %zero_i = arith.constant 0 : i32
    %zero = arith.constant 0.0 : f32
    %real = arith.cmpi ne, %mv, %zero_i : i32
    %v = arith.select %real, %av, %zero : f32
    sparse_iter.store %v, %A_1[%o, %i, %j] : !sparse_iter.buffer<3, f32>
  }
  // C is zeroed once; each bucket adds its share.
  sparse_iter.iterate "zero" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "spmm_ell0" [%O_0, %I_0, %J_0, %K] "SSRS" body {
  ^bb0(%o: index, %i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A_0[%o, %i, %j] : !sparse_iter.buffer<3, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "spmm_ell1" [%O_1, %I_1, %J_1, %K] "SRRS" body {
  ^bb0(%o: index, %i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A_1[%o, %i, %j] : !sparse_iter.buffer<3, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
