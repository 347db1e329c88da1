// RUN: sptir-opt %s --split-input-file -p 'builtin.module(mark-noalias-kernel-arguments)' | FileCheck %s

// Two buffers of their own: each aligned pointer (the second of a memref's
// 3 + 2 rank parameters) is noalias, and the one the kernel only loads
// from is readonly too; the allocated pointers and sizes stay as they are.
// CHECK-LABEL: llvm.func @k(
//  CHECK-SAME: %arg1: !llvm.ptr, %arg2: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg3: i64
//  CHECK-SAME: %arg6: !llvm.ptr, %arg7: !llvm.ptr {llvm.noalias}, %arg8: i64
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      %p = llvm.getelementptr %b1[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @host(%n: index, %a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
}

// -----

// One buffer passed twice (once through a view), at one of two launches:
// the pointers may meet, and stay unmarked.
// CHECK-LABEL: llvm.func @k(
//   CHECK-NOT: llvm.noalias
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      llvm.store %v, %b1 : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @host(%n: index, %a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    %view = memref.subview %a[1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
    %cast = memref.cast %view : memref<?xf32, strided<[1], offset: 1>> to memref<?xf32, strided<[1], offset: ?>>
    %flat = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %flat : memref<?xf32>)
    return
  }
}

// -----

// An address turned into an integer only for an alignment test keeps the
// buffer readonly; one turned back into a pointer (the address of an
// inline red.global.add) may be written through.
// CHECK-LABEL: llvm.func @k(
//  CHECK-SAME: %arg2: !llvm.ptr {llvm.noalias, llvm.readonly}
//  CHECK-SAME: %arg7: !llvm.ptr {llvm.noalias}, %arg8
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %c15 = llvm.mlir.constant(15 : i64) : i64
      %c0 = llvm.mlir.constant(0 : i64) : i64
      %address = llvm.ptrtoint %a1 : !llvm.ptr to i64
      %low = llvm.and %address, %c15 : i64
      %aligned = llvm.icmp "eq" %low, %c0 : i64
      %v = llvm.load %a1 : !llvm.ptr -> f32
      %target = llvm.ptrtoint %b1 : !llvm.ptr to i64
      %moved = llvm.add %target, %n : i64
      %pointer = llvm.inttoptr %moved : i64 to !llvm.ptr
      llvm.store %v, %pointer : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @host(%n: index, %a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
}

// -----

// Separate parameters of the launching function, but a call in the module
// passes one buffer for both: unmarked. (A caller outside the module is
// taken to pass separate buffers, as in the first case.)
// CHECK-LABEL: llvm.func @k(
//   CHECK-NOT: llvm.noalias
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      llvm.store %v, %b1 : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @host(%n: index, %a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
  func.func @in_place(%n: index, %x: memref<?xf32>) {
    call @host(%n, %x, %x) : (index, memref<?xf32>, memref<?xf32>) -> ()
    return
  }
}

// -----

// Memory whose origin the pass cannot tell apart may meet, and stays
// unmarked: two reads of one global,
// CHECK-LABEL: llvm.func @k(
//   CHECK-NOT: llvm.noalias
module attributes {gpu.container_module} {
  memref.global "private" @buffer : memref<8xf32> = uninitialized
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      llvm.store %v, %b1 : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @globals(%n: index) {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @buffer : memref<8xf32>
    %h = memref.get_global @buffer : memref<8xf32>
    %a = memref.cast %g : memref<8xf32> to memref<?xf32>
    %b = memref.cast %h : memref<8xf32> to memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
}

// -----

// a memref chosen at run time,
// CHECK-LABEL: llvm.func @k(
//   CHECK-NOT: llvm.noalias
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      llvm.store %v, %b1 : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @chosen(%n: index, %a: memref<?xf32>, %x: memref<?xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %b = arith.select %flag, %a, %x : memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
}

// -----

// the parameters of a function whose address is taken (its callers are
// unknown).
// CHECK-LABEL: llvm.func @k(
//   CHECK-NOT: llvm.noalias
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%n: i64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a1 : !llvm.ptr -> f32
      llvm.store %v, %b1 : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @host(%n: index, %a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
  func.func @address() -> ((index, memref<?xf32>, memref<?xf32>) -> ()) {
    %f = func.constant @host : (index, memref<?xf32>, memref<?xf32>) -> ()
    return %f : (index, memref<?xf32>, memref<?xf32>) -> ()
  }
}
