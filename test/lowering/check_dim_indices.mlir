// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(check-dim-indices)'
// RUN: not sptir-opt %s --split-input-file --sptir-to-cpu 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not sptir-opt %s --split-input-file --sptir-to-gpu 2>&1 | FileCheck %s --check-prefix=PIPELINE

// A dim op's constant index outside its operand's rank is refused before
// any canonicalization: a negative one crashed MLIR 22's
// SimplifyDimOfAllocOp, one past the rank lowered to poison.
// PIPELINE: error: check-dim-indices: 'memref.dim' asks for dimension -1, but dimensions count from 0
// PIPELINE: error: check-dim-indices: 'memref.dim' asks for dimension 1 of memref<?xi32>, which has 1 dimension
func.func @negative(%x: memref<?xi32>) -> index {
  %c = arith.constant -1 : index
  // expected-error@+1 {{check-dim-indices: 'memref.dim' asks for dimension -1, but dimensions count from 0}}
  %d = memref.dim %x, %c : memref<?xi32>
  return %d : index
}

// -----

func.func @past_the_rank(%x: memref<?xi32>) -> index {
  %c = arith.constant 1 : index
  // expected-error@+1 {{check-dim-indices: 'memref.dim' asks for dimension 1 of memref<?xi32>, which has 1 dimension}}
  %d = memref.dim %x, %c : memref<?xi32>
  return %d : index
}

// -----

// An index of arithmetic on constants, which canonicalization folds to -1.
func.func @folded(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = arith.subi %c0, %c1 : index
  %x = memref.alloc(%n) : memref<?xf32>
  // expected-error@+1 {{check-dim-indices: 'memref.dim' asks for dimension -1, but dimensions count from 0}}
  %d = memref.dim %x, %i : memref<?xf32>
  memref.dealloc %x : memref<?xf32>
  return %d : index
}

// -----

// In range, or known only at run time: left alone.
func.func @fine(%x: memref<?x?xi32>, %i: index) -> index {
  %c = arith.constant 1 : index
  %d = memref.dim %x, %c : memref<?x?xi32>
  %e = memref.dim %x, %i : memref<?x?xi32>
  %s = arith.addi %d, %e : index
  return %s : index
}
