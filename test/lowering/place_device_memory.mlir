// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(place-device-memory)' --verify-diagnostics | FileCheck %s

// A buffer the host allocates for its kernels lives in GPU memory; the
// host waits for the allocation and the free.
// CHECK-LABEL: func.func @buffer_between_launches
//       CHECK:   %[[T0:.*]] = gpu.wait async
//       CHECK:   %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?xf32>
//       CHECK:   gpu.wait [%[[T1]]]
//   CHECK-NOT:   memref.alloc
//       CHECK:   gpu.launch
//       CHECK:     memref.store %{{.*}}, %[[M]]
//       CHECK:   gpu.launch
//       CHECK:     memref.load %[[M]]
//       CHECK:   %[[T2:.*]] = gpu.wait async
//       CHECK:   %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[M]] : memref<?xf32>
//       CHECK:   gpu.wait [%[[T3]]]
//   CHECK-NOT:   memref.dealloc
func.func @buffer_between_launches(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%b, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%b] : memref<?xf32>
    memref.store %v, %t[%b] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%b, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%b] : memref<?xf32>
    memref.store %v, %y[%b] : memref<?xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<?xf32>
  return
}

// -----

// Sizes, views and launches are the host's to compute; the elements are
// not.
func.func @store_on_the_host(%y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %size = memref.dim %y, %c0 : memref<?xf32>
  // expected-error@+1 {{place-device-memory: 'memref.store' would read or write GPU memory on the host, which only launches kernels; bind the loops around it to the GPU (blockIdx or threadIdx) so that it runs in a kernel (sparse-pos-auto-bind runs code outside every loop as one thread)}}
  memref.store %zero, %y[%c0] : memref<?xf32>
  gpu.launch blocks(%b, %by, %bz) in (%gx = %size, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %y[%b] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch size read from the structure arrays would be read on the host.
func.func @bound_read_on_the_host(%indptr: memref<?xi32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error@+1 {{'memref.load' would read or write GPU memory on the host, which only launches kernels; the host uses the value it reads ('gpu.launch')}}
    %end = memref.load %indptr[%c1] : memref<?xi32>
    %n = arith.index_cast %end : i32 to index
    gpu.launch blocks(%b, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %zero, %y[%b] : memref<?xf32>
      gpu.terminator
    }
  }
  return
}

// -----

// A buffer in scope "local" outside the loops bound to the GPU is on the
// host's stack, which the kernel cannot reach.
func.func @host_stack_in_kernel(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{place-device-memory: this memref.alloca (a buffer in scope "local") is on the host's stack, outside the loops bound to the GPU, but kernels use it}}
  %local = memref.alloca() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %local[%bx] : memref<4xf32>
    memref.store %v, %out[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// The same through a view the host makes.
func.func @host_stack_view_in_kernel(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{place-device-memory: this memref.alloca (a buffer in scope "local") is on the host's stack, outside the loops bound to the GPU, but kernels use it}}
  %local = memref.alloca() : memref<4xf32>
  %view = memref.cast %local : memref<4xf32> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %view[%bx] : memref<?xf32>
    memref.store %v, %out[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A value the host returns cannot come from GPU memory.
func.func @result_read_on_the_host(%s: memref<2xf32>, %y: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'memref.load' would read or write GPU memory on the host, which only launches kernels; the host uses the value it reads ('func.return'), and a value the host needs (a launch's size, a loop bound, a result) cannot come from GPU memory}}
  %a = memref.load %s[%c0] : memref<2xf32>
  gpu.launch blocks(%b, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %a, %y[%b] : memref<?xf32>
    gpu.terminator
  }
  return %a : f32
}

// -----

// A value only the kernel uses, read from memory the kernel then writes
// (sink-host-reads left it on the host): read it inside the iteration.
func.func @read_of_memory_the_kernel_writes(%y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'memref.load' would read or write GPU memory on the host, which only launches kernels; only kernels use the value it reads, but it was not moved into them: sink-host-reads moves such a read only where nothing writes the memory it reads before the last of them reads it}}
  %first = memref.load %y[%c0] : memref<?xf32>
  gpu.launch blocks(%b, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %y[%b] : memref<?xf32>
    %w = arith.subf %v, %first : f32
    memref.store %w, %y[%b] : memref<?xf32>
    gpu.terminator
  }
  return
}
