//! The cuSPARSE baseline, in the same process as the kernels it is compared
//! with: `cusparseSpMM` (CSR, every CSR algorithm tried, the fastest kept)
//! and `cusparseSDDMM`. Loaded at run time (libcusparse.so.12) like the
//! driver. Times are device times from CUDA events, median of `reps` runs
//! after one warm-up run, each queued whole before the GPU starts it, as
//! the kernels' are ([`cuda::Gate`]).

use crate::{
    cuda::{self, driver, CudaError, DeviceBuffer},
    Csr,
};
use cudarc::{
    cusparse::sys as sp,
    driver::{result, sys},
};
use std::ffi::c_void;

fn check(status: sp::cusparseStatus_t, what: &str) -> Result<(), CudaError> {
    if status == sp::cusparseStatus_t::CUSPARSE_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(CudaError::Driver(format!("cuSPARSE {what}: {status:?}")))
    }
}

/// A cuSPARSE handle and the descriptors of one problem, destroyed on drop.
struct Session {
    handle: sp::cusparseHandle_t,
    sparse: sp::cusparseSpMatDescr_t,
    dense: Vec<sp::cusparseDnMatDescr_t>,
}

impl Drop for Session {
    fn drop(&mut self) {
        unsafe {
            for &descriptor in &self.dense {
                sp::cusparseDestroyDnMat(descriptor as _);
            }
            if !self.sparse.is_null() {
                sp::cusparseDestroySpMat(self.sparse as _);
            }
            if !self.handle.is_null() {
                sp::cusparseDestroy(self.handle);
            }
        }
    }
}

/// A driver, a device and cuSPARSE, checked before anything touches the
/// GPU (and the context made current on this thread).
fn check_available() -> Result<(), CudaError> {
    if !cuda::available() {
        return Err(CudaError::NoDriver);
    }
    if !unsafe { sp::is_culib_present() } {
        return Err(CudaError::Driver(
            "cuSPARSE (libcusparse.so.12) not found; add the CUDA toolkit's lib folder to LD_LIBRARY_PATH".into(),
        ));
    }
    Ok(())
}

fn session(
    a: &Csr,
    indptr: &DeviceBuffer,
    indices: &DeviceBuffer,
    values: &DeviceBuffer,
) -> Result<Session, CudaError> {
    let mut session = Session { handle: std::ptr::null_mut(), sparse: std::ptr::null_mut(), dense: Vec::new() };
    unsafe {
        check(sp::cusparseCreate(&mut session.handle), "create")?;
        check(
            sp::cusparseCreateCsr(
                &mut session.sparse,
                a.rows() as i64,
                a.cols() as i64,
                a.nnz() as i64,
                indptr.pointer(),
                indices.pointer(),
                values.pointer(),
                sp::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                sp::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                sp::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO,
                sp::cudaDataType::CUDA_R_32F,
            ),
            "csr descriptor",
        )?;
    }
    Ok(session)
}

fn dense(
    session: &mut Session,
    rows: usize,
    cols: usize,
    data: &DeviceBuffer,
    order: sp::cusparseOrder_t,
) -> Result<sp::cusparseDnMatDescr_t, CudaError> {
    let leading = if order == sp::cusparseOrder_t::CUSPARSE_ORDER_ROW { cols } else { rows };
    let mut descriptor = std::ptr::null_mut();
    unsafe {
        check(
            sp::cusparseCreateDnMat(
                &mut descriptor,
                rows as i64,
                cols as i64,
                leading.max(1) as i64,
                data.pointer(),
                sp::cudaDataType::CUDA_R_32F,
                order,
            ),
            "dense descriptor",
        )?;
    }
    session.dense.push(descriptor);
    Ok(descriptor)
}

/// Median device time of `reps` runs of `call` after one warm-up run.
fn time(reps: usize, mut call: impl FnMut() -> Result<(), CudaError>) -> Result<f32, CudaError> {
    call()?;
    result::ctx::synchronize().map_err(driver)?;
    let start = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).map_err(driver)?;
    let end = match result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT) {
        Ok(end) => end,
        Err(error) => {
            let _ = unsafe { result::event::destroy(start) };
            return Err(driver(error));
        }
    };
    let mut samples = Vec::with_capacity(reps.max(1));
    let timed = (|| {
        for _ in 0..reps.max(1) {
            // Timed as the kernels are: the GPU starts once the call is queued.
            let gate = cuda::Gate::close(std::ptr::null_mut());
            unsafe { result::event::record(start, std::ptr::null_mut()) }.map_err(driver)?;
            call()?;
            unsafe { result::event::record(end, std::ptr::null_mut()) }.map_err(driver)?;
            gate.open();
            unsafe { result::event::synchronize(end) }.map_err(driver)?;
            samples.push(unsafe { result::event::elapsed(start, end) }.map_err(driver)?);
        }
        Ok(())
    })();
    unsafe {
        let _ = result::event::destroy(start);
        let _ = result::event::destroy(end);
    }
    timed?;
    samples.sort_by(|x, y| x.total_cmp(y));
    Ok(samples[samples.len() / 2])
}

/// `C = A B` with `cusparseSpMM`; `b` is `cols x feat` row-major. Returns
/// C (`rows x feat`), the best median time in ms and the algorithm's name.
pub fn spmm(a: &Csr, b: &[f32], feat: usize, reps: usize) -> Result<(Vec<f32>, f32, String), CudaError> {
    check_available()?;
    let (indptr, indices, values) =
        (DeviceBuffer::upload(a.indptr())?, DeviceBuffer::upload(a.indices())?, DeviceBuffer::upload(a.values())?);
    let mut session = session(a, &indptr, &indices, &values)?;
    let b_device = DeviceBuffer::upload(b)?;
    let c_device = DeviceBuffer::zeroed(a.rows() * feat * 4)?;
    let b_matrix = dense(&mut session, a.cols(), feat, &b_device, sp::cusparseOrder_t::CUSPARSE_ORDER_ROW)?;
    let c_matrix = dense(&mut session, a.rows(), feat, &c_device, sp::cusparseOrder_t::CUSPARSE_ORDER_ROW)?;
    let (alpha, beta) = (1.0f32, 0.0f32);
    let non = sp::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
    let algorithms = [
        ("default", sp::cusparseSpMMAlg_t::CUSPARSE_SPMM_ALG_DEFAULT),
        ("csr_alg1", sp::cusparseSpMMAlg_t::CUSPARSE_SPMM_CSR_ALG1),
        ("csr_alg2", sp::cusparseSpMMAlg_t::CUSPARSE_SPMM_CSR_ALG2),
        ("csr_alg3", sp::cusparseSpMMAlg_t::CUSPARSE_SPMM_CSR_ALG3),
    ];
    let mut best: Option<(f32, String)> = None;
    for (name, algorithm) in algorithms {
        let mut size = 0usize;
        let supported = unsafe {
            sp::cusparseSpMM_bufferSize(
                session.handle,
                non,
                non,
                &alpha as *const f32 as *const c_void,
                session.sparse as _,
                b_matrix as _,
                &beta as *const f32 as *const c_void,
                c_matrix,
                sp::cudaDataType::CUDA_R_32F,
                algorithm,
                &mut size,
            )
        };
        // Not every algorithm takes every layout; skip those that refuse.
        if supported != sp::cusparseStatus_t::CUSPARSE_STATUS_SUCCESS {
            continue;
        }
        let buffer = DeviceBuffer::zeroed(size)?;
        let run = || {
            check(
                unsafe {
                    sp::cusparseSpMM(
                        session.handle,
                        non,
                        non,
                        &alpha as *const f32 as *const c_void,
                        session.sparse as _,
                        b_matrix as _,
                        &beta as *const f32 as *const c_void,
                        c_matrix,
                        sp::cudaDataType::CUDA_R_32F,
                        algorithm,
                        buffer.pointer(),
                    )
                },
                "SpMM",
            )
        };
        let Ok(ms) = time(reps, run) else { continue };
        if best.as_ref().is_none_or(|(fastest, _)| ms < *fastest) {
            best = Some((ms, name.to_string()));
        }
    }
    let (ms, name) = best.ok_or_else(|| CudaError::Driver("no cuSPARSE SpMM algorithm accepted the problem".into()))?;
    let mut c = vec![0.0f32; a.rows() * feat];
    c_device.download(&mut c)?;
    Ok((c, ms, name))
}

/// Sampled `X Y^T` at A's pattern with `cusparseSDDMM` (A's values are not
/// multiplied in); `x` is `rows x feat`, `y` is `cols x feat`, row-major.
/// Returns the sampled values in CSR order and the median time in ms.
pub fn sddmm(a: &Csr, x: &[f32], y: &[f32], feat: usize, reps: usize) -> Result<(Vec<f32>, f32), CudaError> {
    check_available()?;
    let (indptr, indices) = (DeviceBuffer::upload(a.indptr())?, DeviceBuffer::upload(a.indices())?);
    let values = DeviceBuffer::zeroed(a.nnz() * 4)?;
    let mut session = session(a, &indptr, &indices, &values)?;
    let (x_device, y_device) = (DeviceBuffer::upload(x)?, DeviceBuffer::upload(y)?);
    let x_matrix = dense(&mut session, a.rows(), feat, &x_device, sp::cusparseOrder_t::CUSPARSE_ORDER_ROW)?;
    // Y stored cols x feat row-major is the feat x cols matrix column-major.
    let y_matrix = dense(&mut session, feat, a.cols(), &y_device, sp::cusparseOrder_t::CUSPARSE_ORDER_COL)?;
    let (alpha, beta) = (1.0f32, 0.0f32);
    let non = sp::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
    let algorithm = sp::cusparseSDDMMAlg_t::CUSPARSE_SDDMM_ALG_DEFAULT;
    let mut size = 0usize;
    unsafe {
        check(
            sp::cusparseSDDMM_bufferSize(
                session.handle,
                non,
                non,
                &alpha as *const f32 as *const c_void,
                x_matrix as _,
                y_matrix as _,
                &beta as *const f32 as *const c_void,
                session.sparse,
                sp::cudaDataType::CUDA_R_32F,
                algorithm,
                &mut size,
            ),
            "SDDMM buffer size",
        )?;
    }
    let buffer = DeviceBuffer::zeroed(size)?;
    let ms = time(reps, || {
        check(
            unsafe {
                sp::cusparseSDDMM(
                    session.handle,
                    non,
                    non,
                    &alpha as *const f32 as *const c_void,
                    x_matrix as _,
                    y_matrix as _,
                    &beta as *const f32 as *const c_void,
                    session.sparse,
                    sp::cudaDataType::CUDA_R_32F,
                    algorithm,
                    buffer.pointer(),
                )
            },
            "SDDMM",
        )
    })?;
    let mut out = vec![0.0f32; a.nnz()];
    values.download(&mut out)?;
    Ok((out, ms))
}
