//! `sparse-pos-cache-read`: the stage II schedule that stages what a loop
//! of constant trip count reads into a tile first (SparseTIR's
//! `cache_read`, GE-SpMM's coalesced row caching). Where a row's features
//! are spread over threads, every thread reads each non-zero's column and
//! value; with the tile, the block reads a chunk of them once, one per
//! thread, and then every thread walks the tile.
//!
//! Loop `L` (positions `lb..lb+E`, E constant) gets a copy loop `L.cache`
//! over `0..E` just before it. A load in `L` is cached when its indices are
//! computed, by pure arithmetic, from `L`'s position and values defined
//! before `L`, and nothing in the function writes its buffer. The copy loop
//! recomputes those indices for each position and loads under the guards
//! that are computed the same way (a split's tail guard); the guards that
//! depend on other values inside `L` (a feature tail) are speculated, as
//! `hoist-invariant-loads` does. Each tile is a `memref.alloca {sptir.shared}`
//! at the function entry: on the GPU, `lower-loop-bindings` makes it the
//! launch's workgroup (shared) memory, and binding `L.cache` to threads
//! makes the copy cooperative (`synchronize-thread-loops` then puts the
//! barriers around it); on the CPU it stays a small stack array.

use crate::{
    axis::detach,
    buffer::BufferDef,
    ir_builder::{erase, if_else, replace_uses, Builder},
    ir_query::{constant_index, defined_outside, enclosing_function, op_name, speculatable},
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{
        check_new_labels, constant_trip, insert_loop, kind_attribute, loop_position, named_loops, LoopKind,
    },
};
use melior::{
    dialect::{arith, memref},
    ir::{
        attribute::{Attribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::{MemRefType, TypeLike},
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosCacheRead",
    argument: "sparse-pos-cache-read",
    description:
        "Stage what a loop of constant trip count reads into shared tiles, copied by a loop LABEL.cache (loop=LABEL)",
    options: &[PassOption {
        name: "loop",
        help: "label of the sparse_pos.for whose reads are cached",
        required: true,
        kind: OptionKind::Text,
    }],
    dependent_dialects: "arith,memref,scf",
    run,
};

/// The marker of a tile that lives in a GPU block's shared memory.
pub const SHARED: &str = "sptir.shared";

/// The longest loop cached: 1024 elements of 8 bytes stay well inside a
/// block's shared memory.
pub const MAX_TRIP: i64 = 1024;

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    let loops = named_loops("sparse-pos-cache-read", root, label)?;
    check_new_labels("sparse-pos-cache-read", root, loops[0], &[format!("{label}.cache")])?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        cache(context, op, label)?;
    }
    Ok(())
}

/// A load the copy loop makes: its buffer, indices and guards (condition,
/// taken branch), all computed from the loop's position and outside values.
struct Read<'c> {
    buffer: Value<'c, 'c>,
    indices: Vec<Value<'c, 'c>>,
    guards: Vec<(Value<'c, 'c>, bool)>,
    r#type: Type<'c>,
    loads: Vec<OperationRef<'c, 'c>>,
}

fn cache<'c>(context: &'c Context, op: OperationRef<'c, 'c>, label: &str) -> Result<(), PassFailed> {
    let location = op.location();
    let trip = most_trips(op).filter(|t| (1..=MAX_TRIP).contains(t)).ok_or_else(|| {
        emit_error(
            location,
            format!("sparse-pos-cache-read: loop \"{label}\" must run at most a constant number of times, between 1 and {MAX_TRIP} (split it first with sparse-pos-split)"),
        )
    })?;
    if op.has_attribute("bind") {
        return Err(emit_error(
            location,
            format!("sparse-pos-cache-read: loop \"{label}\" is bound to a GPU dimension; each thread walks the tile, so cache before binding and leave it sequential"),
        ));
    }
    let function = enclosing_function(op)
        .ok_or_else(|| emit_error(location, "sparse-pos-cache-read: the loop is not inside a func.func"))?;
    let written = written_memrefs(function);
    let position = loop_position(op)?;
    let reads = reads(op, position, &written);
    if reads.is_empty() {
        return Err(emit_error(
            location,
            format!("sparse-pos-cache-read: loop \"{label}\" reads nothing cacheable (a never-written buffer at indices computed from its position)"),
        ));
    }

    let lower = detach(op.operand(0).map_err(|_| emit_error(location, "malformed loop"))?);
    let upper = detach(op.operand(1).map_err(|_| emit_error(location, "malformed loop"))?);
    let builder =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let zero = builder.index(0);
    let size = builder.index(trip);
    let spatial = kind_attribute(context, LoopKind::Spatial);
    let (copy, inside) = insert_loop(&builder, &format!("{label}.cache"), spatial, zero, size);
    let slot = loop_position(copy)?;
    let copied_position = inside.add(lower, slot);
    let mut clones: Vec<(Value<'c, 'c>, Value<'c, 'c>)> = vec![(position, copied_position)];
    // A clamped loop (`min(E, left)` positions) copies only its positions.
    let in_loop =
        (constant_trip(op) != Some(trip)).then(|| inside.cmp(arith::CmpiPredicate::Ult, copied_position, upper));

    let entry = entry_anchor(function).ok_or_else(|| emit_error(location, "function without body"))?;
    let entry = Builder::before(context, entry).ok_or_else(|| emit_error(location, "internal"))?.at(location);
    // Reads under the same guards are copied under one branch.
    let mut groups: Vec<Vec<Read<'c>>> = Vec::new();
    for read in reads {
        match groups.iter_mut().find(|g| g[0].guards == read.guards) {
            Some(group) => group.push(read),
            None => groups.push(vec![read]),
        }
    }
    for group in groups {
        let mut condition = in_loop;
        for &(guard, taken) in &group[0].guards {
            let mut value = clone_slice(&inside, op, guard, &mut clones);
            if !taken {
                let yes = inside.value(arith::constant(
                    context,
                    IntegerAttribute::new(inside.bool_type(), 1).into(),
                    location,
                ));
                value = inside.value(arith::xori(value, yes, location));
            }
            condition = Some(match condition {
                None => value,
                Some(before) => inside.and(before, value),
            });
        }
        let mut tiles = Vec::new();
        for read in &group {
            let tile_type = MemRefType::new(read.r#type, &[trip], None, None);
            let tile = entry.insert(memref::alloca(context, tile_type, &[], &[], None, location));
            unsafe { OperationRefMut::from_raw(tile.to_raw()) }
                .set_discardable_attribute(SHARED, Attribute::unit(context));
            let tile = detach(tile.result(0).map_err(|_| emit_error(location, "internal"))?.into());
            let indices: Vec<Value<'c, 'c>> =
                read.indices.iter().map(|&i| clone_slice(&inside, op, i, &mut clones)).collect();
            tiles.push((tile, indices));
        }
        let copy_all = |b: &Builder<'c>| {
            for (read, (tile, indices)) in group.iter().zip(&tiles) {
                let load = b.insert_clone(read.loads[0]);
                let mut load_mut = unsafe { OperationRefMut::from_raw(load.to_raw()) };
                for (old, new) in read.indices.iter().zip(indices) {
                    load_mut.replace_uses_of_with(*old, *new);
                }
                let value = detach(load.result(0).expect("a load has one result").into());
                b.insert(memref::store(value, *tile, &[slot], location));
            }
            Vec::new()
        };
        match condition {
            Some(condition) => {
                if_else(&inside, condition, &[], copy_all, |_| Vec::new());
            }
            None => {
                copy_all(&inside);
            }
        }

        for (read, (tile, _)) in group.iter().zip(&tiles) {
            for &load in &read.loads {
                let at =
                    Builder::before(context, load).ok_or_else(|| emit_error(location, "internal"))?.at(load.location());
                let offset = at.sub(position, lower);
                let cached = at.value(memref::load(*tile, &[offset], load.location()));
                replace_uses(detach(load.result(0).map_err(|_| emit_error(location, "internal"))?.into()), cached);
                erase(load);
            }
        }
    }
    Ok(())
}

/// The most positions `op` runs: its constant trip count, or `C - lb` for
/// bounds `lb` constant and `min(C, x)` (a clamped split's inner loop).
fn most_trips(op: OperationRef<'_, '_>) -> Option<i64> {
    if let Some(trip) = constant_trip(op) {
        return Some(trip);
    }
    let lower = constant_index(op.operand(0).ok()?)?;
    let result = crate::ir_query::op_result(op.operand(1).ok()?).ok()?;
    let min = result.owner();
    // Unsigned, like the copy's guard `p < ub`.
    if op_name(&min) != "arith.minui" {
        return None;
    }
    let most = min.operands().filter_map(constant_index).min()?;
    Some(most - lower)
}

/// The first op of the function's entry block.
fn entry_anchor<'c>(function: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let block = function.region(0).ok()?.first_block()?;
    block.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) })
}

/// The memrefs (behind their sparse buffers) that some op in `function`
/// stores to or hands to something that might.
fn written_memrefs<'c>(function: OperationRef<'c, 'c>) -> Vec<usize> {
    let mut written = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        match op_name(&op).as_str() {
            "sparse_pos.store" => written.extend(op.operand(1).ok().map(|buffer| crate::buffer::array(detach(buffer)))),
            "sparse_pos.load"
            | "sparse_iter.match_buffer"
            | "sparse_iter.sparse_variable"
            | "sparse_iter.dense_variable"
            | "sparse_iter.sparse_fixed"
            | "memref.load"
            | "memref.dim" => {}
            _ => written.extend(op.operands().filter(|v| v.r#type().is_mem_ref()).map(crate::ir_query::root_memref)),
        }
        WalkResult::Advance
    });
    written
}

/// The cacheable loads under `op`, those with equal buffer, indices and
/// guards together.
fn reads<'c>(op: OperationRef<'c, 'c>, position: Value<'c, 'c>, written: &[usize]) -> Vec<Read<'c>> {
    let loads = crate::ir_query::ops_where(op, WalkOrder::PreOrder, |inner| {
        inner.name().as_string_ref().as_str() == Ok("sparse_pos.load")
    });
    let mut reads: Vec<Read<'c>> = Vec::new();
    for load in loads {
        let Some(buffer) = load.operand(0).ok().map(detach) else { continue };
        // An allocated buffer holds what the kernel wrote.
        let allocated = BufferDef::read(buffer).is_none_or(|def| def.values.is_none());
        if allocated || written.contains(&crate::buffer::array(buffer)) {
            continue;
        }
        let indices: Vec<Value<'c, 'c>> = load.operands().skip(1).map(detach).collect();
        let mut depends = false;
        if !indices.iter().all(|&i| computable(i, op, position, &mut depends)) || !depends {
            continue;
        }
        let guards = guards(load, op, position);
        let Ok(result) = load.result(0) else { continue };
        match reads.iter_mut().find(|r| r.buffer == buffer && r.indices == indices && r.guards == guards) {
            Some(read) => read.loads.push(load),
            None => reads.push(Read { buffer, indices, guards, r#type: result.r#type(), loads: vec![load] }),
        }
    }
    reads
}

/// Whether `value` is computed in `op` by arithmetic that cannot trap from `position`
/// and values defined before `op`; sets `depends` where `position` is used.
fn computable<'c>(value: Value<'c, 'c>, op: OperationRef<'c, 'c>, position: Value<'c, 'c>, depends: &mut bool) -> bool {
    if value == position {
        *depends = true;
        return true;
    }
    if defined_outside(value, op) {
        return true;
    }
    let Ok(result) = crate::ir_query::op_result(value) else { return false };
    let definer: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
    // The copy computes indices outside the guards that protected them.
    speculatable(&definer) && definer.operands().all(|v| computable(detach(v), op, position, depends))
}

/// The conditions of the `scf.if` ops between `load` and `op` that are
/// computable, each with whether the load is in its then branch.
fn guards<'c>(
    load: OperationRef<'c, 'c>,
    op: OperationRef<'c, 'c>,
    position: Value<'c, 'c>,
) -> Vec<(Value<'c, 'c>, bool)> {
    let mut guards = Vec::new();
    let mut child = load;
    while let Some(parent) = child.parent_operation() {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        if parent == op {
            break;
        }
        if op_name(&parent) == "scf.if" {
            let taken = crate::ir_query::in_then(parent, load);
            if let Ok(condition) = parent.operand(0) {
                let condition = detach(condition);
                if computable(condition, op, position, &mut false) {
                    guards.push((condition, taken));
                }
            }
        }
        child = parent;
    }
    guards.reverse();
    guards
}

/// The copy of `value`'s computation before the builder's anchor, with the
/// values in `clones` replaced (the loop position by the copy's). Values
/// defined before `op` are used as they are.
fn clone_slice<'c>(
    builder: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    value: Value<'c, 'c>,
    clones: &mut Vec<(Value<'c, 'c>, Value<'c, 'c>)>,
) -> Value<'c, 'c> {
    if let Some(&(_, copy)) = clones.iter().find(|(old, _)| *old == value) {
        return copy;
    }
    if defined_outside(value, op) {
        return value;
    }
    // `computable` checked that what is left is an op result.
    let result = crate::ir_query::op_result(value).expect("computable value");
    let definer: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
    let operands: Vec<Value<'c, 'c>> = definer.operands().map(detach).collect();
    let copied: Vec<Value<'c, 'c>> = operands.iter().map(|&o| clone_slice(builder, op, o, clones)).collect();
    let copy = builder.insert_clone(definer);
    let mut copy_mut = unsafe { OperationRefMut::from_raw(copy.to_raw()) };
    for (old, new) in operands.iter().zip(&copied) {
        if old != new {
            copy_mut.replace_uses_of_with(*old, *new);
        }
    }
    let new = detach(copy.result(result.result_number()).expect("cloned result").into());
    clones.push((value, new));
    new
}
