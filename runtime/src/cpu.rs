//! The CPU executor: MLIR's ExecutionEngine JIT-compiles a module lowered
//! to the LLVM dialect (`sptir-to-cpu`) and runs one of its functions. The
//! CUDA executor uses the same JIT for the host side of GPU modules.
//!
//! Argument convention: a kernel is a `func.func` whose arguments are 1-D
//! memrefs (`memref<?xi32>` structure arrays, `memref<?xf32>` values) and
//! `index` scalars, and that returns nothing; outputs are written through
//! memref arguments. `sptir-to-cpu` gives each function a C wrapper
//! (`_mlir_ciface_NAME`) that takes a pointer to each memref's descriptor;
//! the JIT's packed call passes a pointer to each wrapper argument.

use melior::ir::Module;
use mlir_sys::{
    mlirExecutionEngineCreate, mlirExecutionEngineDestroy, mlirExecutionEngineInitialize,
    mlirExecutionEngineInvokePacked, mlirExecutionEngineLookupPacked, mlirExecutionEngineRegisterSymbol,
    MlirExecutionEngine, MlirStringRef,
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
    #[error("'{0}' returns a value; a kernel returns nothing (it writes its outputs through memref arguments)")]
    Returns(String),
    #[error("'{function}' takes {expected} but is called with {given}")]
    Signature { function: String, expected: String, given: String },
}

/// One kernel argument, in the order of the function's parameters.
pub enum KernelArg<'a> {
    /// A structure array (indptr, indices); the kernel only reads it.
    Ids(&'a [i32]),
    /// A value array the kernel only reads.
    Values(&'a [f32]),
    /// A value array the kernel writes.
    Output(&'a mut [f32]),
    /// An integer array the kernel writes (counts, such as the failed
    /// checks of `guard-memory-accesses`).
    Counts(&'a mut [i32]),
    /// An `index` scalar.
    Index(usize),
}

/// What the JIT passes for one argument: a 1-D memref's storage (host or
/// device address and length), or an `index`.
#[derive(Debug, Clone, Copy)]
pub enum RawArg {
    Memref { address: u64, len: usize },
    Index(i64),
}

impl KernelArg<'_> {
    /// The argument as the host sees it.
    pub fn raw(&mut self) -> RawArg {
        let (address, len) = match self {
            KernelArg::Ids(data) => (data.as_ptr() as u64, data.len()),
            KernelArg::Values(data) => (data.as_ptr() as u64, data.len()),
            KernelArg::Output(data) => (data.as_mut_ptr() as u64, data.len()),
            KernelArg::Counts(data) => (data.as_mut_ptr() as u64, data.len()),
            KernelArg::Index(value) => return RawArg::Index(*value as i64),
        };
        RawArg::Memref { address, len }
    }
}

/// The layout MLIR gives a 1-D memref.
#[repr(C)]
struct Descriptor {
    allocated: u64,
    aligned: u64,
    offset: i64,
    size: i64,
    stride: i64,
}

fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

/// A JIT-compiled module.
pub struct CpuKernel {
    engine: MlirExecutionEngine,
    /// For each C wrapper, its function's name, which parameters are
    /// memrefs (a descriptor pointer) rather than scalars, and whether it
    /// returns a value.
    wrappers: Vec<(String, Vec<bool>, bool)>,
}

/// The C wrappers (`_mlir_ciface_NAME`) of `module`, by NAME, with which of
/// their parameters are pointers: a call is checked against them, since the
/// JIT's packed call trusts its argument list.
fn wrapper_signatures(module: &Module<'_>) -> Vec<(String, Vec<bool>, bool)> {
    use melior::ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::TypeLike,
    };
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() != Ok("llvm.func") {
            return WalkResult::Advance;
        }
        let name = op.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok());
        let function = name.and_then(|n| n.value().strip_prefix("_mlir_ciface_").map(str::to_string));
        let r#type = op.attribute("function_type").ok().and_then(|a| TypeAttribute::try_from(a).ok());
        if let (Some(function), Some(r#type)) = (function, r#type) {
            let raw = r#type.value().to_raw();
            let inputs = unsafe { mlir_sys::mlirLLVMFunctionTypeGetNumInputs(raw) };
            let pointers = (0..inputs)
                .map(|i| unsafe {
                    mlir_sys::mlirTypeIsALLVMPointerType(mlir_sys::mlirLLVMFunctionTypeGetInput(raw, i))
                })
                .collect();
            let returns = unsafe {
                let result = mlir_sys::mlirLLVMFunctionTypeGetReturnType(raw);
                !mlir_sys::mlirTypeEqual(result, mlir_sys::mlirLLVMVoidTypeGet(mlir_sys::mlirTypeGetContext(raw)))
            };
            found.push((function, pointers, returns));
        }
        WalkResult::Skip
    });
    found
}

fn describe(pointers: impl Iterator<Item = bool>) -> String {
    let kinds: Vec<&str> = pointers.map(|p| if p { "memref" } else { "index" }).collect();
    format!("({})", kinds.join(", "))
}

impl CpuKernel {
    /// Compiles `module`, already lowered to the LLVM dialect, at LLVM
    /// optimization level `opt_level` (0-3).
    pub fn compile(module: &Module<'_>, opt_level: usize) -> Result<Self, ExecError> {
        Self::compile_with_symbols(module, opt_level, &[])
    }

    /// Like [`compile`](Self::compile), resolving the module's external
    /// functions named in `symbols` to the given addresses, then running its
    /// constructors (a GPU module's constructors load its kernels).
    pub fn compile_with_symbols(
        module: &Module<'_>,
        opt_level: usize,
        symbols: &[(&str, *mut c_void)],
    ) -> Result<Self, ExecError> {
        let engine = unsafe {
            mlirExecutionEngineCreate(module.to_raw(), opt_level.min(3) as i32, 0, std::ptr::null(), false, false)
        };
        if engine.ptr.is_null() {
            return Err(ExecError::Compile);
        }
        for &(name, address) in symbols {
            unsafe { mlirExecutionEngineRegisterSymbol(engine, string_ref(name), address) };
        }
        unsafe { mlirExecutionEngineInitialize(engine) };
        let wrappers = wrapper_signatures(module);
        // The JIT generates code at the first lookup: doing it here keeps
        // code generation in the compile time, out of the first run's.
        for (name, ..) in &wrappers {
            unsafe { mlirExecutionEngineLookupPacked(engine, string_ref(&format!("_mlir_ciface_{name}"))) };
        }
        Ok(Self { engine, wrappers })
    }

    /// Runs `function` with `args`, which must match its parameters in
    /// number and kind (checked); the caller guarantees that the data is
    /// valid for the kernel.
    pub fn run(&self, function: &str, args: &mut [KernelArg<'_>]) -> Result<(), ExecError> {
        let raw: Vec<RawArg> = args.iter_mut().map(KernelArg::raw).collect();
        self.run_raw(function, &raw)
    }

    /// Runs `function` on raw arguments: memref storage may be host or
    /// device memory, as the function expects.
    pub fn run_raw(&self, function: &str, args: &[RawArg]) -> Result<(), ExecError> {
        // The C API resolves names to the `_mlir_ciface_` wrappers.
        let wrapper = format!("_mlir_ciface_{function}");
        if unsafe { mlirExecutionEngineLookupPacked(self.engine, string_ref(&wrapper)) }.is_null() {
            return Err(ExecError::MissingFunction(function.to_string()));
        }
        let given: Vec<bool> = args.iter().map(|a| matches!(a, RawArg::Memref { .. })).collect();
        if let Some((_, expected, returns)) = self.wrappers.iter().find(|(name, ..)| name == function) {
            // The packed call would write the result through an argument
            // that is not there.
            if *returns {
                return Err(ExecError::Returns(function.to_string()));
            }
            if *expected != given {
                return Err(ExecError::Signature {
                    function: function.to_string(),
                    expected: describe(expected.iter().copied()),
                    given: describe(given.into_iter()),
                });
            }
        }
        let mut descriptors: Vec<Descriptor> = Vec::new();
        let mut scalars: Vec<i64> = Vec::new();
        for arg in args {
            match *arg {
                RawArg::Memref { address, len } => descriptors.push(Descriptor {
                    allocated: address,
                    aligned: address,
                    offset: 0,
                    size: len as i64,
                    stride: 1,
                }),
                RawArg::Index(value) => scalars.push(value),
            }
        }
        // Pointers into the vectors, which no longer grow.
        let mut descriptor_pointers: Vec<*mut Descriptor> =
            descriptors.iter_mut().map(|d| d as *mut Descriptor).collect();
        let mut pointers: Vec<*mut c_void> = Vec::new();
        let (mut next_descriptor, mut next_scalar) = (0, 0);
        for arg in args {
            match arg {
                RawArg::Memref { .. } => {
                    pointers.push(&mut descriptor_pointers[next_descriptor] as *mut *mut Descriptor as *mut c_void);
                    next_descriptor += 1;
                }
                RawArg::Index(_) => {
                    pointers.push(&mut scalars[next_scalar] as *mut i64 as *mut c_void);
                    next_scalar += 1;
                }
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
