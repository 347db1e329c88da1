//! The CPU executor: MLIR's ExecutionEngine JIT-compiles a module lowered
//! to the LLVM dialect (`sptir-to-cpu`) and runs one of its functions.
//!
//! Argument convention: a kernel is a `func.func` whose arguments are 1-D
//! memrefs (`memref<?xi32>` structure arrays, `memref<?xf32>` values) and
//! `index` scalars, and that returns nothing; outputs are written through
//! memref arguments. `sptir-to-cpu` gives each function a C wrapper
//! (`_mlir_ciface_NAME`) that takes a pointer to each memref's descriptor;
//! the JIT's packed call passes a pointer to each wrapper argument.

use melior::ir::Module;
use mlir_sys::{
    mlirExecutionEngineCreate, mlirExecutionEngineDestroy, mlirExecutionEngineInvokePacked,
    mlirExecutionEngineLookupPacked, MlirExecutionEngine, MlirStringRef,
};
use std::ffi::c_void;

#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("the JIT could not compile the module (is it lowered to the LLVM dialect?)")]
    Compile,
    #[error("the compiled module has no function '{0}'")]
    MissingFunction(String),
    #[error("invoking '{0}' failed")]
    Invoke(String),
}

/// One kernel argument, in the order of the function's parameters.
pub enum KernelArg<'a> {
    /// A structure array (indptr, indices); the kernel only reads it.
    Ids(&'a [i32]),
    /// A value array the kernel only reads.
    Values(&'a [f32]),
    /// A value array the kernel writes.
    Output(&'a mut [f32]),
    /// An `index` scalar.
    Index(usize),
}

/// The layout MLIR gives a 1-D memref.
#[repr(C)]
struct Descriptor {
    allocated: *mut c_void,
    aligned: *mut c_void,
    offset: i64,
    size: i64,
    stride: i64,
}

/// A JIT-compiled module.
pub struct CpuKernel {
    engine: MlirExecutionEngine,
}

fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

impl CpuKernel {
    /// Compiles `module`, already lowered to the LLVM dialect, at LLVM
    /// optimization level `opt_level` (0-3).
    pub fn compile(module: &Module<'_>, opt_level: usize) -> Result<Self, ExecError> {
        let engine = unsafe {
            mlirExecutionEngineCreate(module.to_raw(), opt_level.min(3) as i32, 0, std::ptr::null(), false, false)
        };
        if engine.ptr.is_null() {
            return Err(ExecError::Compile);
        }
        Ok(Self { engine })
    }

    /// Runs `function` with `args`. The caller guarantees that `args` match
    /// the function's parameters (the tools check the signature before
    /// lowering) and that the data is valid for the kernel.
    pub fn run(&self, function: &str, args: &mut [KernelArg<'_>]) -> Result<(), ExecError> {
        // The C API resolves names to the `_mlir_ciface_` wrappers.
        let wrapper = format!("_mlir_ciface_{function}");
        let packed = unsafe { mlirExecutionEngineLookupPacked(self.engine, string_ref(&wrapper)) };
        if packed.is_null() {
            return Err(ExecError::MissingFunction(function.to_string()));
        }
        let mut descriptors: Vec<Descriptor> = Vec::new();
        let mut scalars: Vec<i64> = Vec::new();
        for arg in args.iter_mut() {
            let (pointer, length) = match arg {
                KernelArg::Ids(data) => (data.as_ptr() as *mut c_void, data.len()),
                KernelArg::Values(data) => (data.as_ptr() as *mut c_void, data.len()),
                KernelArg::Output(data) => (data.as_mut_ptr() as *mut c_void, data.len()),
                KernelArg::Index(value) => {
                    scalars.push(*value as i64);
                    continue;
                }
            };
            descriptors.push(Descriptor {
                allocated: pointer,
                aligned: pointer,
                offset: 0,
                size: length as i64,
                stride: 1,
            });
        }
        // Pointers into the vectors, which no longer grow.
        let mut descriptor_pointers: Vec<*mut Descriptor> =
            descriptors.iter_mut().map(|descriptor| descriptor as *mut Descriptor).collect();
        let mut pointers: Vec<*mut c_void> = Vec::new();
        let (mut next_descriptor, mut next_scalar) = (0, 0);
        for arg in args.iter() {
            if let KernelArg::Index(_) = arg {
                pointers.push(&mut scalars[next_scalar] as *mut i64 as *mut c_void);
                next_scalar += 1;
            } else {
                pointers.push(&mut descriptor_pointers[next_descriptor] as *mut *mut Descriptor as *mut c_void);
                next_descriptor += 1;
            }
        }
        let result =
            unsafe { mlirExecutionEngineInvokePacked(self.engine, string_ref(function), pointers.as_mut_ptr().cast()) };
        if result.value == 0 {
            return Err(ExecError::Invoke(function.to_string()));
        }
        Ok(())
    }
}

impl Drop for CpuKernel {
    fn drop(&mut self) {
        unsafe { mlirExecutionEngineDestroy(self.engine) }
    }
}
