// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(decompose-format{rule=bsr:4 iteration=csrmm})' | FileCheck %s --check-prefix=BSR
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(decompose-format{rule=ell:8 iteration=csrmm})' | FileCheck %s --check-prefix=ELL
// RUN: sptir-opt %examples/sddmm.mlir -p 'builtin.module(decompose-format{rule=hyb:2:1,4 iteration=sddmm})' | FileCheck %s --check-prefix=HYB
// RUN: sptir-opt %examples/csr_spmm.mlir -p 'builtin.module(decompose-format{rule=hyb:1:1,4 iteration=csrmm})' | FileCheck %s --check-prefix=HYBSPMM
// RUN: sptir-opt %S/Inputs/two_readers.mlir -p 'builtin.module(decompose-format{rule=bsr:2 iteration=first})' | FileCheck %s --check-prefix=ONLY
// RUN: sptir-opt %S/Inputs/nested_spmm.mlir -p 'builtin.module(decompose-format{rule=ell:4 iteration=inner})' | FileCheck %s --check-prefix=NESTED

// The rule is for "first": "second" still reads the CSR buffer.
// ONLY: %[[CSR:.*]] = sparse_iter.match_buffer %arg2[%0, %1]
// ONLY: sparse_iter.iterate "copy0"
// ONLY: sparse_iter.iterate "first.0"
// ONLY: sparse_iter.iterate "second" [%0, %1] "SR"
// ONLY-NEXT: ^bb0
// ONLY-NEXT: sparse_iter.load %[[CSR]][

// BSR(4): block indptr/indices, block values, then block rows, block
// columns and stored blocks are appended to the function.
// BSR: func.func @csr_spmm({{.*}}, %arg8: index, %arg9: memref<?xi32>, %arg10: memref<?xi32>, %arg11: memref<?xf32>, %arg12: index, %arg13: index, %arg14: index)
// BSR: %[[IO:.*]] = sparse_iter.dense_fixed %arg12
// BSR: %[[JO:.*]] = sparse_iter.sparse_variable %[[IO]], %arg9, %arg10 length %arg13 nnz %arg14 sorted
// BSR: sparse_iter.match_buffer %arg11[%[[IO]], %[[JO]], %{{.*}}, %{{.*}}] : memref<?xf32> -> <4, f32>
// BSR: sparse_iter.iterate "copy0" {{.*}} "SSSS" attributes {preprocess}
// BSR: arith.constant 4 : index
// BSR: sparse_iter.iterate "csrmm.init"
// BSR: sparse_iter.iterate "csrmm.0" {{.*}} "SRSRS"
// BSR-NOT: format_rewrite

// ELL(8): the padded columns and the values, over A's own row axis.
// ELL: func.func @csr_spmm({{.*}}, %arg8: index, %arg9: memref<?xi32>, %arg10: memref<?xf32>)
// ELL: %[[I:.*]] = sparse_iter.dense_fixed %arg5
// ELL: %[[J:.*]] = sparse_iter.sparse_fixed %[[I]], %arg9 length %arg6 nnz_cols %{{.*}} : memref<?xi32>
// ELL: sparse_iter.iterate "csrmm.0" [%[[I]], %[[J]], %{{.*}}] "SRS"

// hyb(2 partitions, widths 1 and 4): four buckets of (rows, columns,
// values, row count); SDDMM reads A, and its output stays in CSR.
// HYB: func.func @sddmm({{.*}}, %arg9: index, %arg10: memref<?xi32>, %arg11: memref<?xi32>, %arg12: memref<?xf32>, %arg13: index, %arg14: memref<?xi32>, %arg15: memref<?xi32>, %arg16: memref<?xf32>, %arg17: index, %arg18: memref<?xi32>, %arg19: memref<?xi32>, %arg20: memref<?xf32>, %arg21: index, %arg22: memref<?xi32>, %arg23: memref<?xi32>, %arg24: memref<?xf32>, %arg25: index)
// HYB-COUNT-4: sparse_iter.iterate "copy{{[0-3]}}"
// HYB: sparse_iter.iterate "sddmm.init"
// A bucket may list a long row twice; SDDMM writes one output per slot, so
// its row axis stays spatial (SpMM's, below, accumulates).
// HYB-COUNT-4: sparse_iter.iterate "sddmm.{{[0-3]}}" {{.*}} "SSSR"

// HYBSPMM-COUNT-2: sparse_iter.iterate "csrmm.{{[01]}}" {{.*}} "SRRS"

// An iteration nested in another is decomposed where it is.
// NESTED: sparse_iter.iterate "reps"
// NESTED:   sparse_iter.iterate "copy0" {{.*}} "SS" attributes {preprocess}
// NESTED:   sparse_iter.iterate "inner.init"
// NESTED:   sparse_iter.iterate "inner.0" {{.*}} "SRS"
// NESTED-NOT: format_rewrite
