// Ragged sequence sum, stage II (position space) of examples/ragged.mlir:
// iteration "seqsum" [B, L, F] "SRS". L is dense, so only its indptr is
// materialized (L_indptr over [B], extra 1) and a position on L is also its
// coordinate. The init (S[b, :] = 0) is its own loop nest over f before the
// reduction loop l.
func.func @ragged(%indptr: memref<?xi32>, %x: memref<?xf32>, %s: memref<?xf32>,
                  %batch: index, %maxlen: index, %total: index, %feat: index) {
  %B = sparse_iter.dense_fixed %batch
  %L = sparse_iter.dense_variable %B, %indptr length %maxlen nnz %total : memref<?xi32>
  %F = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%B, %L, %F] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %S = sparse_iter.match_buffer %s [%B, %F] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  // Auxiliary buffer of L.
  %L_indptr = sparse_iter.match_buffer %indptr [%B] extra 1
                : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.assume_domain %L_indptr in [%c0, %total] : !sparse_iter.buffer<1, i32>
  sparse_pos.for "seqsum_b" spatial %c0 to %batch {
  ^bb0(%vb: index):
    // init: S[b, :] = 0 before the first reduction step.
    sparse_pos.for "seqsum_init_f" spatial %c0 to %feat {
    ^bb0(%vf: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %S[%vb, %vf] : !sparse_iter.buffer<2, f32>
    }
    %vb1 = arith.addi %vb, %c1 : index
    %lo32 = sparse_pos.load %L_indptr[%vb] : !sparse_iter.buffer<1, i32>
    %hi32 = sparse_pos.load %L_indptr[%vb1] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    sparse_pos.for "seqsum_l" reduction %c0 to %len {
    ^bb0(%vl: index):
      sparse_pos.for "seqsum_f" spatial %c0 to %feat {
      ^bb0(%vf: index):
        %acc = sparse_pos.load %S[%vb, %vf] : !sparse_iter.buffer<2, f32>
        %xv = sparse_pos.load %X[%vb, %vl, %vf] : !sparse_iter.buffer<3, f32>
        %sum = arith.addf %acc, %xv : f32
        sparse_pos.store %sum, %S[%vb, %vf] : !sparse_iter.buffer<2, f32>
      }
    }
  }
  return
}
