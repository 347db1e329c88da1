// Each ELL slot clears the row of Out its column names, then adds to it.
// A row's columns are distinct (the spatial kind), but two rows may share
// one: with the rows inside the columns' loop, the column's positions no
// longer tell the ids apart, and the reorder would change which store
// lands last.
// CHECK: reorder_distinct_columns.mlir:[[@LINE+9]]:5: error: sparse-pos-reorder: loops "e.0" and "e.1" may both carry data from position to position
func.func @ell_spmm(%arg0: memref<?xi32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: memref<?xf32>, %arg4: index, %arg5: index, %arg6: index, %arg7: index) {
    %0 = sparse_iter.dense_fixed %arg4
    %1 = sparse_iter.sparse_fixed %0, %arg0 length %arg5 nnz_cols %arg6 : memref<?xi32>
    %2 = sparse_iter.dense_fixed %arg5
    %3 = sparse_iter.dense_fixed %arg7
    %4 = sparse_iter.match_buffer %arg1[%0, %1] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
    %5 = sparse_iter.match_buffer %arg2[%2, %3] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
    %6 = sparse_iter.match_buffer %arg3[%2, %3] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
    sparse_iter.iterate "e" [%0, %1] "SS" body {
    ^bb0(%i: index, %j: index):
      %a = sparse_iter.load %4[%i, %j] : !sparse_iter.buffer<2, f32>
      sparse_iter.iterate "z" [%3] "S" body {
      ^bb0(%k: index):
        %zero = arith.constant 0.0 : f32
        sparse_iter.store %zero, %6[%j, %k] : !sparse_iter.buffer<2, f32>
      }
      sparse_iter.iterate "s" [%3] "S" body {
      ^bb0(%k: index):
        %old = sparse_iter.load %6[%j, %k] : !sparse_iter.buffer<2, f32>
        %b = sparse_iter.load %5[%j, %k] : !sparse_iter.buffer<2, f32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %old, %p : f32
        sparse_iter.store %s, %6[%j, %k] : !sparse_iter.buffer<2, f32>
      }
    }
    return
}
