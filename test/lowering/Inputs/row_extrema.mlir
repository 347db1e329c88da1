// Each row's largest stored value and smallest stored value scaled to an
// integer (a sparse softmax's row maximum, a min-aggregation), in one
// pass over the non-zeros: two reductions other than sums, updated in
// registers and met across lanes when the non-zeros are split over them.
// An empty row keeps its init: -inf and the largest i32.
func.func @rowext(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %mx: memref<?xf32>,
                  %mn: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %MX = sparse_iter.match_buffer %mx [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %MN = sparse_iter.match_buffer %mn [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "rext" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %MX[%i] : !sparse_iter.buffer<1, f32>
    %high = arith.constant 2147483647 : i32
    sparse_iter.store %high, %MN[%i] : !sparse_iter.buffer<1, i32>
  } body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %top = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
    %new_top = arith.maximumf %top, %e : f32
    sparse_iter.store %new_top, %MX[%i] : !sparse_iter.buffer<1, f32>
    %scale = arith.constant 1000.0 : f32
    %scaled = arith.mulf %e, %scale : f32
    %q = arith.fptosi %scaled : f32 to i32
    %bottom = sparse_iter.load %MN[%i] : !sparse_iter.buffer<1, i32>
    %new_bottom = arith.minsi %q, %bottom : i32
    sparse_iter.store %new_bottom, %MN[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}

// The same with the init in an iteration of its own, so that threads
// that update a row atomically find it set.
func.func @rowext_atomic(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %mx: memref<?xf32>,
                         %mn: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %MX = sparse_iter.match_buffer %mx [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %MN = sparse_iter.match_buffer %mn [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "init" [%I] "S" body {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %MX[%i] : !sparse_iter.buffer<1, f32>
    %high = arith.constant 2147483647 : i32
    sparse_iter.store %high, %MN[%i] : !sparse_iter.buffer<1, i32>
  }
  sparse_iter.iterate "rx" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %top = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
    %new_top = arith.maximumf %top, %e : f32
    sparse_iter.store %new_top, %MX[%i] : !sparse_iter.buffer<1, f32>
    %scale = arith.constant 1000.0 : f32
    %scaled = arith.mulf %e, %scale : f32
    %q = arith.fptosi %scaled : f32 to i32
    %bottom = sparse_iter.load %MN[%i] : !sparse_iter.buffer<1, i32>
    %new_bottom = arith.minsi %q, %bottom : i32
    sparse_iter.store %new_bottom, %MN[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}

// Over each row's positive values only: their maximum (-inf where there
// is none) and their count. The guard depends on the data; lowered as
// updates by the identity where it fails, it keeps no lane from its warp
// shuffle.
func.func @rowpos(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %mx: memref<?xf32>,
                  %count: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %MX = sparse_iter.match_buffer %mx [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %N = sparse_iter.match_buffer %count [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "rpos" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %MX[%i] : !sparse_iter.buffer<1, f32>
    %zero = arith.constant 0 : i32
    sparse_iter.store %zero, %N[%i] : !sparse_iter.buffer<1, i32>
  } body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %e, %zero : f32
    scf.if %positive {
      %top = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
      %new_top = arith.maximumf %top, %e : f32
      sparse_iter.store %new_top, %MX[%i] : !sparse_iter.buffer<1, f32>
      %seen = sparse_iter.load %N[%i] : !sparse_iter.buffer<1, i32>
      %one = arith.constant 1 : i32
      %more = arith.addi %seen, %one : i32
      sparse_iter.store %more, %N[%i] : !sparse_iter.buffer<1, i32>
    }
  }
  return
}

// A guard with work on both sides: each row's largest magnitude (positive
// values as they are, the others negated) and how many values are not
// positive. Lowered as updates selected by the condition and by its
// negation, it too keeps no lane from its warp shuffle.
func.func @rowsign(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>, %mx: memref<?xf32>,
                   %count: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %MX = sparse_iter.match_buffer %mx [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %N = sparse_iter.match_buffer %count [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "rsign" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %MX[%i] : !sparse_iter.buffer<1, f32>
    %zero = arith.constant 0 : i32
    sparse_iter.store %zero, %N[%i] : !sparse_iter.buffer<1, i32>
  } body {
  ^bb0(%i: index, %j: index):
    %e = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %e, %zero : f32
    scf.if %positive {
      %top = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
      %new_top = arith.maximumf %top, %e : f32
      sparse_iter.store %new_top, %MX[%i] : !sparse_iter.buffer<1, f32>
    } else {
      %top = sparse_iter.load %MX[%i] : !sparse_iter.buffer<1, f32>
      %ne = arith.negf %e : f32
      %new_top = arith.maximumf %top, %ne : f32
      sparse_iter.store %new_top, %MX[%i] : !sparse_iter.buffer<1, f32>
      %seen = sparse_iter.load %N[%i] : !sparse_iter.buffer<1, i32>
      %one = arith.constant 1 : i32
      %more = arith.addi %seen, %one : i32
      sparse_iter.store %more, %N[%i] : !sparse_iter.buffer<1, i32>
    }
  }
  return
}
