// Ragged sequence sum: S[b, f] = sum_l X[b, l, f], where sequence b of the
// batch has its own length indptr[b+1] - indptr[b].
// X is a 2-level ragged tensor: B = dense_fixed(batch); the sequence axis
// L = dense_variable(B) has indptr [batch+1] (offsets of each sequence,
// indptr[batch] = total) and max length maxlen; F = dense_fixed(feat);
// x [total*feat] holds the rows of all sequences back to back, each row
// feat values; X is the buffer (B, L, F). S is batch x feat dense, row-major,
// over (B, F). A sequence of length 0 gives S[b, :] = 0.
func.func @ragged(%indptr: memref<?xi32>, %x: memref<?xf32>, %s: memref<?xf32>,
                  %batch: index, %maxlen: index, %total: index, %feat: index) {
  %B = sparse_iter.dense_fixed %batch
  %L = sparse_iter.dense_variable %B, %indptr length %maxlen nnz %total : memref<?xi32>
  %F = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%B, %L, %F] : memref<?xf32> -> !sparse_iter.buffer<3, f32>
  %S = sparse_iter.match_buffer %s [%B, %F] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "seqsum" [%B, %L, %F] "SRS" init {
  ^bb0(%b: index, %f: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %S[%b, %f] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%b: index, %l: index, %f: index):
    %acc = sparse_iter.load %S[%b, %f] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%b, %l, %f] : !sparse_iter.buffer<3, f32>
    %sum = arith.addf %acc, %xv : f32
    sparse_iter.store %sum, %S[%b, %f] : !sparse_iter.buffer<2, f32>
  }
  return
}
