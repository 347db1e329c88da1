//! The host side of GPU modules without a GPU: the JIT-compiled host code
//! of `sptir-to-gpu` runs against stand-in `mgpu*` functions that record
//! what would be loaded and launched, so the launch sizes and argument
//! count the CUDA executor will see are checked here.

use sptir_runtime::{cpu::CpuKernel, RmatSpec};
use sptir_tools::{
    compile::run_pipeline,
    context::create_context,
    kernels::{prepare, Format, Layout, Op},
};
use std::{
    ffi::{c_void, CStr},
    sync::Mutex,
};

#[derive(Default, Debug)]
struct Record {
    modules: Vec<String>,
    functions: Vec<String>,
    launches: Vec<([i64; 6], i64)>,
}

static RECORD: Mutex<Record> = Mutex::new(Record { modules: Vec::new(), functions: Vec::new(), launches: Vec::new() });
const DUMMY: *mut c_void = 0x1000 as *mut c_void;

extern "C" fn load(data: *mut c_void, _: i32) -> *mut c_void {
    let text = unsafe { CStr::from_ptr(data as *const i8) }.to_string_lossy().into_owned();
    RECORD.lock().unwrap().modules.push(text);
    DUMMY
}
extern "C" fn unload(_: *mut c_void) {}
extern "C" fn function(_: *mut c_void, name: *const i8) -> *mut c_void {
    RECORD.lock().unwrap().functions.push(unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned());
    DUMMY
}
extern "C" fn stream() -> *mut c_void {
    DUMMY
}
extern "C" fn stream_done(_: *mut c_void) {}
#[allow(clippy::too_many_arguments)]
extern "C" fn launch(
    _: *mut c_void,
    gx: i64,
    gy: i64,
    gz: i64,
    bx: i64,
    by: i64,
    bz: i64,
    _: i32,
    _: *mut c_void,
    _: *mut *mut c_void,
    _: *mut *mut c_void,
    params: i64,
) {
    RECORD.lock().unwrap().launches.push(([gx, gy, gz, bx, by, bz], params));
}

#[test]
fn host_code_loads_ptx_and_launches_rows_by_features() {
    let a = RmatSpec::parse("rmat:6:3:1").unwrap().generate().unwrap();
    let feat = 24;
    let mut problem = prepare(Op::Spmm, Format::Csr, &a, feat, Layout::default(), 1).unwrap();
    let context = create_context();
    let mut module = problem.program(&context);
    run_pipeline(&context, &mut module, "builtin.module(sptir-to-gpu)").unwrap();
    let symbols: [(&str, *mut c_void); 7] = [
        ("mgpuModuleLoadJIT", load as *mut c_void),
        ("mgpuModuleUnload", unload as *mut c_void),
        ("mgpuModuleGetFunction", function as *mut c_void),
        ("mgpuStreamCreate", stream as *mut c_void),
        ("mgpuStreamDestroy", stream_done as *mut c_void),
        ("mgpuLaunchKernel", launch as *mut c_void),
        ("mgpuStreamSynchronize", stream_done as *mut c_void),
    ];
    let host = CpuKernel::compile_with_symbols(&module, 2, &symbols).unwrap();
    {
        let record = RECORD.lock().unwrap();
        assert_eq!(record.modules.len(), 1, "the constructor loads the one kernel module");
        assert!(record.modules[0].contains(".visible .entry csr_spmm_kernel("), "PTX is loaded");
    }
    host.run(problem.function, &mut problem.kernel_args()).unwrap();
    let record = RECORD.lock().unwrap();
    assert_eq!(record.functions, ["csr_spmm_kernel"]);
    // A block per row, a thread per feature; the kernel takes the five
    // fields of each memref descriptor and its scalars (counted in the PTX).
    let ptx_params = record.modules[0].lines().filter(|line| line.trim_start().starts_with(".param ")).count() as i64;
    assert_eq!(record.launches, [([a.rows() as i64, 1, 1, feat as i64, 1, 1], ptx_params)]);
}
