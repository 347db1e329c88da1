//! The CUDA executor. A module lowered by `sptir-stage2-to-gpu` holds the
//! kernels as PTX and a host function that computes launch sizes and
//! launches them through MLIR's `mgpu*` runtime interface. The host function
//! is JIT-compiled by MLIR's ExecutionEngine like a CPU kernel; the `mgpu*`
//! functions it calls are implemented here on the CUDA driver API (cudarc,
//! loaded at run time, so nothing here needs CUDA to build).
//!
//! Argument convention: as for the CPU executor ([`crate::cpu`]). Value
//! arrays are copied to the device before the call, and outputs back after.
//! Kernel time is measured with CUDA events on the GPU's own clock, from
//! the first launch of a run on a stream to the end of its last, after
//! the host has queued all of them (see [`Gate`]).

use crate::cpu::{CpuKernel, ExecError, KernelArg, RawArg};
use cudarc::driver::{result, sys};
use melior::ir::Module;
use std::{
    cell::RefCell,
    ffi::{c_void, CStr},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Condvar, Mutex, OnceLock, PoisonError,
    },
    time::Duration,
};

#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error("no CUDA driver (libcuda) on this machine")]
    NoDriver,
    #[error("CUDA: {0}")]
    Driver(String),
    /// A kernel faulted (an illegal address, say): CUDA keeps the error in
    /// the context, and every later call in this process fails with it.
    #[error("CUDA: {0} (the GPU context is lost: nothing more can run on the GPU in this process)")]
    ContextLost(String),
    #[error("the JIT could not compile the host module (is it lowered by sptir-stage2-to-gpu?)")]
    Compile,
    #[error("the compiled module has no function '{0}'")]
    MissingFunction(String),
    #[error("invoking '{0}' failed")]
    Invoke(String),
    #[error("{0}")]
    Signature(String),
}

/// Set once an error has poisoned the process's CUDA context.
static CONTEXT_LOST: AtomicBool = AtomicBool::new(false);

/// Errors after which the context is unusable (CUDA's "sticky" errors).
fn is_sticky(error: result::DriverError) -> bool {
    use sys::CUresult::*;
    matches!(
        error.0,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_ECC_UNCORRECTABLE
    )
}

pub(crate) fn driver(error: result::DriverError) -> CudaError {
    if is_sticky(error) {
        CONTEXT_LOST.store(true, Ordering::SeqCst);
        return CudaError::ContextLost(format!("{error:?}"));
    }
    CudaError::Driver(format!("{error:?}"))
}

/// Whether a kernel fault has made the GPU unusable for this process.
pub fn context_lost() -> bool {
    CONTEXT_LOST.load(Ordering::SeqCst)
}

/// A lost context fails every later use at once, saying why.
fn usable() -> Result<(), CudaError> {
    match CONTEXT_LOST.load(Ordering::SeqCst) {
        true => Err(CudaError::ContextLost("an earlier kernel failed".into())),
        false => Ok(()),
    }
}

/// The primary context of device 0, made current on first use.
fn context() -> Result<sys::CUcontext, CudaError> {
    static CONTEXT: OnceLock<Result<usize, String>> = OnceLock::new();
    let context = CONTEXT.get_or_init(|| {
        if !unsafe { sys::is_culib_present() } {
            return Err(String::new());
        }
        result::init().map_err(|e| format!("{e:?}"))?;
        let device = result::device::get(0).map_err(|e| format!("{e:?}"))?;
        let context = unsafe { result::primary_ctx::retain(device) }.map_err(|e| format!("{e:?}"))?;
        Ok(context as usize)
    });
    match context {
        Ok(context) => {
            let context = *context as sys::CUcontext;
            unsafe { result::ctx::set_current(context) }.map_err(driver)?;
            Ok(context)
        }
        Err(message) if message.is_empty() => Err(CudaError::NoDriver),
        Err(message) => Err(CudaError::Driver(message.clone())),
    }
}

/// Whether a CUDA driver and a device are usable here.
pub fn available() -> bool {
    context().is_ok()
}

/// Why no CUDA driver or device is usable here, if none is.
pub fn check() -> Result<(), CudaError> {
    context().map(|_| ())
}

/// What the `mgpu*` functions report back to the thread whose host code
/// called them (the JIT-compiled host function runs on the caller's
/// thread): the first error, and the time of the kernels launched since
/// the last reset.
#[derive(Default)]
struct Launches {
    error: Option<CudaError>,
    kernel_ms: f32,
    /// The start and end events of launches not yet synchronized, by stream.
    pending: Vec<(usize, (sys::CUevent, sys::CUevent))>,
    /// The gates of the streams the host code created, until it waits for
    /// them.
    gates: Vec<(usize, Gate)>,
}

thread_local! {
    static LAUNCHES: RefCell<Launches> = RefCell::new(Launches::default());
}

fn with_launches<T>(f: impl FnOnce(&mut Launches) -> T) -> T {
    LAUNCHES.with(|launches| f(&mut launches.borrow_mut()))
}

fn record(error: CudaError) {
    with_launches(|launches| {
        launches.error.get_or_insert(error);
    });
}

fn record_error(what: &str, message: impl std::fmt::Display) {
    record(CudaError::Driver(format!("{what}: {message}")));
}

fn record_driver_error(what: &str, error: result::DriverError) {
    record(match driver(error) {
        CudaError::ContextLost(message) => CudaError::ContextLost(format!("{what}: {message}")),
        _ => CudaError::Driver(format!("{what}: {error:?}")),
    });
}

fn failed() -> bool {
    with_launches(|launches| launches.error.is_some())
}

/// Whether kernels are timed once the host has queued a whole run
/// ([`Gate`]); set by [`set_queued_timing`], and off for the rest of the
/// process once a gate was not opened in time.
static QUEUED_TIMING: AtomicBool = AtomicBool::new(true);

/// How long a gate holds its stream at most: a host call that waits for
/// the stream before the host opens it (a synchronous copy, say) then
/// goes on after this delay instead of waiting for ever.
const GATE_TIMEOUT: Duration = Duration::from_millis(50);

/// Times kernels with ([`Gate`]) or without the host's submission of the
/// run held back until it is all queued.
pub fn set_queued_timing(on: bool) {
    QUEUED_TIMING.store(on, Ordering::SeqCst);
}

/// Whether the times measured now exclude the host's submission latency:
/// asked for, and no gate has timed out.
pub fn queued_timing() -> bool {
    QUEUED_TIMING.load(Ordering::SeqCst)
}

/// Holds a stream's work until the host has queued all of a run's.
///
/// On an idle GPU a start event is stamped as soon as it is recorded, and
/// the launch the host submits after it reaches the GPU several
/// microseconds later: CUDA events around a launch time the host's
/// submission too, which on a small graph is most of what they measure,
/// and more of it the more launches a run has. A gate is a host function
/// queued first on the stream that returns when the host opens it, after
/// queueing the run's events and launches: the GPU then runs them back to
/// back and the events time the GPU's work alone, for the kernels and for
/// cuSPARSE alike (NVIDIA's nvbench holds its stream with a blocking
/// kernel for the same reason). A gate that is never opened returns after
/// [`GATE_TIMEOUT`] and turns gating off for the process, as something on
/// the host waited for the held stream.
pub(crate) struct Gate(Option<Arc<GateState>>);

type GateState = (Mutex<bool>, Condvar);

/// Waits until the gate is open or `timeout` has passed; whether it timed
/// out. A poisoned lock still holds a usable flag (and unwinding out of a
/// host function would abort the process).
fn wait_until_open((open, opened): &GateState, timeout: Duration) -> bool {
    let open = open.lock().unwrap_or_else(PoisonError::into_inner);
    let (_open, waited) =
        opened.wait_timeout_while(open, timeout, |open| !*open).unwrap_or_else(PoisonError::into_inner);
    waited.timed_out()
}

unsafe extern "C" fn wait_at_gate(state: *mut c_void) {
    let state = unsafe { Arc::from_raw(state as *const GateState) };
    if wait_until_open(&state, GATE_TIMEOUT) {
        QUEUED_TIMING.store(false, Ordering::SeqCst);
    }
}

impl Gate {
    /// Queues a closed gate on `stream` (null: the legacy default stream);
    /// an inert gate where queued timing is off or the driver refuses the
    /// host function, so that the run is timed as before, not lost.
    pub(crate) fn close(stream: sys::CUstream) -> Gate {
        if !queued_timing() {
            return Gate(None);
        }
        let state: Arc<GateState> = Arc::new((Mutex::new(false), Condvar::new()));
        let raw = Arc::into_raw(state.clone()) as *mut c_void;
        match unsafe { sys::cuLaunchHostFunc(stream, Some(wait_at_gate), raw) }.result() {
            Ok(()) => Gate(Some(state)),
            Err(_) => {
                drop(unsafe { Arc::from_raw(raw as *const GateState) });
                Gate(None)
            }
        }
    }

    pub(crate) fn open(&self) {
        if let Some(state) = &self.0 {
            let (open, opened) = &**state;
            *open.lock().unwrap_or_else(PoisonError::into_inner) = true;
            opened.notify_all();
        }
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
    }
}

/// Takes `stream`'s entries out of `list`, in order.
fn take_stream<T>(list: &mut Vec<(usize, T)>, stream: *mut c_void) -> Vec<T> {
    let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(list).into_iter().partition(|(s, _)| *s == stream as usize);
    *list = others;
    mine.into_iter().map(|(_, item)| item).collect()
}

/// Opens the gate of `stream`, if the host code's stream has one.
fn open_gate(stream: *mut c_void) {
    // Dropped outside `with_launches`: a gate opens as it drops.
    drop(with_launches(|launches| take_stream(&mut launches.gates, stream)));
}

fn destroy_events(start: sys::CUevent, end: sys::CUevent) {
    unsafe {
        let _ = result::event::destroy(start);
        let _ = result::event::destroy(end);
    }
}

// The `mgpu*` interface the GPU-to-LLVM lowering calls. They cannot return
// errors, so they record the first one and turn the rest into no-ops.

/// Loads the PTX, keeping the driver's compile log for the error. The
/// optimization level MLIR passes is its LLVM level; the driver's JIT
/// keeps its own default, the highest.
extern "C" fn mgpu_module_load_jit(data: *mut c_void, _opt_level: i32) -> *mut c_void {
    let mut log = vec![0u8; 16 * 1024];
    let mut options =
        [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values = [log.as_mut_ptr() as *mut c_void, (log.len() - 1) as *mut c_void];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    let loaded = unsafe {
        sys::cuModuleLoadDataEx(&mut module, data, options.len() as u32, options.as_mut_ptr(), values.as_mut_ptr())
            .result()
    };
    match loaded {
        Ok(()) => module as *mut c_void,
        Err(error) => {
            let text = CStr::from_bytes_until_nul(&log).map(|t| t.to_string_lossy().trim().to_string());
            match text {
                Ok(text) if !text.is_empty() => record_error("loading the PTX module", format!("{error:?}: {text}")),
                _ => record_driver_error("loading the PTX module", error),
            }
            std::ptr::null_mut()
        }
    }
}

extern "C" fn mgpu_module_unload(module: *mut c_void) {
    if !module.is_null() {
        let _ = unsafe { result::module::unload(module as sys::CUmodule) };
    }
}

extern "C" fn mgpu_module_get_function(module: *mut c_void, name: *const i8) -> *mut c_void {
    if module.is_null() || failed() {
        return std::ptr::null_mut();
    }
    match unsafe { result::module::get_function(module as sys::CUmodule, CStr::from_ptr(name).to_owned()) } {
        Ok(function) => function as *mut c_void,
        Err(error) => {
            record_driver_error("finding the kernel", error);
            std::ptr::null_mut()
        }
    }
}

extern "C" fn mgpu_stream_create() -> *mut c_void {
    match result::stream::create(result::stream::StreamKind::NonBlocking) {
        Ok(stream) => {
            let gate = Gate::close(stream);
            with_launches(|launches| launches.gates.push((stream as usize, gate)));
            stream as *mut c_void
        }
        Err(error) => {
            record_driver_error("creating a stream", error);
            std::ptr::null_mut()
        }
    }
}

extern "C" fn mgpu_stream_destroy(stream: *mut c_void) {
    open_gate(stream);
    if !stream.is_null() {
        let _ = unsafe { result::stream::destroy(stream as sys::CUstream) };
    }
}

/// CUDA's largest grid (x, y, z) and block (x, y, z) sizes, the same on
/// every device since compute capability 3.0. The lowering keeps its own
/// copy (`lower_loop_bindings`): the two crates share no dependency, and
/// this check must not call the driver, which a launch without a GPU (a
/// test) does not have.
const LAUNCH_LIMITS: [i64; 6] = [i32::MAX as i64, 65535, 65535, 1024, 1024, 64];

#[allow(clippy::too_many_arguments)]
extern "C" fn mgpu_launch_kernel(
    function: *mut c_void,
    grid_x: i64,
    grid_y: i64,
    grid_z: i64,
    block_x: i64,
    block_y: i64,
    block_z: i64,
    shared_memory: i32,
    stream: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    _param_count: i64,
) {
    if function.is_null() || failed() {
        return;
    }
    // An empty grid (a matrix without rows) launches nothing.
    if [grid_x, grid_y, grid_z, block_x, block_y, block_z].iter().any(|&d| d <= 0) {
        return;
    }
    let dims = [grid_x, grid_y, grid_z, block_x, block_y, block_z];
    let threads = block_x.checked_mul(block_y).and_then(|t| t.checked_mul(block_z));
    if dims.iter().zip(LAUNCH_LIMITS).any(|(&d, limit)| d > limit) || threads.is_none_or(|t| t > 1024) {
        record_error(
            "launching the kernel",
            format!(
                "launch dimensions {dims:?} (grid x, y, z, block x, y, z) exceed the device's limits {LAUNCH_LIMITS:?} \
                 and 1024 threads per block; a loop bound to blockIdx.y or z covers at most 65535 positions"
            ),
        );
        return;
    }
    let stream = stream as sys::CUstream;
    let start = match result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT) {
        Ok(event) => event,
        Err(error) => return record_driver_error("creating timing events", error),
    };
    let end = match result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT) {
        Ok(event) => event,
        Err(error) => {
            destroy_events(start, std::ptr::null_mut());
            return record_driver_error("creating timing events", error);
        }
    };
    if let Err(error) = unsafe { result::event::record(start, stream) } {
        destroy_events(start, end);
        return record_driver_error("recording a timing event", error);
    }
    let launched = unsafe {
        sys::cuLaunchKernel(
            function as sys::CUfunction,
            grid_x as u32,
            grid_y as u32,
            grid_z as u32,
            block_x as u32,
            block_y as u32,
            block_z as u32,
            shared_memory.max(0) as u32,
            stream,
            params,
            extra,
        )
        .result()
    };
    if let Err(error) = launched {
        destroy_events(start, end);
        return record_driver_error("launching the kernel", error);
    }
    if let Err(error) = unsafe { result::event::record(end, stream) } {
        destroy_events(start, end);
        return record_driver_error("recording a timing event", error);
    }
    with_launches(|launches| launches.pending.push((stream as usize, (start, end))));
}

extern "C" fn mgpu_stream_synchronize(stream: *mut c_void) {
    if stream.is_null() {
        return;
    }
    open_gate(stream);
    if let Err(error) = unsafe { result::stream::synchronize(stream as sys::CUstream) } {
        return record_driver_error("running the kernel", error);
    }
    let events = with_launches(|launches| take_stream(&mut launches.pending, stream));
    // From the first launch's start to the last one's end: the gaps between
    // a run's kernels are its time too.
    if let (Some(&(first, _)), Some(&(_, last))) = (events.first(), events.last()) {
        match unsafe { result::event::elapsed(first, last) } {
            Ok(ms) => with_launches(|launches| launches.kernel_ms += ms),
            Err(error) => record_driver_error("timing the kernel", error),
        }
    }
    for (start, end) in events {
        destroy_events(start, end);
    }
}

/// GPU memory the host code allocates for its kernels (a buffer of the
/// program's own); empty requests get no memory, as no kernel reads it.
extern "C" fn mgpu_mem_alloc(bytes: u64, _stream: *mut c_void, _host_shared: i8) -> *mut c_void {
    if bytes == 0 || failed() {
        return std::ptr::null_mut();
    }
    match unsafe { result::malloc_sync(bytes as usize) } {
        Ok(address) => address as *mut c_void,
        Err(error) => {
            record_driver_error(&format!("allocating {bytes} bytes of GPU memory"), error);
            std::ptr::null_mut()
        }
    }
}

extern "C" fn mgpu_mem_free(address: *mut c_void, stream: *mut c_void) {
    if address.is_null() {
        return;
    }
    // Launches wait for their own streams; this waits for anything queued
    // on the free's, before the memory goes.
    mgpu_stream_synchronize(stream);
    if let Err(error) = unsafe { result::free_sync(address as sys::CUdeviceptr) } {
        record_driver_error("freeing GPU memory", error);
    }
}

const SYMBOLS: [(&str, *mut c_void); 9] = [
    ("mgpuModuleLoadJIT", mgpu_module_load_jit as *mut c_void),
    ("mgpuModuleUnload", mgpu_module_unload as *mut c_void),
    ("mgpuModuleGetFunction", mgpu_module_get_function as *mut c_void),
    ("mgpuStreamCreate", mgpu_stream_create as *mut c_void),
    ("mgpuStreamDestroy", mgpu_stream_destroy as *mut c_void),
    ("mgpuLaunchKernel", mgpu_launch_kernel as *mut c_void),
    ("mgpuStreamSynchronize", mgpu_stream_synchronize as *mut c_void),
    ("mgpuMemAlloc", mgpu_mem_alloc as *mut c_void),
    ("mgpuMemFree", mgpu_mem_free as *mut c_void),
];

/// The `mgpu*` functions a GPU module's host code calls, for the JIT.
pub fn runtime_symbols() -> [(&'static str, *mut c_void); 9] {
    SYMBOLS
}

/// Takes the recorded error and kernel time, resetting this thread's
/// launch state (events never synchronized are dropped).
fn take_launches() -> Result<f32, CudaError> {
    let launches = with_launches(std::mem::take);
    for (_, (start, end)) in launches.pending {
        destroy_events(start, end);
    }
    match launches.error {
        Some(error) => Err(error),
        None => Ok(launches.kernel_ms),
    }
}

/// Device memory, freed on drop.
pub(crate) struct DeviceBuffer {
    address: sys::CUdeviceptr,
    /// Elements (of the type it was made for).
    len: usize,
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if self.address != 0 {
            let _ = unsafe { result::free_sync(self.address) };
        }
    }
}

impl DeviceBuffer {
    /// A device copy of `data`.
    pub(crate) fn upload<T>(data: &[T]) -> Result<Self, CudaError> {
        // A zero-byte allocation is an error in CUDA; keep one element.
        let bytes = std::mem::size_of_val(data).max(std::mem::size_of::<T>());
        let buffer = Self { address: unsafe { result::malloc_sync(bytes) }.map_err(driver)?, len: data.len() };
        if !data.is_empty() {
            unsafe { result::memcpy_htod_sync(buffer.address, data) }.map_err(driver)?;
        }
        Ok(buffer)
    }

    /// `bytes` of zeroed device memory.
    pub(crate) fn zeroed(bytes: usize) -> Result<Self, CudaError> {
        let bytes = bytes.max(4);
        let buffer = Self { address: unsafe { result::malloc_sync(bytes) }.map_err(driver)?, len: bytes };
        unsafe { result::memset_d8_sync(buffer.address, 0, bytes) }.map_err(driver)?;
        Ok(buffer)
    }

    pub(crate) fn pointer(&self) -> *mut c_void {
        self.address as *mut c_void
    }

    /// Copies the buffer's first `into.len()` values back.
    pub(crate) fn download<T>(&self, into: &mut [T]) -> Result<(), CudaError> {
        if !into.is_empty() {
            unsafe { result::memcpy_dtoh_sync(into, self.address) }.map_err(driver)?;
        }
        Ok(())
    }
}

/// A GPU module: its host code JIT-compiled, its kernels loaded.
pub struct GpuKernel {
    host: CpuKernel,
}

fn exec(error: ExecError) -> CudaError {
    match error {
        ExecError::Compile => CudaError::Compile,
        ExecError::MissingFunction(name) => CudaError::MissingFunction(name),
        ExecError::Invoke(name) => CudaError::Invoke(name),
        error @ (ExecError::Signature { .. } | ExecError::Returns(_)) => CudaError::Signature(error.to_string()),
    }
}

impl GpuKernel {
    /// Compiles `module` (lowered by `sptir-stage2-to-gpu`) and loads its
    /// kernels onto the device.
    pub fn compile(module: &Module<'_>, opt_level: usize) -> Result<Self, CudaError> {
        context()?;
        usable()?;
        // What an earlier, failed call left behind is not this call's.
        let _ = take_launches();
        let host = CpuKernel::compile_with_symbols(module, opt_level, &SYMBOLS).map_err(exec)?;
        take_launches()?;
        Ok(Self { host })
    }

    /// Runs `function`: copies `args` to the device, calls the host
    /// function, copies outputs back. Returns the kernels' time in ms.
    pub fn run(&self, function: &str, args: &mut [KernelArg<'_>]) -> Result<f32, CudaError> {
        context()?;
        usable()?;
        let mut buffers: Vec<Option<DeviceBuffer>> = Vec::new();
        for arg in args.iter() {
            buffers.push(match arg {
                KernelArg::Ids(data) => Some(DeviceBuffer::upload(data)?),
                KernelArg::Values(data) => Some(DeviceBuffer::upload(data)?),
                KernelArg::Output(data) => Some(DeviceBuffer::upload(data)?),
                KernelArg::Counts(data) => Some(DeviceBuffer::upload(data)?),
                KernelArg::Index(_) => None,
            });
        }
        let raw: Vec<RawArg> = args
            .iter_mut()
            .zip(&buffers)
            .map(|(arg, buffer)| match buffer {
                Some(buffer) => RawArg::Memref { address: buffer.address, len: buffer.len },
                None => arg.raw(),
            })
            .collect();
        // Copies from pageable memory may still be in flight when
        // cuMemcpyHtoD returns, and the kernels' non-blocking streams do
        // not wait for them.
        result::ctx::synchronize().map_err(driver)?;
        let _ = take_launches();
        let invoked = self.host.run_raw(function, &raw);
        let kernel_ms = take_launches()?;
        invoked.map_err(exec)?;
        for (arg, buffer) in args.iter_mut().zip(&buffers) {
            match (arg, buffer) {
                (KernelArg::Output(data), Some(buffer)) => buffer.download(data)?,
                (KernelArg::Counts(data), Some(buffer)) => buffer.download(data)?,
                _ => {}
            }
        }
        Ok(kernel_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dimensions past CUDA's limits are refused with a message before the
    /// driver is called (so this runs without a GPU), and an empty grid
    /// launches nothing.
    #[test]
    fn launch_dimensions_are_checked() {
        let function = 1usize as *mut c_void;
        let launch = |dims: [i64; 6]| {
            let _ = take_launches();
            let (stream, none) = (std::ptr::null_mut(), std::ptr::null_mut());
            mgpu_launch_kernel(
                function, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], 0, stream, none, none, 0,
            );
            take_launches()
        };
        let refused = launch([1, 65536, 1, 1, 1, 1]).unwrap_err().to_string();
        assert!(refused.contains("blockIdx.y or z covers at most 65535"), "{refused}");
        assert!(launch([1, 1, 1, 64, 32, 1]).unwrap_err().to_string().contains("1024 threads per block"));
        assert!(launch([1, 1, 1, 1, 1, 65]).is_err());
        assert_eq!(launch([0, 1, 1, 32, 1, 1]).ok(), Some(0.0));
    }

    /// A gate holds its waiter until opened, and a gate nobody opens lets it
    /// go after the timeout, saying so (the driver's side of it, the host
    /// function on the stream, needs a GPU).
    #[test]
    fn gates_open_or_time_out() {
        let gate = Gate(Some(Arc::new((Mutex::new(false), Condvar::new()))));
        let state = gate.0.clone().unwrap();
        let waiter = std::thread::spawn(move || wait_until_open(&state, Duration::from_secs(60)));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished(), "a closed gate let its waiter go");
        let started = std::time::Instant::now();
        drop(gate);
        assert!(!waiter.join().unwrap(), "an opened gate counted as timed out");
        assert!(started.elapsed() < Duration::from_secs(10));

        let forgotten: GateState = (Mutex::new(false), Condvar::new());
        assert!(wait_until_open(&forgotten, Duration::from_millis(10)));
        let opened: GateState = (Mutex::new(true), Condvar::new());
        assert!(!wait_until_open(&opened, Duration::from_millis(10)));
    }
}
