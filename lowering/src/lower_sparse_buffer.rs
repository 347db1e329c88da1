//! `lower-sparse-buffer`: stage II -> stage III (SparseTIR section 3.4).
//!
//! Sparse buffers become their 1-D value arrays, and every position access
//! becomes a `memref` access at the flattened offset (equation 6): walking
//! a buffer's axes outside in, a dense fixed axis scales the offset by its
//! length, a sparse fixed axis by its non-zeros per row, and a variable
//! axis replaces it with `indptr[offset]`, its row start; each adds its own
//! position. Position loops become `scf.for`, coordinate lookups and fused
//! parent lookups become binary searches, and the axis and buffer
//! definitions disappear, leaving `scf`, `memref` and `arith`.

use crate::{
    axis::{detach, Axis, AxisKind},
    buffer::BufferDef,
    ir_builder::{erase, if_else, lower_bound, move_until_terminator, replace_uses, Builder},
    ir_query::evaluate_index,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    sparse_pos_cache_read::SHARED,
};
use melior::{
    dialect::{arith::CmpiPredicate, memref, scf},
    ir::{
        attribute::{Attribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::MemRefType,
        Block, Location, Region, RegionLike, Value,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "LowerSparseBuffer",
    argument: "lower-sparse-buffer",
    description: "Lower stage II to stage III: flatten sparse buffer accesses to 1-D memref offsets",
    options: &[],
    dependent_dialects: "arith,scf,memref",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // Names are read once: ops are erased as the rewrite goes.
    let mut ops: Vec<(String, OperationRef)> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or_default().to_string();
        ops.push((name, unsafe { OperationRef::from_raw(op.to_raw()) }));
        WalkResult::Advance
    });
    let named = |wanted: &'static str| ops.iter().filter(move |(name, _)| name == wanted).map(|(_, op)| *op);
    // Stage I code would otherwise vanish with the definitions it uses.
    const STAGE_ONE: [&str; 4] =
        ["sparse_iter.iterate", "sparse_iter.load", "sparse_iter.store", "sparse_iter.format_rewrite"];
    if let Some((name, op)) = ops.iter().find(|(name, _)| STAGE_ONE.contains(&name.as_str())) {
        let advice = match name.as_str() {
            // No pipeline decomposes: which copies a kernel makes is the user's choice.
            "sparse_iter.format_rewrite" => "run decompose-format before the lowering, which applies its rules",
            _ => "run lower-sparse-iter first",
        };
        return Err(emit_error(op.location(), format!("'{name}' is stage I; {advice}")));
    }

    // Axes and buffers exist only inside a function: one that takes or
    // returns them keeps a signature nothing below stage II can lower.
    for (name, op) in &ops {
        if name != "func.func" {
            continue;
        }
        let signature = op
            .attribute("function_type")
            .ok()
            .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
            .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok());
        let Some(signature) = signature else { continue };
        let sparse = |t: melior::ir::Type| t.to_string().starts_with("!sparse_iter.");
        if let Some(index) = (0..signature.input_count()).find(|&i| signature.input(i).is_ok_and(sparse)) {
            return Err(emit_error(
                op.location(),
                format!(
                    "argument #{index} of this function is a sparse_iter axis or buffer, which has no storage to lower to: \
                     pass the memrefs and sizes, and define axes and buffers inside the function"
                ),
            ));
        }
        if (0..signature.result_count()).any(|i| signature.result(i).is_ok_and(sparse)) {
            return Err(emit_error(
                op.location(),
                "this function returns a sparse_iter axis or buffer, which has no storage to lower to",
            ));
        }
    }
    // Allocations first, so accesses find their storage.
    let mut storage = std::collections::HashMap::new();
    for op in named("sparse_iter.alloc_buffer") {
        let memref = allocate(context, op)?;
        storage.insert(key_of(op), memref);
    }
    for (name, op) in &ops {
        match name.as_str() {
            "sparse_pos.load" | "sparse_pos.store" => access(context, *op, &storage)?,
            "sparse_pos.find" => find(context, *op)?,
            "sparse_pos.parent_position" => parent_position(context, *op)?,
            "sparse_pos.assume_domain" => erase(*op),
            _ => {}
        }
    }
    for op in named("sparse_pos.for") {
        convert_loop(context, op)?;
    }
    // Definitions go last, users before what they use.
    for (name, op) in ops.iter().rev() {
        if name.starts_with("sparse_iter.") {
            if op.results().any(|result| has_uses(result.into())) {
                return Err(emit_error(
                    op.location(),
                    format!("'{name}' is still used after lowering; lower stage I first"),
                ));
            }
            erase(*op);
        } else if name.starts_with("sparse_pos.") && name != "sparse_pos.yield" && !handled(name) {
            return Err(emit_error(op.location(), format!("'{name}' cannot be lowered here")));
        }
    }
    Ok(())
}

/// The stage II ops this pass rewrites.
fn handled(name: &str) -> bool {
    matches!(
        name,
        "sparse_pos.load"
            | "sparse_pos.store"
            | "sparse_pos.find"
            | "sparse_pos.parent_position"
            | "sparse_pos.assume_domain"
            | "sparse_pos.for"
    )
}

fn key_of(op: OperationRef<'_, '_>) -> usize {
    op.to_raw().ptr as usize
}

fn has_uses(value: Value<'_, '_>) -> bool {
    crate::ir_query::use_count(value) > 0
}

fn builder_at<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<Builder<'c>, PassFailed> {
    Builder::before(context, op)
        .map(|b| b.at(op.location()))
        .ok_or_else(|| emit_error(op.location(), "op is not in a block"))
}

fn axis<'c>(value: Value<'c, 'c>, location: Location<'c>) -> Result<Axis<'c>, PassFailed> {
    Axis::read(value).ok_or_else(|| emit_error(location, "axis is not defined by a sparse_iter axis op"))
}

/// `memref[index]` of a structure array, as an index.
fn load_array<'c>(builder: &Builder<'c>, array: Value<'c, 'c>, index: Value<'c, 'c>) -> Value<'c, 'c> {
    let value = builder.value(memref::load(array, &[index], builder.location));
    builder.to_index(value)
}

/// The flat offset of `positions` in the composition `axes` (equation 6).
/// Each chain of axes (a root and the children that follow it) is
/// flattened on its own, and the chains are laid out as a row-major
/// product: `[F, I, J]` with J under I puts (i, j) of CSR at `indptr[i] +
/// j` in slab `f` of `nnz` elements, as `buffer_size` sizes it.
fn flatten<'c>(
    builder: &Builder<'c>,
    axes: &[Axis<'c>],
    positions: &[Value<'c, 'c>],
) -> Result<Value<'c, 'c>, PassFailed> {
    let location = builder.location;
    let mut offset: Option<Value<'c, 'c>> = None;
    let mut chain: Option<Value<'c, 'c>> = None;
    for (index, (axis, &position)) in axes.iter().zip(positions).enumerate() {
        let continues = index > 0 && axis.parent == Some(axes[index - 1].value);
        chain = Some(match (chain, continues) {
            (Some(chain), true) => match axis.kind {
                AxisKind::DenseFixed => builder.add(builder.mul(chain, axis.length), position),
                AxisKind::SparseFixed => {
                    let cols = axis.nnz_cols.ok_or_else(|| emit_error(location, "malformed sparse_fixed axis"))?;
                    builder.add(builder.mul(chain, cols), position)
                }
                AxisKind::DenseVariable | AxisKind::SparseVariable => {
                    let indptr = axis.indptr.ok_or_else(|| emit_error(location, "malformed variable axis"))?;
                    builder.add(load_array(builder, indptr, chain), position)
                }
            },
            _ if axis.parent.is_some() => {
                return Err(emit_error(
                    location,
                    format!("buffer axis #{index} has a parent axis that is not the buffer axis before it"),
                ))
            }
            (previous, _) => {
                // A new chain: the ones before it form the slab index.
                if let Some(previous) = previous {
                    offset = Some(match offset {
                        Some(offset) => {
                            builder.add(builder.mul(offset, space_size(builder, &axes[index - 1])?), previous)
                        }
                        None => previous,
                    });
                }
                position
            }
        });
    }
    let Some(chain) = chain else { return Ok(builder.index(0)) };
    Ok(match (offset, axes.last()) {
        (Some(offset), Some(last)) => builder.add(builder.mul(offset, space_size(builder, last)?), chain),
        _ => chain,
    })
}

/// Number of positions in the space closed by `axis`.
fn space_size<'c>(builder: &Builder<'c>, axis: &Axis<'c>) -> Result<Value<'c, 'c>, PassFailed> {
    let location = builder.location;
    let parent = match axis.parent {
        Some(parent) => Some(self::axis(parent, location)?),
        None => None,
    };
    Ok(match (axis.kind, parent) {
        (AxisKind::DenseFixed, None) => axis.length,
        (AxisKind::DenseVariable | AxisKind::SparseVariable, _) => {
            axis.nnz.ok_or_else(|| emit_error(location, "malformed variable axis"))?
        }
        (AxisKind::SparseFixed, Some(parent)) => {
            let cols = axis.nnz_cols.ok_or_else(|| emit_error(location, "malformed sparse_fixed axis"))?;
            builder.mul(space_size(builder, &parent)?, cols)
        }
        _ => return Err(emit_error(location, "malformed axis")),
    })
}

/// Storage size of a buffer over `axes`: the product of the spaces its
/// chains of axes close (CSR's [I, J] holds nnz elements, [I, J, K] nnz
/// times K's length). The sizes come from the axes' own operands, never
/// from the structure arrays, so the host can size a GPU buffer without
/// reading GPU memory.
/// Also returns the sizes of the spaces it multiplies.
fn buffer_size<'c>(
    builder: &Builder<'c>,
    axes: &[Axis<'c>],
) -> Result<(Value<'c, 'c>, Vec<Value<'c, 'c>>), PassFailed> {
    let mut spaces = Vec::new();
    for (index, axis) in axes.iter().enumerate() {
        let continued = axes.get(index + 1).is_some_and(|next| next.parent == Some(axis.value));
        if !continued {
            spaces.push(space_size(builder, axis)?);
        }
    }
    let size = spaces.iter().copied().reduce(|size, space| builder.mul(size, space));
    Ok((size.unwrap_or_else(|| builder.index(1)), spaces))
}

/// The element count of a buffer whose spaces have the sizes `spaces`
/// where the compiler knows them all: `Err` names a negative one, or says
/// that the product overflows (the index arithmetic would wrap, to a
/// small buffer the program then writes past).
fn known_elements(spaces: &[Value<'_, '_>]) -> Result<Option<i64>, String> {
    let mut elements = Some(1i64);
    let mut overflow = false;
    for &space in spaces {
        match evaluate_index(space) {
            Some(length) if length < 0 => {
                return Err(format!("one of its axes' spaces has a negative size ({length})"));
            }
            Some(length) => match elements.map(|n| n.checked_mul(length)) {
                Some(Some(n)) => elements = Some(n),
                Some(None) => overflow = true,
                None => {}
            },
            None => elements = None,
        }
    }
    match overflow {
        // Any non-zero size beside them only makes it larger.
        true if !spaces.iter().any(|&s| evaluate_index(s) == Some(0)) => {
            Err("its axes' sizes multiply past 2^63 elements, more than any machine's memory".to_string())
        }
        true => Ok(Some(0)),
        false => Ok(elements),
    }
}

fn allocate<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<Value<'c, 'c>, PassFailed> {
    let location = op.location();
    let builder = builder_at(context, op)?;
    let result = detach(op.result(0).map_err(|_| emit_error(location, "internal"))?.into());
    let def = BufferDef::read(result).ok_or_else(|| emit_error(location, "malformed alloc_buffer"))?;
    let axes = def.axes.iter().map(|&a| axis(a, location)).collect::<Result<Vec<_>, _>>()?;
    let (size, spaces) = buffer_size(&builder, &axes)?;
    let scope = def.scope();
    let known = known_elements(&spaces)
        .map_err(|problem| emit_error(location, format!("a buffer of {}: {problem}", def.element)))?;
    if let Some(elements) = known {
        let bytes = crate::ir_query::byte_size(def.element).and_then(|size| size.checked_mul(elements));
        if bytes.is_none_or(|bytes| bytes > crate::ir_query::MAX_ALLOCATION_BYTES) {
            return Err(emit_error(
                location,
                format!(
                    "a buffer of {elements} elements of {} takes more than 2^47 bytes, more than any machine's memory",
                    def.element
                ),
            ));
        }
    }
    if scope == "shared" {
        // Workgroup memory is sized when the kernel is compiled; the mark
        // tells lower-loop-bindings to make it the launch's.
        let length = known.filter(|&n| n >= 0).ok_or_else(|| {
            emit_error(
                location,
                "a buffer in scope \"shared\" needs a size known when compiling (constant axis lengths; specialize-arguments makes size arguments constant)",
            )
        })?;
        let r#type = MemRefType::new(def.element, &[length], None, None);
        let tile = builder.insert(memref::alloca(context, r#type, &[], &[], None, location));
        unsafe { OperationRefMut::from_raw(tile.to_raw()) }.set_discardable_attribute(SHARED, Attribute::unit(context));
        return Ok(detach(tile.result(0).map_err(|_| emit_error(location, "internal"))?.into()));
    }
    let r#type = MemRefType::new(def.element, &[i64::MIN], None, None);
    // Inside a launch the allocation is each thread's own: threads that
    // should share it (loops bound to threadIdx where it lives) would not.
    if scope == "global" {
        use crate::sparse_pos_ops::{binding, bound_loops};
        let threads = op
            .parent_operation()
            .is_some_and(|parent| !bound_loops(parent, |to| to.starts_with("threadIdx")).is_empty());
        let mut current = op.parent_operation();
        while let Some(parent) = current.filter(|_| threads) {
            if let Some(to) = binding(parent) {
                return Err(emit_error(
                    location,
                    format!(
                        "a buffer in scope \"global\" is allocated inside loop \"{}\", which runs on the GPU (bound to {}), and threads share it: allocate it outside the loops bound to the GPU, or use scope \"shared\" (a buffer per block) or \"local\" (a buffer per thread)",
                        crate::sparse_pos_ops::loop_label(parent),
                        to
                    ),
                ));
            }
            current = parent.parent_operation();
        }
    }
    if scope == "local" {
        return Ok(builder.value(memref::alloca(context, r#type, &[size], &[], None, location)));
    }
    let memref = builder.value(memref::alloc(context, r#type, &[size], &[], None, location));
    // Freed where its block ends, before the terminator.
    if let Some(end) = op.block().and_then(|block| block.terminator()) {
        let end: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(end.to_raw()) };
        builder_at(context, end)?.insert(memref::dealloc(memref, location));
    }
    Ok(memref)
}

fn access<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    storage: &std::collections::HashMap<usize, Value<'c, 'c>>,
) -> Result<(), PassFailed> {
    let location = op.location();
    let builder = builder_at(context, op)?;
    let is_store = op.name().as_string_ref().as_str() == Ok("sparse_pos.store");
    let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let (value, buffer, positions) =
        if is_store { (Some(operands[0]), operands[1], &operands[2..]) } else { (None, operands[0], &operands[1..]) };
    let def = BufferDef::read(buffer).ok_or_else(|| emit_error(location, "buffer is not defined by a buffer op"))?;
    let array = match def.values {
        Some(values) => values,
        None => *storage.get(&key_of(def.op)).ok_or_else(|| emit_error(location, "internal: unallocated buffer"))?,
    };
    let axes = def.axes.iter().map(|&a| axis(a, location)).collect::<Result<Vec<_>, _>>()?;
    let offset = flatten(&builder, &axes, positions)?;
    match value {
        Some(value) => {
            builder.insert(memref::store(value, array, &[offset], location));
        }
        None => {
            let loaded = builder.value(memref::load(array, &[offset], location));
            replace(op, 0, loaded)?;
        }
    }
    erase(op);
    Ok(())
}

fn replace<'c>(op: OperationRef<'c, 'c>, index: usize, with: Value<'c, 'c>) -> Result<(), PassFailed> {
    let old = op.result(index).map_err(|_| emit_error(op.location(), "internal: missing result"))?;
    replace_uses(old.into(), with);
    Ok(())
}

/// The flat position of the parent row selected by `ancestors`.
fn parent_offset<'c>(
    builder: &Builder<'c>,
    axis: &Axis<'c>,
    ancestors: &[Value<'c, 'c>],
) -> Result<Value<'c, 'c>, PassFailed> {
    flatten(builder, &axis.ancestors(), ancestors)
}

/// Start and end (flat) of the row of `axis` under flat parent `row`.
fn row_range<'c>(
    builder: &Builder<'c>,
    axis: &Axis<'c>,
    row: Value<'c, 'c>,
) -> Result<(Value<'c, 'c>, Value<'c, 'c>), PassFailed> {
    let location = builder.location;
    if let Some(indptr) = axis.indptr {
        let one = builder.index(1);
        return Ok((load_array(builder, indptr, row), load_array(builder, indptr, builder.add(row, one))));
    }
    let cols = axis.nnz_cols.ok_or_else(|| emit_error(location, "malformed sparse_fixed axis"))?;
    let start = builder.mul(row, cols);
    Ok((start, builder.add(start, cols)))
}

fn find<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let builder = builder_at(context, op)?;
    let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let axis = axis(operands[0], location)?;
    let coordinate = operands[operands.len() - 1];
    let indices = axis.indices.ok_or_else(|| emit_error(location, "coordinate lookup on an axis without indices"))?;
    let row = parent_offset(&builder, &axis, &operands[1..operands.len() - 1])?;
    let (start, end) = row_range(&builder, &axis, row)?;
    let at = lower_bound(&builder, start, end, |b, mid| {
        let stored = load_array(b, indices, mid);
        b.cmp(CmpiPredicate::Slt, stored, coordinate)
    });
    let inside = builder.cmp(CmpiPredicate::Ult, at, end);
    let bool_type = builder.bool_type();
    let found = if_else(
        &builder,
        inside,
        &[bool_type],
        |b| {
            let stored = load_array(b, indices, at);
            vec![b.cmp(CmpiPredicate::Eq, stored, coordinate)]
        },
        |b| {
            vec![b.value(melior::dialect::arith::constant(
                b.context,
                melior::ir::attribute::IntegerAttribute::new(bool_type, 0).into(),
                location,
            ))]
        },
    )[0];
    replace(op, 0, builder.sub(at, start))?;
    replace(op, 1, found)?;
    erase(op);
    Ok(())
}

fn parent_position<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let builder = builder_at(context, op)?;
    let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let axis = axis(operands[0], location)?;
    let flat = operands[1];
    let row = match (axis.indptr, axis.nnz_cols, axis.parent) {
        (Some(indptr), _, Some(parent)) => {
            // The last row whose start is at or before `flat`.
            let rows = space_size(&builder, &self::axis(parent, location)?)?;
            let zero = builder.index(0);
            let one = builder.index(1);
            let past = lower_bound(&builder, zero, builder.add(rows, one), |b, mid| {
                let start = load_array(b, indptr, mid);
                b.cmp(CmpiPredicate::Ule, start, flat)
            });
            builder.sub(past, one)
        }
        (None, Some(cols), Some(_)) => builder.div(flat, cols),
        _ => return Err(emit_error(location, "parent_position needs an axis with a parent")),
    };
    replace(op, 0, row)?;
    erase(op);
    Ok(())
}

/// `sparse_pos.for` -> `scf.for`, keeping the label and kind for later
/// schedules and GPU mapping as `sptir.label` / `sptir.kind`.
fn convert_loop<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let builder = builder_at(context, op)?;
    let bounds: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let old =
        op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    // A loop of one position that no schedule named goes now, while the
    // stage II bounds still say so plainly; canonicalization must not fold
    // the bound ones (it would drop their binding: a one-block grid is
    // still a launch), so the pipelines keep it from folding any.
    let one_trip = evaluate_index(bounds[1]).zip(evaluate_index(bounds[0])).is_some_and(|(ub, lb)| ub - lb == 1);
    if one_trip && op.attribute("bind").is_err() {
        if let Ok(position) = old.argument(0) {
            replace_uses(position.into(), bounds[0]);
        }
        move_until_terminator(old.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), op);
        erase(op);
        return Ok(());
    }
    let one = builder.index(1);
    let index = builder.index_type();
    let body = Block::new(&[(index, location)]);
    let new_position: Value<'c, 'c> = detach(body.argument(0).map_err(|_| emit_error(location, "internal"))?.into());
    let terminator = body.append_operation(scf::r#yield(&[], location));
    let terminator: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(terminator.to_raw()) };
    let region = Region::new();
    region.append_block(body);
    let new_loop = builder.insert(scf::r#for(bounds[0], bounds[1], one, region, location));

    if let Ok(position) = old.argument(0) {
        replace_uses(position.into(), new_position);
    }
    move_until_terminator(old.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), terminator);
    let mut new_loop = unsafe { OperationRefMut::from_raw(new_loop.to_raw()) };
    for (name, target) in [("label", "sptir.label"), ("kind", "sptir.kind")] {
        if let Ok(attribute) = op.attribute(name) {
            let attribute = if name == "kind" {
                let kind = melior::ir::attribute::IntegerAttribute::try_from(attribute).map(|a| a.value()).unwrap_or(0);
                StringAttribute::new(context, if kind == 1 { "reduction" } else { "spatial" }).into()
            } else {
                attribute
            };
            new_loop.set_discardable_attribute(target, attribute);
        }
    }
    for (name, attribute) in op.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or_default().to_string();
        if name != "label" && name != "kind" {
            new_loop.set_discardable_attribute(&name, attribute);
        }
    }
    erase(op);
    Ok(())
}
