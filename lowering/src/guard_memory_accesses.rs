//! `guard-memory-accesses`: every memory access of stage III checks its
//! indices at run time. Kernels index memory with values read from memory
//! (a row's bounds, a column), so a kernel whose buffers do not hold what
//! its axes declare, or are smaller than its extents say, reads and writes
//! outside them: a segfault on the CPU, a fault on the GPU. Guarded, an
//! access outside its memref does nothing instead (a load yields zero) and
//! is counted in a new last parameter of its function, `memref<?xi32>`:
//! element 0 counts the accesses that failed, element 1 is the largest
//! number of a check that failed. The module's `sptir.memory_checks`
//! describes check `n` (from 1) in element `n - 1`: where the access is in
//! the source and what memory it touches.
//!
//! An access through views (`subview`, `reinterpret_cast`, `memref.view`,
//! ...) also checks that the elements it touches lie in the memory the
//! views start from (a parameter, an allocation): a view's sizes and
//! offset are whatever its maker claimed.
//!
//! A run of the guarded kernel proves, for its inputs, that the unguarded
//! kernel stays in bounds: both make the same accesses. `sptir-bench` runs
//! a guarded copy of a `--kernel` first for that reason.
//!
//! The pass runs on stage III (after `sptir-stage2-to-launches` on the GPU
//! path, before the kernels are outlined), where accesses are
//! `memref.load`, `memref.store`, `memref.atomic_rmw`,
//! `memref.generic_atomic_rmw`, `vector.load` and `vector.store`. Any other
//! op that reads or writes a memref's elements is refused, as are ops on
//! LLVM pointers (no memref bounds them) and calls (a callee would have
//! nowhere to count).

use crate::{
    accumulation_chain::{scalar_type, vector_lanes, vector_shape},
    axis::{detach, key},
    ir_builder::{append_params, if_else, replace_uses, zero_attribute, Builder},
    ir_query::{
        byte_size, op_name, position, symbol_name, view_root, views, ADDRESS_ONLY, ATOMIC_ADDI, ATOMIC_MAXS,
        MAX_ALLOCATION_BYTES,
    },
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{arith, memref},
    ir::{
        attribute::{ArrayAttribute, DenseElementsAttribute, IntegerAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::{DimSize, IntegerType, MemRefType, ShapedTypeLike},
        Attribute, BlockRef, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

pub const PASS: PassDef = PassDef {
    name: "GuardMemoryAccesses",
    argument: "guard-memory-accesses",
    description: "Check every memref access's indices at run time: one out of bounds does nothing and is counted in a new last parameter",
    options: &[],
    dependent_dialects: "arith,complex,memref,scf",
    run,
};

/// The module attribute describing the checks, in order.
pub const CHECKS_ATTRIBUTE: &str = "sptir.memory_checks";

/// One access: which operand is the memref (the indices follow it) and
/// what it does, for the check's description.
fn access(name: &str) -> Option<(usize, &'static str)> {
    Some(match name {
        "memref.load" => (0, "load from"),
        "memref.generic_atomic_rmw" => (0, "atomic update of"),
        "memref.store" => (1, "store to"),
        "memref.atomic_rmw" => (1, "atomic update of"),
        "vector.load" => (0, "vector load from"),
        "vector.store" => (1, "vector store to"),
        _ => return None,
    })
}

/// Control flow that hands memrefs on: their accesses are checked where
/// they happen.
const PASSED_ON: &[&str] =
    &["scf.yield", "scf.for", "scf.if", "scf.while", "scf.condition", "cf.br", "cf.cond_br", "memref.alloca"];

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    if root.attribute(CHECKS_ATTRIBUTE).is_ok() {
        return Err(emit_error(root.location(), "guard-memory-accesses: the module's accesses are already guarded"));
    }
    let mut functions = Vec::new();
    let mut refused = None;
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        let op: OperationRef<'_, '_> = unsafe { OperationRef::from_raw(op.to_raw()) };
        match name.as_str() {
            "func.func" if op.region(0).ok().and_then(|r| r.first_block()).is_some() => functions.push(op),
            "func.call" | "gpu.launch_func" | "gpu.module" => {
                refused = Some(op);
                return WalkResult::Interrupt;
            }
            _ => {}
        }
        WalkResult::Advance
    });
    if let Some(op) = refused {
        let name = op_name(&op);
        // After `inline`, a call left is one it cannot inline.
        let why = match name.as_str() {
            "func.call" => "; a call the inliner left calls itself, directly or not, or a function without a body",
            _ => "",
        };
        return Err(emit_error(
            op.location(),
            format!(
                "guard-memory-accesses: '{name}' is not supported: run the pass before kernels are outlined and once calls are inlined (a callee has nowhere to count its failed checks){why}"
            ),
        ));
    }
    let mut descriptions = Vec::new();
    for function in functions {
        guard_function(context, function, &mut descriptions)?;
    }
    let descriptions: Vec<Attribute> =
        descriptions.iter().map(|text| StringAttribute::new(context, text).into()).collect();
    let mut module = unsafe { OperationRefMut::from_raw(root.to_raw()) };
    module.set_discardable_attribute(CHECKS_ATTRIBUTE, ArrayAttribute::new(context, &descriptions).into());
    Ok(())
}

fn guard_function<'c>(
    context: &'c Context,
    function: OperationRef<'c, 'c>,
    descriptions: &mut Vec<String>,
) -> Result<(), PassFailed> {
    let location = function.location();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let faults_type: Type = MemRefType::new(i32_type, &[i64::MIN], None, None).into();
    let entry = function.region(0).ok().and_then(|r| r.first_block());
    let parameters = entry.map(|b| b.argument_count()).unwrap_or(0);
    let faults = append_params(context, function, &[faults_type])
        .ok_or_else(|| emit_error(location, "guard-memory-accesses: the function has no body or type"))?[0];
    let name = symbol_name(&function).unwrap_or_default();
    let entry = entry.map(|b| unsafe { BlockRef::from_raw(b.to_raw()) });

    // On the CPU, allocations are checked as the CPU makes them: large
    // stack buffers go to the heap first, as the LLVM lowering would put
    // them. On the GPU path the host's allocations become the driver's,
    // which reports its own failures, and host code cannot count.
    let launches = !crate::ir_query::outermost(function, |op| op_name(op) == "gpu.launch").is_empty();
    if !launches {
        crate::bound_stack_allocations::bound(context, function)?;
    }
    let mut accesses = Vec::new();
    let mut allocations = Vec::new();
    let mut unknown = None;
    function.walk(WalkOrder::PreOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let name = op_name(&op);
        if access(&name).is_some() {
            accesses.push(op);
        } else if name == "memref.alloc" && !launches {
            allocations.push(op);
        } else if (!ADDRESS_ONLY.contains(&name.as_str())
            && !PASSED_ON.contains(&name.as_str())
            && op.operands().any(|v| v.r#type().is_mem_ref()))
            // A raw pointer reaches memory that no memref describes.
            || op.operands().map(|v| v.r#type()).chain(op.results().map(|r| r.r#type())).any(|t| t.is_llvm_pointer_type())
        {
            unknown = Some(op);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if let Some(op) = unknown {
        return Err(emit_error(
            op.location(),
            format!("guard-memory-accesses: cannot check the accesses of '{}'", op_name(&op)),
        ));
    }
    // A 0-D memref has one element and no index to get wrong.
    let mut checked = Vec::new();
    for op in accesses {
        let (memory, what) = access(&op_name(&op)).ok_or(PassFailed)?;
        let memref = detach(op.operand(memory).map_err(|_| emit_error(op.location(), "internal: no memref"))?);
        if !MemRefType::try_from(memref.r#type()).is_ok_and(|t| t.rank() == 0) {
            checked.push((op, memory, what, memref));
        }
    }
    // The allocations' checks come after the accesses', so that where one
    // fails (and with it every access to its memory) the largest number
    // that failed, which a report names, is the allocation's.
    let mut allowed = HashMap::new();
    let first_allocation = descriptions.len() + checked.len() + 1;
    let mut allocation_descriptions = Vec::new();
    for (number, allocation) in allocations.into_iter().enumerate() {
        let place = position(allocation.location()).map(|p| p.to_string()).unwrap_or_else(|| "<unknown>".into());
        let Some((memory, ok)) = check_allocation(context, allocation, faults, (first_allocation + number) as i64)?
        else {
            // Its number stays taken, so that the next ones keep theirs.
            allocation_descriptions.push(format!("{place}: an allocation in @{name} (not checked)"));
            continue;
        };
        allocation_descriptions.push(format!(
            "{place}: {ALLOCATION} {} in @{name} (its size is more than memory holds, or the allocation failed)",
            memory.r#type()
        ));
        allowed.insert(key(memory), ok);
    }
    for (op, memory, what, memref) in checked {
        let place = position(op.location()).map(|p| p.to_string()).unwrap_or_else(|| "<unknown>".into());
        descriptions.push(format!("{place}: {what} {} in @{name}", memory_name(memref, entry, parameters)));
        let ok = allowed.get(&key(view_root(memref))).copied();
        guard(context, op, memory, faults, descriptions.len() as i64, ok)?;
    }
    descriptions.extend(allocation_descriptions);
    Ok(())
}

/// How a check of an allocation is described.
const ALLOCATION: &str = "allocation of";

/// Checks a heap allocation at run time: its size in bytes fits
/// `MAX_ALLOCATION_BYTES` without wrapping (otherwise it allocates nothing)
/// and it got memory. Where it did not, counts check `id` in `faults`.
/// Returns the memref and whether it may be accessed; `None` where the
/// allocation's size has no known byte count.
fn check_allocation<'c>(
    context: &'c Context,
    allocation: OperationRef<'c, 'c>,
    faults: Value<'c, 'c>,
    id: i64,
) -> Result<Option<(Value<'c, 'c>, Value<'c, 'c>)>, PassFailed> {
    use arith::CmpiPredicate::{Eq, Ne, Ule};
    let location = allocation.location();
    let internal = || emit_error(location, "guard-memory-accesses: internal error checking an allocation");
    let memory = detach(allocation.result(0).map_err(|_| internal())?.into());
    let r#type = MemRefType::try_from(memory.r#type()).map_err(|_| internal())?;
    let Some(element) = byte_size(r#type.element()) else { return Ok(None) };
    let mut fixed = element;
    let mut dynamic = 0;
    for dim in 0..r#type.rank() {
        match r#type.dim_size(dim) {
            Ok(DimSize::Static(size)) => {
                fixed = i64::try_from(size).ok().and_then(|size| fixed.checked_mul(size)).unwrap_or(i64::MAX)
            }
            _ => dynamic += 1,
        }
    }
    if fixed > MAX_ALLOCATION_BYTES {
        return Err(emit_error(
            location,
            format!("guard-memory-accesses: an allocation of {} takes more than 2^47 bytes", r#type),
        ));
    }
    // Sizes only (no layout symbols).
    if allocation.operand_count() != dynamic {
        return Ok(None);
    }
    let builder = Builder::before(context, allocation).ok_or_else(internal)?.at(location);
    let limit = builder.index(MAX_ALLOCATION_BYTES / fixed.max(1));
    let (mut elements, mut fits, mut none) = (builder.index(1), None, None);
    for index in 0..dynamic {
        let size = allocation.operand(index).map_err(|_| internal())?;
        // Unsigned: a negative size is as good as a huge one.
        let most = builder.value(arith::divui(
            limit,
            builder.value(arith::maxui(elements, builder.index(1), location)),
            location,
        ));
        let ok = builder.cmp(Ule, size, most);
        fits = Some(fits.map_or(ok, |all| builder.and(all, ok)));
        let zero = builder.cmp(Eq, size, builder.index(0));
        none = Some(none.map_or(zero, |any| builder.or(any, zero)));
        elements = builder.mul(elements, size);
    }
    // A size of zero anywhere makes an empty buffer, whatever the others.
    let fits = fits.zip(none).map(|(fits, none)| builder.or(fits, none));
    if let Some(fits) = fits {
        for index in 0..dynamic {
            let size = allocation.operand(index).map_err(|_| internal())?;
            let allowed = builder.select(fits, size, builder.index(0));
            unsafe { OperationRefMut::from_raw(allocation.to_raw()) }.set_operand(index, allowed);
        }
    }
    let after = match allocation.next_in_block() {
        Some(next) => Builder::before(context, unsafe { OperationRef::from_raw(next.to_raw()) }),
        None => None,
    }
    .ok_or_else(internal)?
    .at(location);
    let pointer = aligned_pointer(&after, memory).ok_or_else(internal)?;
    // malloc(0) may give a null pointer, and nothing fits in it anyway.
    let empty = after.cmp(Eq, elements, after.index(0));
    let mut ok = after.or(after.cmp(Ne, pointer, after.index(0)), empty);
    if let Some(fits) = fits {
        ok = after.and(fits, ok);
    }
    if_else(
        &after,
        ok,
        &[],
        |_| Vec::new(),
        |failed| {
            count_failure(context, failed, faults, id);
            Vec::new()
        },
    );
    Ok(Some((memory, ok)))
}

/// Counts a failure of check `id` in `faults`: one more failed check, and
/// the largest number that failed.
fn count_failure<'c>(context: &'c Context, builder: &Builder<'c>, faults: Value<'c, 'c>, id: i64) {
    let location = builder.location;
    let i32_type: Type = IntegerType::new(context, 32).into();
    let count = |kind: i64, at: i64, value: i64| {
        builder.insert(
            melior::dialect::ods::memref::AtomicRMWOperation::builder(context, location)
                .result(i32_type)
                .value(builder.value(arith::constant(context, IntegerAttribute::new(i32_type, value).into(), location)))
                .memref(faults)
                .indices(&[builder.index(at)])
                .kind(IntegerAttribute::new(IntegerType::new(context, 64).into(), kind).into())
                .build(),
        );
    };
    count(ATOMIC_ADDI, 0, 1);
    count(ATOMIC_MAXS, 1, id);
}

/// What `memref` is, for a message: a parameter, or where the memory it
/// views was made.
fn memory_name(memref: Value<'_, '_>, entry: Option<BlockRef<'_, '_>>, parameters: usize) -> String {
    let r#type = memref.r#type();
    let root = view_root(memref);
    if let Ok(argument) = crate::ir_query::block_argument(root) {
        if entry.is_some_and(|e| e == argument.owner()) && argument.argument_number() < parameters {
            return format!("parameter #{} ({type})", argument.argument_number(), type = r#type);
        }
        return format!("block argument #{} ({})", argument.argument_number(), r#type);
    }
    match crate::ir_query::op_result(root) {
        Ok(result) => {
            let owner = result.owner();
            let made = position(owner.location()).map(|p| format!(" at {p}")).unwrap_or_default();
            format!("the {type} of '{}'{made}", op_name(&owner), type = r#type)
        }
        Err(_) => format!("a {type}", type = r#type),
    }
}

/// Puts `op` under a check of its indices (and of `allowed`, where its
/// memory's allocation is checked); where they fail, counts the failure as
/// check `id` in `faults` and yields zeros for its results.
fn guard<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    memory: usize,
    faults: Value<'c, 'c>,
    id: i64,
    allowed: Option<Value<'c, 'c>>,
) -> Result<(), PassFailed> {
    let location = op.location();
    let internal = || emit_error(location, "guard-memory-accesses: internal error building a check");
    let builder = Builder::before(context, op).ok_or_else(internal)?.at(location);
    let memref = detach(op.operand(memory).map_err(|_| internal())?);
    let memref_type = MemRefType::try_from(memref.r#type()).map_err(|_| internal())?;
    let rank = memref_type.rank();
    let indices: Vec<Value<'c, 'c>> = op.operands().skip(memory + 1).take(rank).map(detach).collect();
    if indices.len() != rank || rank == 0 {
        return Err(internal());
    }
    // A vector access covers its vector's shape along the trailing dims,
    // unless the memref's elements are vectors themselves.
    let vector_shape = match vector_lanes(memref_type.element()) {
        Some(_) => Vec::new(),
        None => accessed_vector_shape(op, memory),
    };
    let extents: Vec<i64> =
        (0..rank).map(|dim| (dim + vector_shape.len()).checked_sub(rank).map_or(1, |at| vector_shape[at])).collect();
    let mut inside = None;
    for (dim, (&index, &extent)) in indices.iter().zip(&extents).enumerate() {
        let size = match memref_type.dim_size(dim) {
            Ok(DimSize::Static(size)) => builder.index(size as i64),
            _ => builder.value(memref::dim(memref, builder.index(dim as i64), location)),
        };
        let mut ok = builder.cmp(arith::CmpiPredicate::Ult, index, size);
        if extent > 1 {
            let end = builder.add(index, builder.index(extent));
            ok = builder.and(ok, builder.cmp(arith::CmpiPredicate::Ule, end, size));
        }
        inside = Some(inside.map_or(ok, |all| builder.and(all, ok)));
    }
    if let Some(within) = within_root(&builder, memref, &indices, &extents) {
        inside = inside.map(|all| builder.and(all, within));
    }
    // Memory whose allocation failed has no element to touch.
    if let Some(allowed) = allowed {
        inside = inside.map(|all| builder.and(all, allowed));
    }
    let inside = inside.ok_or_else(internal)?;
    let result_types: Vec<Type<'c>> = op.results().map(|r| r.r#type()).collect();
    if let Some(&other) = result_types.iter().find(|&&t| zero_attribute_of(context, t).is_none()) {
        return Err(emit_error(
            location,
            format!("guard-memory-accesses: no zero to stand for a '{}' of {other} out of bounds", op_name(&op)),
        ));
    }
    let results = if_else(
        &builder,
        inside,
        &result_types,
        |then| {
            let copy = then.insert_clone(op);
            copy.results().map(|r| detach(r.into())).collect()
        },
        |otherwise| {
            count_failure(context, otherwise, faults, id);
            result_types.iter().filter_map(|&t| zero(context, otherwise, t)).collect()
        },
    );
    if results.len() != result_types.len() {
        return Err(emit_error(
            location,
            format!("guard-memory-accesses: no zero for the result of '{}'", op_name(&op)),
        ));
    }
    for (index, value) in results.into_iter().enumerate() {
        replace_uses(detach(op.result(index).map_err(|_| internal())?.into()), value);
    }
    crate::ir_builder::erase(op);
    Ok(())
}

/// For an access through views: whether the elements it touches lie in
/// the memory of the memref the views start from. A view's sizes are its
/// maker's claim (`reinterpret_cast` and `subview` take any sizes and
/// offsets), the root's are the buffer's. Positions count elements from
/// the shared aligned pointer, or bytes from each one's aligned pointer
/// where a `memref.view` moved the pointer or changed the element type.
/// `None` for an access to the root itself, and where an element's size in
/// bytes is unknown (the per-dimension checks then stand alone).
fn within_root<'c>(
    builder: &Builder<'c>,
    memref: Value<'c, 'c>,
    indices: &[Value<'c, 'c>],
    extents: &[i64],
) -> Option<Value<'c, 'c>> {
    use arith::CmpiPredicate::{Sge, Sgt, Sle, Slt};
    let chain = views(memref);
    if chain.is_empty() {
        return None;
    }
    let root = view_root(memref);
    let element = |value: Value<'c, 'c>| MemRefType::try_from(value.r#type()).ok().map(|t| t.element());
    // Positions count elements where the chain keeps the aligned pointer
    // and the element type; across a memref.view, bytes from each side's
    // aligned pointer: (element sizes, aligned pointers).
    let bytes = match chain.iter().any(|view| op_name(view) == "memref.view") {
        false => None,
        true => {
            let sizes = (byte_size(element(memref)?)?, byte_size(element(root)?)?);
            Some((sizes, (aligned_pointer(builder, memref)?, aligned_pointer(builder, root)?)))
        }
    };
    let min = |a, b| builder.select(builder.cmp(Slt, a, b), a, b);
    let max = |a, b| builder.select(builder.cmp(Sgt, a, b), a, b);
    let (offset, _, strides) = strided_metadata(builder, memref)?;
    let (mut first, mut last) = (offset, offset);
    for ((&index, &extent), &stride) in indices.iter().zip(extents).zip(&strides) {
        let start = builder.mul(index, stride);
        if extent == 1 {
            first = builder.add(first, start);
            last = builder.add(last, start);
            continue;
        }
        let end = builder.mul(builder.add(index, builder.index(extent - 1)), stride);
        first = builder.add(first, min(start, end));
        last = builder.add(last, max(start, end));
    }
    let (root_offset, sizes, strides) = strided_metadata(builder, root)?;
    let (mut root_first, mut root_last) = (root_offset, root_offset);
    let mut inside = None;
    for (&size, &stride) in sizes.iter().zip(&strides) {
        let span = builder.mul(builder.sub(size, builder.index(1)), stride);
        root_first = builder.add(root_first, min(span, builder.index(0)));
        root_last = builder.add(root_last, max(span, builder.index(0)));
        let filled = builder.cmp(Sgt, size, builder.index(0));
        inside = Some(inside.map_or(filled, |all| builder.and(all, filled)));
    }
    // Elements first..=last, against the root's; in bytes from their
    // aligned pointers where a memref.view lies between them.
    let (first, end, root_first, root_end) = match bytes {
        None => (first, builder.add(last, builder.index(1)), root_first, builder.add(root_last, builder.index(1))),
        Some(((access_size, root_size), (access_base, root_base))) => {
            let at = |base, position, size: i64| builder.add(base, builder.mul(position, builder.index(size)));
            (
                at(access_base, first, access_size),
                builder.add(at(access_base, last, access_size), builder.index(access_size)),
                at(root_base, root_first, root_size),
                builder.add(at(root_base, root_last, root_size), builder.index(root_size)),
            )
        }
    };
    let ok = builder.and(builder.cmp(Sge, first, root_first), builder.cmp(Sle, end, root_end));
    Some(inside.map_or(ok, |all| builder.and(all, ok)))
}

/// `memref.extract_strided_metadata`: the offset, sizes and strides of a
/// memref's layout, in elements.
#[allow(clippy::type_complexity)]
fn strided_metadata<'c>(
    builder: &Builder<'c>,
    memref: Value<'c, 'c>,
) -> Option<(Value<'c, 'c>, Vec<Value<'c, 'c>>, Vec<Value<'c, 'c>>)> {
    let op = melior::ir::operation::OperationBuilder::new("memref.extract_strided_metadata", builder.location)
        .add_operands(&[memref])
        .enable_result_type_inference()
        .build()
        .ok()?;
    let op = builder.insert(op);
    let results: Vec<Value<'c, 'c>> = op.results().map(|r| detach(r.into())).collect();
    let rank = (results.len().checked_sub(2)?) / 2;
    Some((results[1], results[2..2 + rank].to_vec(), results[2 + rank..].to_vec()))
}

/// The address a memref's elements are counted from, as an index.
fn aligned_pointer<'c>(builder: &Builder<'c>, memref: Value<'c, 'c>) -> Option<Value<'c, 'c>> {
    let op = melior::ir::operation::OperationBuilder::new("memref.extract_aligned_pointer_as_index", builder.location)
        .add_operands(&[memref])
        .add_results(&[builder.index_type()])
        .build()
        .ok()?;
    Some(builder.value(op))
}

/// The shape of the vector a `vector.load` yields or a `vector.store`
/// writes; empty for scalar accesses.
fn accessed_vector_shape(op: OperationRef<'_, '_>, memory: usize) -> Vec<i64> {
    let vector = match op_name(&op).as_str() {
        "vector.load" => op.result(0).ok().map(|r| r.r#type()),
        "vector.store" if memory == 1 => op.operand(0).ok().map(|v| v.r#type()),
        _ => None,
    };
    vector.and_then(vector_shape).unwrap_or_default()
}

/// A zero of `r#type` (scalar, complex or vector), built by `builder`.
fn zero<'c>(context: &'c Context, builder: &Builder<'c>, r#type: Type<'c>) -> Option<Value<'c, 'c>> {
    let attribute = zero_attribute_of(context, r#type)?;
    let op = match unsafe { mlir_sys::mlirTypeIsAComplex(r#type.to_raw()) } {
        true => melior::ir::operation::OperationBuilder::new("complex.constant", builder.location)
            .add_attributes(&[(melior::ir::Identifier::new(context, "value"), attribute)])
            .add_results(&[r#type])
            .build()
            .ok()?,
        false => arith::constant(context, attribute, builder.location),
    };
    Some(builder.value(op))
}

/// The attribute of a zero of `r#type`: a scalar, a complex number's pair
/// of parts, a vector's splat; `None` for other types.
fn zero_attribute_of<'c>(context: &'c Context, r#type: Type<'c>) -> Option<Attribute<'c>> {
    let raw = r#type.to_raw();
    if unsafe { mlir_sys::mlirTypeIsAComplex(raw) } {
        let part = unsafe { Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw)) };
        let zero = zero_attribute(context, part)?;
        return Some(ArrayAttribute::new(context, &[zero, zero]).into());
    }
    match vector_lanes(r#type) {
        None => zero_attribute(context, r#type),
        Some(_) => {
            DenseElementsAttribute::new(r#type, &[zero_attribute(context, scalar_type(r#type))?]).ok().map(Into::into)
        }
    }
}

/// The checks of a module the pass ran on, in order (check `n` is element
/// `n - 1`); `None` if it did not run.
pub fn checks(module: OperationRef<'_, '_>) -> Option<Vec<String>> {
    let array = ArrayAttribute::try_from(module.attribute(CHECKS_ATTRIBUTE).ok()?).ok()?;
    Some(
        (0..array.len())
            .filter_map(|i| array.element(i).ok())
            .filter_map(|a| StringAttribute::try_from(a).ok().map(|s| s.value().to_string()))
            .collect(),
    )
}

/// What the counts a guarded run left (`[count, largest failed check]`)
/// say, if any check failed: how many failed and one of them.
pub fn failures(faults: [i32; 2], checks: &[String]) -> Option<String> {
    let [count, check] = faults;
    if check == 0 {
        return None;
    }
    let which = usize::try_from(check - 1)
        .ok()
        .and_then(|n| checks.get(n))
        .map_or_else(|| format!("check #{check}"), String::clone);
    // The count wraps past 2^31 failures; the largest check does not.
    let count = if count > 0 { count.to_string() } else { "over 2^31".to_string() };
    if which.contains(ALLOCATION) {
        return Some(format!("an allocation failed, and with it {count} checks: {which}"));
    }
    Some(format!("{count} accesses failed their bounds check; one of them: {which}"))
}
