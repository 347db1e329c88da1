// RUN: sptir-opt %s --verify-diagnostics -p 'builtin.module(decompose-format{rule=coo iteration=it})'
// RUN: sptir-opt %S/Inputs/bad_block.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:0 iteration=it})'
// RUN: sptir-opt %S/Inputs/not_csr.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})'
// RUN: sptir-opt %S/Inputs/nested_partial_spmm.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=ell:4 iteration=inner})'
// RUN: sptir-opt %S/Inputs/row_maxima.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})'
// RUN: sptir-opt %S/Inputs/row_maxima.mlir -p 'builtin.module(decompose-format{rule=hyb:1:1,2 iteration=it})' | FileCheck %s --check-prefix=EXACT
// RUN: sptir-opt %S/Inputs/default_spmv.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})'
// RUN: sptir-opt %S/Inputs/default_spmv.mlir -p 'builtin.module(decompose-format{rule=ell:2 iteration=it})' | FileCheck %s --check-prefix=ELL
// RUN: sptir-opt %S/Inputs/negative_zero_default.mlir -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})' | FileCheck %S/Inputs/negative_zero_default.mlir
// RUN: sptir-opt %S/Inputs/fused_and_subtracted_spmv.mlir --split-input-file -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})' | FileCheck %S/Inputs/fused_and_subtracted_spmv.mlir
// RUN: sptir-opt %S/Inputs/two_readers.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:2 iteration=second})'
// RUN: sed -e 's/ sorted$//' %examples/csr_spmm.mlir | not sptir-opt -p 'builtin.module(decompose-format{rule=bsr:2 iteration=csrmm},lower-sparse-iter)' 2>&1 | FileCheck %s --check-prefix=UNSORTED
// RUN: not sptir-opt %S/Inputs/not_csr.mlir -p 'builtin.module(decompose-format{rule=ell:4 iteration=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sptir-opt %S/Inputs/mixed_rules.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=ell:3 iteration=second})'
// RUN: sptir-opt %S/Inputs/nested_axis.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=ell:4 iteration=it})'
// RUN: sptir-opt %S/Inputs/nested_axis.mlir --verify-diagnostics -p 'builtin.module(decompose-format{rule=bsr:2 iteration=it})'
// RUN: not sptir-opt %S/Inputs/not_csr.mlir -p 'builtin.module(decompose-format{rule=bsr:18446744073709551615 iteration=it})' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not sptir-opt %S/Inputs/not_csr.mlir -p 'builtin.module(decompose-format{iteration=it})' 2>&1 | FileCheck %s --check-prefix=NORULE

// hyb's rules hold only stored elements (their padding is out of range):
// any body may run on them.
// EXACT: sparse_iter.iterate "it.1"
// EXACT: arith.maximumf

// A default_value only matters where a slot in range is not stored: ell's
// slots in range all are.
// ELL: sparse_iter.iterate "it.0"
// ELL: arith.mulf

// The copy searches the CSR rows, which must be sorted: the error is
// about the copy that decompose-format made, and says so.
// UNSORTED: <stdin>:{{[0-9]+}}:3: error: access to buffer axis #1 needs a coordinate lookup, a binary search, but the axis is not sorted (in copy0, the copy decompose-format made)

// MISSING: not_csr.mlir:2:1: error: decompose-format: no sparse iteration labelled "nope"; the labels are "it"

// A block of 2^64 - 1 used to wrap around to -1.
// HUGE: error: decompose-format: bsr block size must be a positive integer up to 2147483647, got '18446744073709551615'

// NORULE: error: decompose-format: option 'iteration' names the iteration of a built-in rule; give the rule with 'rule'

// expected-error@+1 {{decompose-format: unknown rule 'coo'; expected bsr:B, ell:K or hyb:C:W0,W1,...}}
module {
}
