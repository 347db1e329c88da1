// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(serialize-launches)'

// A barrier under a condition that depends on the thread.
func.func @divergent(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c2 : index
    scf.if %low {
      // expected-error@+1 {{serialize-launches: this barrier is under a branch that threads may take differently, so not every thread of the block may reach it}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----
// A branch that yields values around a barrier.
func.func @yielding(%m: memref<?xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<?xf32>
    // expected-error@+1 {{serialize-launches: a barrier or subgroup reduction inside this scf.if cannot be emulated}}
    %r = scf.if %c -> f32 {
      gpu.barrier
      scf.yield %v : f32
    } else {
      scf.yield %v : f32
    }
    memref.store %r, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----
// Private attributions would need a copy per thread.
func.func @private(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{serialize-launches: private memory attributions are not supported}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) private(%p : memref<1xf32, #gpu.address_space<private>>) {
    %v = memref.load %p[%c0] : memref<1xf32, #gpu.address_space<private>>
    memref.store %v, %out[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
