// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(guard-memory-accesses)'

// A callee would have nowhere to count its failed checks.
func.func @callee(%a: memref<?xf32>) {
  return
}
func.func @caller(%a: memref<?xf32>) {
  // expected-error@+1 {{guard-memory-accesses: 'func.call' is not supported}}
  call @callee(%a) : (memref<?xf32>) -> ()
  return
}

// -----

// An op that touches a memref's elements in ways the pass does not know.
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  // expected-error@+1 {{guard-memory-accesses: cannot check the accesses of 'memref.copy'}}
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}

// -----

// Twice would guard the first run's counting.
// expected-error@+1 {{guard-memory-accesses: the module's accesses are already guarded}}
module attributes {sptir.memory_checks = []} {
  func.func @f(%a: memref<?xf32>) {
    return
  }
}

// -----

// A raw pointer reaches memory that no memref bounds.
func.func @raw_pointer(%v: f32) {
  // expected-error@+1 {{guard-memory-accesses: cannot check the accesses of 'llvm.mlir.zero'}}
  %p = llvm.mlir.zero : !llvm.ptr
  llvm.store %v, %p : f32, !llvm.ptr
  return
}
