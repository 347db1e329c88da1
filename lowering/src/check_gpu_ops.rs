//! `check-gpu-ops`: the start of a lowering to GPU kernels. Some ops that
//! lower fine on the CPU have no meaning on the GPU, and the conversions
//! did not say so: `vector.print` became a call to the host runtime's
//! `printF32`, which the kernel module does not have, and the module
//! failed to verify halfway through `convert-gpu-to-nvvm`; a call to a
//! function declared without a body reached the PTX as an unresolved
//! symbol, to fail when the driver loads the module. This pass names
//! such an op in code that runs on the GPU (a `gpu.launch` body and the
//! functions it calls) before outlining.
//!
//! It also refuses a thread's own buffer (`memref.alloca`, a buffer in
//! scope "local") that CUDA cannot give it: one of a run-time size
//! becomes PTX's dynamic `alloca`, on a stack whose size the driver fixes
//! before the launch without knowing it (1 KiB a thread unless raised),
//! so a large one overruns it; over 512 KiB on one thread's stack (a
//! buffer, or all those of a launch and the functions it calls, counted
//! as if every branch ran) is more than its local memory can hold.

use crate::{
    ir_query::{byte_size, op_name, static_shape},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    attribute::{FlatSymbolRefAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    r#type::{MemRefType, ShapedTypeLike},
    RegionLike, ValueLike,
};
use std::collections::{HashMap, HashSet};

pub const PASS: PassDef = PassDef {
    name: "CheckGpuOps",
    argument: "check-gpu-ops",
    description: "Refuse ops in GPU code that have no GPU lowering (vector.print, calls to functions without a body, thread buffers of run-time size)",
    options: &[],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let launches = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| op_name(&op) == "gpu.launch");
    let mut checked = HashSet::new();
    let mut pending = launches.clone();
    // Each launch's and function's own thread buffers (bytes) and callees.
    let mut frames: HashMap<usize, (OperationRef, i64, Vec<usize>)> = HashMap::new();
    while let Some(code) = pending.pop() {
        let mut refused = None;
        // The bytes of the thread buffers seen so far in this code.
        let mut stack = 0i64;
        let mut callees = Vec::new();
        code.walk(WalkOrder::PreOrder, |op| {
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
            let name = op_name(&op);
            if name == "vector.print" {
                refused =
                    Some((op, "vector.print has no GPU lowering; print from a kernel with gpu.printf".to_string()));
                return WalkResult::Interrupt;
            }
            if name == "memref.alloca" {
                match thread_buffer_bytes(op) {
                    Err(problem) => {
                        refused = Some((op, problem));
                        return WalkResult::Interrupt;
                    }
                    Ok(bytes) => stack = stack.saturating_add(bytes),
                }
                if stack > MAX_THREAD_BYTES {
                    refused = Some((op, format!("the buffers of each thread (memref.alloca, scope \"local\") here take {stack} bytes with this one, but a GPU thread's local memory holds at most {MAX_THREAD_BYTES} bytes; use scope \"global\" or smaller buffers")));
                    return WalkResult::Interrupt;
                }
            }
            if name == "func.call" {
                let callee = op.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok());
                let Some(callee) = callee.map(|c| c.value().to_string()) else { return WalkResult::Advance };
                match crate::ir_query::callee(op) {
                    Some(function) if function.region(0).is_ok_and(|r| r.first_block().is_some()) => {
                        callees.push(function.to_raw().ptr as usize);
                        if checked.insert(function.to_raw().ptr as usize) {
                            pending.push(function);
                        }
                    }
                    _ => {
                        refused = Some((
                            op,
                            format!(
                                "GPU code calls @{callee}, which has no body here: a kernel can call only functions \
                                 defined in the module"
                            ),
                        ));
                        return WalkResult::Interrupt;
                    }
                }
            }
            WalkResult::Advance
        });
        if let Some((op, problem)) = refused {
            return Err(emit_error(op.location(), format!("check-gpu-ops: {problem}")));
        }
        frames.insert(code.to_raw().ptr as usize, (code, stack, callees));
    }
    // A thread's stack holds its launch's buffers and those of every
    // function the launch calls, directly or not (counted once each).
    let reachable = |from: &[usize]| {
        let (mut seen, mut next) = (HashSet::new(), from.to_vec());
        while let Some(code) = next.pop() {
            if let Some((_, _, callees)) = frames.get(&code).filter(|_| seen.insert(code)) {
                next.extend(callees.iter().copied());
            }
        }
        seen
    };
    // Recursion stacks a function's buffers once a call, unbounded (no
    // launch is called: only functions can be their own callees).
    if let Some((function, _, _)) = frames
        .iter()
        .find(|(code, (_, bytes, callees))| *bytes > 0 && reachable(callees).contains(*code))
        .map(|(_, f)| f)
    {
        return Err(emit_error(
            function.location(),
            "check-gpu-ops: this function has buffers of each thread (memref.alloca, scope \"local\") and calls itself, directly or not, in GPU code: every call would add them to the thread's stack, without a bound",
        ));
    }
    for launch in launches {
        let total = reachable(&[launch.to_raw().ptr as usize])
            .iter()
            .filter_map(|code| frames.get(code))
            .fold(0i64, |total, (_, bytes, _)| total.saturating_add(*bytes));
        if total > MAX_THREAD_BYTES {
            return Err(emit_error(
                launch.location(),
                format!("check-gpu-ops: the buffers of each thread (memref.alloca, scope \"local\") of this launch and the functions it calls take {total} bytes, but a GPU thread's local memory holds at most {MAX_THREAD_BYTES} bytes; use scope \"global\" or smaller buffers"),
            ));
        }
    }
    Ok(())
}

/// CUDA's limit on a thread's local memory (its stack frame).
const MAX_THREAD_BYTES: i64 = 512 * 1024;

/// The bytes of the buffer `alloca` makes on each thread's stack, or why it
/// cannot be there. A buffer in GPU workgroup memory is not on the stack
/// (0 bytes); one of an element this pass cannot size counts as none.
fn thread_buffer_bytes(alloca: OperationRef<'_, '_>) -> Result<i64, String> {
    let Some(r#type) = alloca.result(0).ok().and_then(|r| MemRefType::try_from(r.r#type()).ok()) else { return Ok(0) };
    let workgroup = r#type.memory_space().is_some_and(|space| {
        space.to_string().contains("workgroup")
            || IntegerAttribute::try_from(space).is_ok_and(|number| number.value() == 3)
    });
    if workgroup {
        return Ok(0);
    }
    let Some(shape) = static_shape(r#type) else {
        return Err(
            "a buffer of each thread (memref.alloca, scope \"local\") has a size known only at run time; CUDA \
             sizes a thread's stack before the launch, so give it a size known when compiling (a constant, or \
             specialize-arguments on the index arguments its size comes from)"
                .to_string(),
        );
    };
    let Some(element) = byte_size(r#type.element()) else { return Ok(0) };
    let bytes = shape.iter().try_fold(element, |bytes, &extent| bytes.checked_mul(extent)).unwrap_or(i64::MAX);
    match bytes > MAX_THREAD_BYTES {
        true => Err(format!(
            "a buffer of each thread (memref.alloca, scope \"local\") takes {bytes} bytes, but a GPU thread's local \
             memory holds at most {MAX_THREAD_BYTES} bytes; use scope \"global\" or a smaller buffer"
        )),
        false => Ok(bytes),
    }
}
