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
    axis::detach,
    ir_builder::{append_params, if_else, replace_uses, zero_attribute, Builder},
    ir_query::{op_name, position, symbol_name, view_root, views, ADDRESS_ONLY, ATOMIC_ADDI, ATOMIC_MAXS},
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
        return Err(emit_error(
            op.location(),
            format!(
                "guard-memory-accesses: '{name}' is not supported: run the pass before kernels are outlined and once calls are inlined (a callee has nowhere to count its failed checks)"
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

    let mut accesses = Vec::new();
    let mut unknown = None;
    function.walk(WalkOrder::PreOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let name = op_name(&op);
        if access(&name).is_some() {
            accesses.push(op);
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
    for op in accesses {
        let (memory, what) = access(&op_name(&op)).ok_or(PassFailed)?;
        let memref = detach(op.operand(memory).map_err(|_| emit_error(op.location(), "internal: no memref"))?);
        // A 0-D memref has one element and no index to get wrong.
        if MemRefType::try_from(memref.r#type()).is_ok_and(|t| t.rank() == 0) {
            continue;
        }
        let place = position(op.location()).map(|p| p.to_string()).unwrap_or_else(|| "<unknown>".into());
        descriptions.push(format!("{place}: {what} {} in @{name}", memory_name(memref, entry, parameters)));
        guard(context, op, memory, faults, descriptions.len() as i64)?;
    }
    Ok(())
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

/// Puts `op` under a check of its indices; where they fail, counts the
/// failure as check `id` in `faults` and yields zeros for its results.
fn guard<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    memory: usize,
    faults: Value<'c, 'c>,
    id: i64,
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
            let i32_type: Type = IntegerType::new(context, 32).into();
            let count = |kind: i64, at: i64, value: i64| {
                otherwise.insert(
                    melior::dialect::ods::memref::AtomicRMWOperation::builder(context, location)
                        .result(i32_type)
                        .value(otherwise.value(arith::constant(
                            context,
                            IntegerAttribute::new(i32_type, value).into(),
                            location,
                        )))
                        .memref(faults)
                        .indices(&[otherwise.index(at)])
                        .kind(IntegerAttribute::new(IntegerType::new(context, 64).into(), kind).into())
                        .build(),
                );
            };
            count(ATOMIC_ADDI, 0, 1);
            count(ATOMIC_MAXS, 1, id);
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

/// How many bytes apart a memref's elements of `r#type` lie, as LLVM lays
/// them out: integers and floats round up to a power of two bytes, an
/// index is 64 bits, a complex number is two parts, a vector its lanes
/// rounded up to a power of two.
fn byte_size(r#type: Type<'_>) -> Option<i64> {
    let raw = r#type.to_raw();
    let bits = |bits: u32| Some(i64::from(bits.div_ceil(8).next_power_of_two()));
    unsafe {
        if r#type.is_index() {
            Some(8)
        } else if mlir_sys::mlirTypeIsAInteger(raw) {
            bits(mlir_sys::mlirIntegerTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            bits(mlir_sys::mlirFloatTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAComplex(raw) {
            byte_size(Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw))).map(|part| 2 * part)
        } else if mlir_sys::mlirTypeIsAVector(raw) {
            let lanes: i64 = vector_shape(r#type)?.iter().product();
            let lane = byte_size(scalar_type(r#type))?;
            i64::try_from(u64::try_from(lanes * lane).ok()?.max(1).next_power_of_two()).ok()
        } else {
            None
        }
    }
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
    Some(format!("{count} accesses failed their bounds check; one of them: {which}"))
}
