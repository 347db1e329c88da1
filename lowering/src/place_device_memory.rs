//! `place-device-memory`: the host side of a GPU program keeps no memory of
//! its own. Once loops are launches (`lower-loop-bindings`), what is left
//! outside the `gpu.launch`es runs on the host, where the function's
//! memrefs are addresses in GPU memory. A buffer the host allocates for
//! the kernels (a global `sparse_iter.alloc_buffer`, `memref.alloc`)
//! becomes `gpu.alloc` and its `memref.dealloc` `gpu.dealloc`, each waited
//! for. An op that would read or write memory on the host (a store the
//! schedule left outside every bound loop, a loop bound read from the
//! structure arrays) is an error naming it: the host cannot dereference
//! GPU addresses. So is a `memref.alloca` on the host (a buffer in scope
//! "local" outside the bound loops) that a kernel uses: host stack memory.

use crate::{
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{enclosing, op_name, users, ADDRESS_ONLY, VIEWS},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::ods::gpu,
    ir::{
        attribute::DenseI32ArrayAttribute,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::MemRefType,
        Type, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "PlaceDeviceMemory",
    argument: "place-device-memory",
    description:
        "Allocate the host's buffers in GPU memory (gpu.alloc) and refuse host code that reads or writes memory",
    options: &[],
    dependent_dialects: "gpu",
    run,
};

/// `check-host-memory`: place-device-memory's refusals alone, for the
/// emulated GPU (`sptir-stage2-to-emulation`), whose host could read any
/// memory: what the GPU would refuse is refused there too.
pub const CHECK_PASS: PassDef = PassDef {
    name: "CheckHostMemory",
    argument: "check-host-memory",
    description: "Refuse host code (outside gpu.launch) that reads or writes memory or gives kernels a stack buffer, as place-device-memory does",
    options: &[],
    dependent_dialects: "",
    run: check_only,
};

fn check_only(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    host_memory(root).map(|_| ())
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let (allocs, deallocs) = host_memory(root)?;
    for alloc in allocs {
        allocate(context, alloc)?;
    }
    for dealloc in deallocs {
        free(context, dealloc)?;
    }
    Ok(())
}

/// The host's allocations and deallocations under `root`, after refusing
/// host code that touches memory or a host stack buffer a kernel uses.
#[allow(clippy::type_complexity)]
fn host_memory<'c>(
    root: OperationRef<'c, '_>,
) -> Result<(Vec<OperationRef<'c, 'c>>, Vec<OperationRef<'c, 'c>>), PassFailed> {
    let mut allocs = Vec::new();
    let mut deallocs = Vec::new();
    let mut touching = None;
    let mut stack = None;
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        // Kernels (inline or outlined) run on the device.
        if matches!(name.as_str(), "gpu.launch" | "gpu.module" | "gpu.func") {
            return WalkResult::Skip;
        }
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        match name.as_str() {
            "memref.alloc" => allocs.push(op),
            "memref.alloca" if op.result(0).is_ok_and(|r| reaches_kernel(r.into())) => {
                stack = Some(op);
                return WalkResult::Interrupt;
            }
            "memref.dealloc" => deallocs.push(op),
            _ if !ADDRESS_ONLY.contains(&name.as_str())
                && op.operands().any(|v| MemRefType::try_from(v.r#type()).is_ok()) =>
            {
                touching = Some(op);
                return WalkResult::Interrupt;
            }
            _ => {}
        }
        WalkResult::Advance
    });
    if let Some(op) = stack {
        return Err(emit_error(
            op.location(),
            "place-device-memory: this memref.alloca (a buffer in scope \"local\") is on the host's stack, outside the loops bound to the GPU, but kernels use it, and they cannot reach host memory; allocate it inside the bound loops (each thread its own) or give it scope \"global\"",
        ));
    }
    if let Some(op) = touching {
        return Err(emit_error(
            op.location(),
            format!(
                "place-device-memory: '{}' would read or write GPU memory on the host, which only launches kernels; {}",
                op_name(&op),
                remedy(op)
            ),
        ));
    }
    Ok((allocs, deallocs))
}

/// What to do about host code `op` that touches memory: a read whose
/// value the host itself needs cannot stay, one that only kernels use could
/// not move into them (`sink-host-reads`), and anything else belongs in a
/// bound loop.
fn remedy(op: OperationRef<'_, '_>) -> String {
    let mut op = unsafe { OperationRef::from_raw(op.to_raw()) };
    let mut found: Vec<OperationRef> = op.results().flat_map(|r| users(r.into())).collect();
    // A value yielded out of an `scf.if` (a range check around a load) is
    // used where the `if`'s results are.
    while !found.is_empty() && found.iter().all(|user| op_name(user) == "scf.yield") {
        let Some(parent) = found[0].parent_operation().filter(|p| op_name(p) == "scf.if") else { break };
        op = unsafe { OperationRef::from_raw(parent.to_raw()) };
        found = op.results().flat_map(|r| users(r.into())).collect();
    }
    // Host arithmetic on the value (a cast, a product) passes it on: the
    // use that counts is where its result goes.
    let mut consumers = Vec::new();
    while let Some(user) = found.pop() {
        let host = enclosing(user, &["gpu.launch"]).is_none();
        if host && user.result_count() > 0 && crate::ir_query::speculatable(&user) {
            found.extend(user.results().flat_map(|r| users(r.into())));
        } else if consumers.len() < 64 {
            consumers.push(user);
        }
    }
    let mut found = consumers;
    found.reverse();
    if let Some(host) = found.iter().find(|&&user| enclosing(user, &["gpu.launch"]).is_none()) {
        return format!(
            "the host uses the value it reads ('{}'), and a value the host needs (a launch's size, a loop bound, a \
             result) cannot come from GPU memory; compute it in a kernel into a buffer, or pass it as an argument",
            op_name(host)
        );
    }
    if !found.is_empty() {
        return "only kernels use the value it reads, but it was not moved into them: sink-host-reads moves such a \
                read only where nothing writes the memory it reads before the last of them reads it (and only if \
                it runs before this pass); read the element inside the iteration that uses it"
            .to_string();
    }
    "bind the loops around it to the GPU (blockIdx or threadIdx) so that it runs in a kernel \
     (sparse-pos-auto-bind runs code outside every loop as one thread)"
        .to_string()
}

/// Whether a kernel (an op inside a `gpu.launch`) uses `memory`, or a
/// view of it (a cast, a subview) made on the host.
fn reaches_kernel(memory: Value<'_, '_>) -> bool {
    users(memory).into_iter().any(|user| {
        let view = VIEWS.contains(&op_name(&user).as_str()) && user.operand(0).is_ok_and(|source| source == memory);
        enclosing(user, &["gpu.launch"]).is_some()
            || (view && user.result(0).is_ok_and(|result| reaches_kernel(result.into())))
    })
}

fn token_type(context: &Context) -> Type<'_> {
    Type::parse(context, "!gpu.async.token").expect("the gpu dialect is loaded")
}

/// `gpu.wait async`: a token for the ops that follow to depend on (the
/// GPU-to-LLVM lowering wants allocations and frees to be asynchronous).
fn start<'c>(context: &'c Context, builder: &Builder<'c>) -> Value<'c, 'c> {
    builder.value(
        gpu::WaitOperation::builder(context, builder.location)
            .async_token(token_type(context))
            .async_dependencies(&[])
            .build(),
    )
}

/// `gpu.wait [token]`: the host waits until the op behind `token` is done.
fn wait<'c>(context: &'c Context, builder: &Builder<'c>, token: Value<'c, 'c>) {
    builder.insert(gpu::WaitOperation::builder(context, builder.location).async_dependencies(&[token]).build());
}

fn allocate<'c>(context: &'c Context, alloc: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = alloc.location();
    let builder = Builder::before(context, alloc)
        .ok_or_else(|| emit_error(location, "place-device-memory: op is not in a block"))?
        .at(location);
    let memref = alloc.result(0).map_err(|_| emit_error(location, "place-device-memory: malformed memref.alloc"))?;
    let sizes: Vec<Value<'c, 'c>> = alloc.operands().collect();
    let symbols = alloc
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .and_then(|a| a.element(1).ok())
        .unwrap_or(0);
    if symbols != 0 {
        return Err(emit_error(location, "place-device-memory: an allocation with symbol operands is not supported"));
    }
    let token = start(context, &builder);
    let device = builder.insert(
        gpu::AllocOperation::builder(context, location)
            .memref(memref.r#type())
            .async_token(token_type(context))
            .async_dependencies(&[token])
            .dynamic_sizes(&sizes)
            .symbol_operands(&[])
            .build(),
    );
    unsafe { OperationRefMut::from_raw(device.to_raw()) }.set_inherent_attribute(
        "operandSegmentSizes",
        DenseI32ArrayAttribute::new(context, &[1, sizes.len() as i32, 0]).into(),
    );
    let result =
        |n| device.result(n).map(|r| r.into()).map_err(|_| emit_error(location, "place-device-memory: internal"));
    let (device_memref, done): (Value, Value) = (result(0)?, result(1)?);
    wait(context, &builder, done);
    replace_uses(memref.into(), device_memref);
    erase(alloc);
    Ok(())
}

fn free<'c>(context: &'c Context, dealloc: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = dealloc.location();
    let builder = Builder::before(context, dealloc)
        .ok_or_else(|| emit_error(location, "place-device-memory: op is not in a block"))?
        .at(location);
    let memref =
        dealloc.operand(0).map_err(|_| emit_error(location, "place-device-memory: malformed memref.dealloc"))?;
    let token = start(context, &builder);
    let done = builder.value(
        gpu::DeallocOperation::builder(context, location)
            .async_token(token_type(context))
            .async_dependencies(&[token])
            .memref(memref)
            .build(),
    );
    wait(context, &builder, done);
    erase(dealloc);
    Ok(())
}
