// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(check-gpu-ops)' | FileCheck %s

// Launches calling functions defined here, and host code printing, pass.
// CHECK-LABEL: func.func @host_prints
func.func private @twice(%v: f32) -> f32 {
  %w = arith.addf %v, %v : f32
  return %w : f32
}
func.func private @quad(%v: f32) -> f32 {
  %w = func.call @twice(%v) : (f32) -> f32
  %u = func.call @twice(%w) : (f32) -> f32
  return %u : f32
}
func.func @host_prints(%x: memref<?xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  vector.print %v : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %w = func.call @quad(%v) : (f32) -> f32
    memref.store %w, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @kernel_prints(%v: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{check-gpu-ops: vector.print has no GPU lowering; print from a kernel with gpu.printf}}
    vector.print %v : f32
    gpu.terminator
  }
  return
}

// -----

// Through the functions a kernel calls, to one the module only declares.
func.func private @host_only(f32) -> f32
func.func private @wrapper(%v: f32) -> f32 {
  // expected-error@+1 {{check-gpu-ops: GPU code calls @host_only, which has no body here}}
  %w = func.call @host_only(%v) : (f32) -> f32
  return %w : f32
}
func.func @kernel_calls(%v: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %w = func.call @wrapper(%v) : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

// A thread's buffer of a size known when compiling lives in its stack
// frame; host code may allocate on its own stack whatever it likes.
// CHECK-LABEL: func.func @thread_buffers
func.func @thread_buffers(%x: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %host = memref.alloca(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: memref.alloca() : memref<131072xf32>
    %own = memref.alloca() : memref<131072xf32>
    %v = memref.load %own[%tx] : memref<131072xf32>
    memref.store %v, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @thread_buffer_of_run_time_size(%x: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{check-gpu-ops: a buffer of each thread (memref.alloca, scope "local") has a size known only at run time}}
    %own = memref.alloca(%n) : memref<?xf32>
    %v = memref.load %own[%tx] : memref<?xf32>
    memref.store %v, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// In a function a kernel calls, over the 512 KiB a thread may have.
func.func private @scratch(%i: index) -> f64 {
  // expected-error@+1 {{check-gpu-ops: a buffer of each thread (memref.alloca, scope "local") takes 524296 bytes, but a GPU thread's local memory holds at most 524288 bytes}}
  %own = memref.alloca() : memref<65537xf64>
  %v = memref.load %own[%i] : memref<65537xf64>
  return %v : f64
}
func.func @kernel_calls_scratch(%x: memref<?xf64>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = func.call @scratch(%tx) : (index) -> f64
    memref.store %v, %x[%tx] : memref<?xf64>
    gpu.terminator
  }
  return
}

// -----

// All of a launch's thread buffers together, in any memory space but the
// block's workgroup memory.
func.func @thread_buffers_together(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %shared = memref.alloca() : memref<131072xf32, #gpu.address_space<workgroup>>
    %one = memref.alloca() : memref<100000xf32>
    // expected-error@+1 {{check-gpu-ops: the buffers of each thread (memref.alloca, scope "local") here take 800000 bytes with this one, but a GPU thread's local memory holds at most 524288 bytes}}
    %two = memref.alloca() : memref<100000xf32, #gpu.address_space<private>>
    %v = memref.load %one[%tx] : memref<100000xf32>
    %w = memref.load %two[%tx] : memref<100000xf32, #gpu.address_space<private>>
    %u = memref.load %shared[%tx] : memref<131072xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %v, %w : f32
    %t = arith.addf %s, %u : f32
    memref.store %t, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch with 400 KB of thread buffers calls a function with 400 KB more:
// one thread's stack holds 800 KB, over CUDA's 512 KiB.
func.func private @helper(%i: index) -> f32 {
  %b = memref.alloca() : memref<100000xf32>
  %v = memref.load %b[%i] : memref<100000xf32>
  return %v : f32
}
func.func @k(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{check-gpu-ops: the buffers of each thread (memref.alloca, scope "local") of this launch and the functions it calls take 800000 bytes}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<100000xf32>
    %u = memref.load %a[%tx] : memref<100000xf32>
    %v = func.call @helper(%tx) : (index) -> f32
    %s = arith.addf %u, %v : f32
    memref.store %s, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A function with thread buffers that calls itself stacks them once a
// call, without a bound.
// expected-error@+1 {{check-gpu-ops: this function has buffers of each thread (memref.alloca, scope "local") and calls itself, directly or not, in GPU code}}
func.func private @descend(%i: index) -> f32 {
  %b = memref.alloca() : memref<16xf32>
  %v = memref.load %b[%i] : memref<16xf32>
  %w = func.call @descend(%i) : (index) -> f32
  %s = arith.addf %v, %w : f32
  return %s : f32
}
func.func @recursive(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = func.call @descend(%tx) : (index) -> f32
    memref.store %v, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
