//! `promote-accumulators`: register accumulation (SparseTIR section 5.3)
//! at stage III. Where a loop reads and writes one memref element whose
//! indices do not change in the loop (`c[i] = c[i] + ...` in a reduction),
//! the element is loaded once before the loop, carried through it in a
//! register (`scf.for` iteration argument) and stored once after it.
//! A loop may carry several: other accesses to the memref are allowed
//! where they can never reach the element (indices with the same terms a
//! constant apart by at least the access's width, as the chunks of an
//! unrolled feature loop are), so a thread that coarsens its features
//! keeps one sum a chunk in registers.
//!
//! The load and store may also sit under `scf.if` guards in the loop body
//! when they are the accumulation of a warp shuffle and the guards test
//! the lane or the end of a split that the loop is part of (a CSR row's
//! non-zeros over lanes; see `lane_tail_guards`); each guard then yields the new
//! value or the carried one. Such an accumulation that no loop carries
//! (each lane's features fit in one step) still leaves its lane guards,
//! so that every lane reaches its warp shuffle.
//!
//! Before that, the straight-line copies of an accumulation that threads
//! share (an unrolled loop's, marked atomic or shuffle) become one: a load
//! of the element takes the value an earlier store in the block wrote.
//!
//! Sound for sptir kernels because their memref arguments do not alias
//! one another (as SparseTIR assumes, `tir.noalias`): the pass requires
//! that nothing else in the loop touches the same memref value.

use crate::{
    accumulation_chain::vector_lanes,
    axis::detach,
    ir_builder::{erase, move_until_terminator, replace_uses, Builder},
    ir_query::{
        defined_outside, depends_on, depends_on_launch_ids, marked_ops, offset_form, op_name, root_memref,
        touches_memory, touches_memref_or_syncs,
    },
    lower_loop_bindings::{ATOMIC, SHUFFLE},
    pass_registry::{PassDef, PassFailed, PassOptions},
    sparse_pos_split::SPLIT_GUARD,
};
use melior::{
    dialect::scf,
    ir::{
        block::{BlockLike, BlockRef},
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::TypeLike,
        Block, Region, RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "PromoteAccumulators",
    argument: "promote-accumulators",
    description: "Keep an element that a loop reads and writes at fixed indices in a register across the loop",
    options: &[],
    dependent_dialects: "scf,memref",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    forward_stores(root, Stores::Marked);
    // The copies of an unrolled reduction loop (a block's columns) each
    // load and store the element: one load and one store are left, which
    // the loop around them can carry.
    forward_stores(root, Stores::Plain);
    // Innermost loops first: an accumulator promoted out of an inner loop
    // may then be promoted out of the loop around it.
    let loops = crate::ir_query::ops_where(root, WalkOrder::PostOrder, |op| op_name(&op) == "scf.for");
    for op in loops {
        let mut current = op;
        while let Some(promoted) = promote_one(context, current) {
            current = promoted;
        }
    }
    // Promotion moved accumulations out of the loops that held them (the
    // copies of an unrolled loop around a scalar feature loop), which
    // makes them straight-line copies in turn.
    forward_stores(root, Stores::Marked);
    forward_stores(root, Stores::Plain);
    for store in marked_ops(root, SHUFFLE) {
        lift_out_of_lane_guards(context, store);
    }
    Ok(())
}

/// The stores `forward_stores` forwards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stores {
    /// Straight-line accumulations into one element that threads share
    /// (the copies of an unrolled loop, marked atomic or shuffle). Only
    /// marked stores take part: threads combine their contributions there,
    /// so the lowering needs `old + terms` with `old` loaded. One load and
    /// one store of the element are left: one accumulation for the loop
    /// promotion and the atomic or shuffle lowering, instead of one per
    /// copy.
    Marked,
    /// Plain stores (a row's zeroing): a promoted sum starts from the
    /// stored value instead of loading it back, but not a sum that a marked
    /// store of the element follows (the lowerings above need its load).
    Plain,
}

/// Store forwarding in a block: a load of the element that an earlier
/// store wrote, with nothing in between touching that memory (other than
/// `disjoint` accesses) or meeting other threads, takes the stored value,
/// and a store that a later one overwrites before anything reads it goes.
/// Marked stores match loads and stores at the very same indices and are
/// overwritten by a store with the same marker; plain ones match any
/// access to the `same_element` and are overwritten by a plain store.
fn forward_stores(root: OperationRef<'_, '_>, kind: Stores) {
    fn marker(op: &OperationRef) -> Option<(&'static str, String)> {
        [ATOMIC, SHUFFLE].into_iter().find_map(|name| op.attribute(name).ok().map(|value| (name, value.to_string())))
    }
    let stores = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        matches!(op_name(&op).as_str(), "memref.store" | "vector.store") && is_marked(op) == (kind == Stores::Marked)
    });
    let mut erased = Vec::new();
    for store in stores {
        if erased.contains(&store.to_raw().ptr) {
            continue;
        }
        let (Ok(stored), Ok(memref_value)) = (store.operand(0).map(detach), store.operand(1).map(detach)) else {
            continue;
        };
        let name = op_name(&store);
        let mut next = store.next_in_block();
        while let Some(op) = next {
            next = op.next_in_block();
            let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
            let same = match kind {
                Stores::Marked => same_operands(store, op),
                Stores::Plain => same_element(store, op),
            };
            if same {
                let is_load = op_name(&op).ends_with(".load");
                if is_load && (kind == Stores::Marked || !marked_store_follows(op)) {
                    if let Ok(result) = op.result(0) {
                        if result.r#type() == stored.r#type() {
                            replace_uses(result.into(), stored);
                            erase(op);
                            continue;
                        }
                    }
                } else if !is_load && op_name(&op) == name {
                    let overwrites = match kind {
                        Stores::Marked => marker(&op) == marker(&store),
                        Stores::Plain => !is_marked(op),
                    };
                    if overwrites {
                        erased.push(store.to_raw().ptr);
                        erase(store);
                    }
                }
                break;
            }
            // The other chunks' copies (an unrolled feature loop's) do not
            // reach this element.
            if disjoint(store, op) {
                continue;
            }
            // Views of the same memory too: they may reach the element.
            if touches_memref_or_syncs(op, memref_value) || touches_memory(op, root_memref(memref_value)) {
                break;
            }
        }
    }
}

/// Whether `op` is the load matching `store` (`memref.load` for
/// `memref.store`, `vector.load` for `vector.store`) or a store of its kind,
/// at the very same memref and indices.
fn same_operands(store: OperationRef<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    let name = op_name(&store);
    let load_name = if name == "memref.store" { "memref.load" } else { "vector.load" };
    let place: Vec<Value> = store.operands().skip(1).map(detach).collect();
    let kind = op_name(&op);
    let operands: Vec<Value> = op.operands().map(detach).collect();
    (kind == load_name && operands == place) || (kind == name && operands.get(1..) == Some(&place[..]))
}

fn is_marked(op: OperationRef<'_, '_>) -> bool {
    op.has_attribute(ATOMIC) || op.has_attribute(SHUFFLE)
}

/// Whether a store marked atomic or shuffle writes `load`'s element
/// later in its block (or inside a later op there).
fn marked_store_follows(load: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    let mut next = load.next_in_block();
    while let Some(op) = next {
        next = op.next_in_block();
        op.walk(WalkOrder::PreOrder, |inner| {
            let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
            found |= is_marked(inner) && same_element(load, inner);
            if found {
                WalkResult::Interrupt
            } else {
                WalkResult::Advance
            }
        });
        if found {
            return true;
        }
    }
    false
}

/// A shuffle accumulation that no loop carries (a lane's features fit in
/// one step) but that lane guards still enclose: the element is loaded
/// before the outermost guard, each guard yields the new value where it
/// ran and the old one elsewhere, and the store follows, so that every
/// lane reaches the store and its warp shuffle (see `lane_tail_guards`).
fn lift_out_of_lane_guards<'c>(context: &'c Context, store: OperationRef<'c, 'c>) -> Option<()> {
    let mut guards = Vec::new();
    let mut inner = store;
    while let Some(parent) = inner.parent_operation() {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        let tests_lane = parent.operand(0).is_ok_and(|c| tests_only_the_lane(detach(c)));
        if op_name(&parent) != "scf.if" || parent.result_count() > 0 || !tests_lane {
            break;
        }
        let taken = (0..parent.region_count()).find(|&region| {
            parent.region(region).ok().and_then(|r| r.first_block()).map(|b| b.to_raw().ptr)
                == inner.block().map(|b| b.to_raw().ptr)
        })?;
        guards.insert(0, (parent, taken));
        inner = parent;
    }
    // The walk kept only guards that test the lane alone, and `store` is a
    // shuffle's: what `lane_tail_guards` asks of a promotion.
    let outermost = guards.first()?.0;
    let block = store.block()?;
    let block: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(block.to_raw()) };
    let (load, store, stored) = accumulator_in(outermost, block).filter(|(_, found, _)| found == &store)?;
    let location = store.location();
    let builder = Builder::before(context, outermost)?.at(location);
    let old: Value<'c, 'c> = detach(builder.insert_clone(load).result(0).ok()?.into());
    replace_uses(load.result(0).ok()?.into(), old);
    erase(load);
    let mut next_value = stored.unwrap_or(old);
    for &(guard, taken) in guards.iter().rev() {
        next_value = yield_through(context, guard, taken, next_value, old)?;
    }
    let last_if = crate::ir_query::op_result(next_value).ok()?.owner();
    let after = last_if.next_in_block().and_then(|n| Builder::before(context, n))?.at(location);
    let lifted = after.insert_clone(store);
    unsafe { OperationRefMut::from_raw(lifted.to_raw()) }.set_operand(0, next_value);
    erase(store);
    Some(())
}

/// Promotes one accumulator of `op`; returns the new loop, which carries
/// it after the values `op` already carried.
fn promote_one<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let body = op.region(0).ok()?.first_block()?;
    let mut candidate = None;
    for (block, guards) in guarded_blocks(body, Vec::new()) {
        candidate = accumulator_in(op, block)
            .filter(|(_, store, _)| guards.is_empty() || lane_tail_guards(*store, &guards, op))
            .map(|(load, store, stored)| (load, store, stored, guards));
        if candidate.is_some() {
            break;
        }
    }
    let (load, store, stored, guards) = candidate?;

    let location = op.location();
    let builder = Builder::before(context, op)?.at(location);
    // The load and store keep their form (scalar or vector, alignment).
    let initial: Value<'c, 'c> = detach(builder.insert_clone(load).result(0).ok()?.into());
    let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let (bounds, mut inits) = (&operands[..3], operands[3..].to_vec());
    inits.push(initial);
    let old_yield = body.terminator()?;
    let mut yielded: Vec<Value<'c, 'c>> = old_yield.operands().map(detach).collect();
    let types: Vec<_> = inits.iter().map(|v| v.r#type()).collect();
    let mut arguments = vec![(bounds[0].r#type(), location)];
    arguments.extend(types.iter().map(|&t| (t, location)));
    let new_body = Block::new(&arguments);
    let yield_op = new_body.append_operation(scf::r#yield(&[], location));
    let yield_op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(yield_op.to_raw()) };
    let new_arguments: Vec<Value<'c, 'c>> =
        (0..arguments.len()).filter_map(|n| new_body.argument(n).ok().map(|a| detach(a.into()))).collect();
    let accumulator = *new_arguments.last()?;
    let region = Region::new();
    region.append_block(new_body);
    let mut all_operands = bounds.to_vec();
    all_operands.extend(&inits);
    let new_loop = builder.insert(
        melior::ir::operation::OperationBuilder::new("scf.for", location)
            .add_operands(&all_operands)
            .add_results(&types)
            .add_regions([region])
            .build()
            .ok()?,
    );
    let result: Value<'c, 'c> = detach(new_loop.result(inits.len() - 1).ok()?.into());
    for (n, &argument) in new_arguments.iter().enumerate().take(inits.len()) {
        replace_uses(body.argument(n).ok()?.into(), argument);
    }
    for n in 0..inits.len() - 1 {
        replace_uses(op.result(n).ok()?.into(), new_loop.result(n).ok()?.into());
    }
    replace_uses(load.result(0).ok()?.into(), accumulator);
    let mut next = body.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(inner) = next {
        next = inner.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        if next.is_none() {
            break; // the old scf.yield
        }
        if inner.to_raw().ptr == load.to_raw().ptr || inner.to_raw().ptr == store.to_raw().ptr {
            continue;
        }
        unsafe { OperationRefMut::from_raw(inner.to_raw()) }.move_before(yield_op);
    }
    // Under guards, each guard yields the new value where it ran the store
    // and the carried one elsewhere.
    let mut next_value = stored.unwrap_or(accumulator);
    for &(guard, taken) in guards.iter().rev() {
        next_value = yield_through(context, guard, taken, next_value, accumulator)?;
    }
    yielded.push(next_value);
    unsafe { OperationRefMut::from_raw(yield_op.to_raw()) }.set_operands(&yielded);

    let mut new_loop_mut = unsafe { OperationRefMut::from_raw(new_loop.to_raw()) };
    for (name, attribute) in op.attributes() {
        if let Ok(name) = name.as_string_ref().as_str() {
            new_loop_mut.set_discardable_attribute(name, attribute);
        }
    }
    let after = new_loop.next_in_block().and_then(|n| Builder::before(context, n))?.at(location);
    let final_store = after.insert_clone(store);
    unsafe { OperationRefMut::from_raw(final_store.to_raw()) }.set_operand(0, result);
    erase(load);
    erase(store);
    erase(op);
    Some(new_loop)
}

/// Whether the access may leave `guards`: only for a store whose lanes'
/// sums meet in a warp shuffle (`sptir.shuffle`, an element the same for
/// all lanes of a row) where each guard tests the lane (threadIdx.x), as a
/// feature tail does, or is the tail of a split that `loop_op` takes part
/// in. The row's first lane then reads and writes the element whatever its
/// own guards say; in general a guard may protect the access itself, and
/// moving it out of the guard is not safe.
fn lane_tail_guards(
    store: OperationRef<'_, '_>,
    guards: &[(OperationRef<'_, '_>, usize)],
    loop_op: OperationRef<'_, '_>,
) -> bool {
    store.has_attribute(SHUFFLE)
        && guards.iter().all(|(guard, _)| {
            guard.operand(0).is_ok_and(|c| tests_only_the_lane(detach(c))) || split_tail(*guard, loop_op)
        })
}

/// Whether `guard` is `sparse-pos-split`'s test of a position that
/// `loop_op` steps through against the end of the loop that was split,
/// known before `loop_op` (a CSR row's length, which depends on the row
/// and so on blockIdx). It protects nothing that the unsplit loop's bound
/// did not, and an element whose indices are known before `loop_op` is
/// one that the promotion may access there anyway.
fn split_tail(guard: OperationRef<'_, '_>, loop_op: OperationRef<'_, '_>) -> bool {
    let Some(induction) = loop_op.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok()) else {
        return false;
    };
    let Some(test) = guard.operand(0).ok().and_then(|c| crate::ir_query::op_result(c).ok()).map(|r| r.owner()) else {
        return false;
    };
    guard.has_attribute(SPLIT_GUARD)
        && op_name(&test) == "arith.cmpi"
        && test.operand(0).is_ok_and(|position| depends_on(detach(position), detach(induction.into())))
        && test.operand(1).is_ok_and(|end| defined_outside(detach(end), loop_op))
}

/// Whether `condition` depends on threadIdx.x and on no other launch id.
/// A condition that also tests the row (`row_ok && lane_ok`, which
/// canonicalization makes of two nested guards) may protect the element
/// itself, which the row's first lane would then access out of bounds.
fn tests_only_the_lane(condition: Value<'_, '_>) -> bool {
    depends_on_launch_ids(condition, 3..4)
        && !depends_on_launch_ids(condition, 0..3)
        && !depends_on_launch_ids(condition, 4..6)
}

/// The blocks where a promoted access may sit: the loop body and, through
/// `scf.if` ops without results, their branches; each with the guards
/// around it (the `scf.if` and the region taken).
fn guarded_blocks<'c>(
    block: BlockRef<'c, 'c>,
    guards: Vec<(OperationRef<'c, 'c>, usize)>,
) -> Vec<(BlockRef<'c, 'c>, Vec<(OperationRef<'c, 'c>, usize)>)> {
    let mut found = vec![(block, guards.clone())];
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op_name(&op) != "scf.if" || op.result_count() > 0 {
            continue;
        }
        for taken in 0..op.region_count() {
            let Some(inner) = op.region(taken).ok().and_then(|r| r.first_block()) else { continue };
            let mut inner_guards = guards.clone();
            inner_guards.push((op, taken));
            found.extend(guarded_blocks(inner, inner_guards));
        }
    }
    found
}

/// A load and a later store in `block` of one element whose memref and
/// indices are defined outside `op`, where nothing else in `op` touches
/// that memref but accesses `disjoint` from it; with the stored value,
/// `None` where it is the load's own (`C[i] = C[i]`): the caller erases
/// the load, so it stands for the element's old value.
fn accumulator_in<'c>(
    op: OperationRef<'c, 'c>,
    block: BlockRef<'c, 'c>,
) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Option<Value<'c, 'c>>)> {
    // The ops of the block, in order (melior cannot walk backwards).
    let mut ops: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut next = block.first_operation();
    while let Some(current) = next {
        next = current.next_in_block();
        ops.push(unsafe { OperationRef::from_raw(current.to_raw()) });
    }
    for (position, &store) in ops.iter().enumerate() {
        let load_name = match op_name(&store).as_str() {
            "memref.store" => "memref.load",
            "vector.store" => "vector.load",
            _ => continue,
        };
        let operands: Vec<Value> = store.operands().map(detach).collect();
        let (memref_value, indices) = (operands[1], &operands[2..]);
        if !defined_outside(memref_value, op) || !indices.iter().all(|&i| defined_outside(i, op)) {
            continue;
        }
        let load = ops[..position].iter().rev().copied().find(|candidate_load| {
            op_name(candidate_load) == load_name && {
                let load_operands: Vec<Value> = candidate_load.operands().map(detach).collect();
                load_operands[0] == memref_value && load_operands[1..] == *indices
            }
        });
        let Some(load) = load else { continue };
        let mut others = false;
        // Through any view of the same memory too.
        let memory = root_memref(memref_value);
        op.walk(WalkOrder::PreOrder, |inner| {
            let same = |o: &OperationRef| o.to_raw().ptr == inner.to_raw().ptr;
            let takes_memory = inner.operands().any(|v| v.r#type().is_mem_ref() && root_memref(v) == memory);
            if !same(&load) && !same(&store) && takes_memory && !disjoint(store, inner) {
                others = true;
                return WalkResult::Interrupt;
            }
            WalkResult::Advance
        });
        if !others {
            let stored = Some(operands[0]).filter(|&stored| load.result(0).is_ok_and(|r| Value::from(r) != stored));
            return Some((load, store, stored));
        }
    }
    None
}

/// The memref, indices and elements (1, or a 1-D vector's length along
/// the last index) of a load or store.
fn access<'c>(op: OperationRef<'c, '_>) -> Option<(Value<'c, 'c>, Vec<Value<'c, 'c>>, i64)> {
    let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
    let (memref_at, element) = match op_name(&op).as_str() {
        "memref.load" | "vector.load" => (0, detach(op.result(0).ok()?.into())),
        "memref.store" | "vector.store" => (1, *operands.first()?),
        _ => return None,
    };
    let r#type = element.r#type();
    let width = match vector_lanes(r#type) {
        // Only a 1-D vector covers consecutive last indices alone.
        Some(_) if unsafe { mlir_sys::mlirShapedTypeGetRank(r#type.to_raw()) } != 1 => return None,
        Some(lanes) => lanes,
        None => 1,
    };
    Some((*operands.get(memref_at)?, operands.get(memref_at + 1..)?.to_vec(), width))
}

/// Whether two accesses to one memref can never overlap: the same indices
/// but the last, and last indices a constant apart by at least the
/// elements the lower one covers. Then several accumulators in a loop
/// (the chunks of an unrolled feature loop) each move to a register.
fn disjoint(a: OperationRef<'_, '_>, b: OperationRef<'_, '_>) -> bool {
    last_index_ranges(a, b).is_some_and(|[(terms_a, start_a, width_a), (terms_b, start_b, width_b)]| {
        terms_a == terms_b
            && (start_a.checked_add(width_a).is_some_and(|end| end <= start_b)
                || start_b.checked_add(width_b).is_some_and(|end| end <= start_a))
    })
}

/// Whether two accesses read or write exactly the same elements.
fn same_element(a: OperationRef<'_, '_>, b: OperationRef<'_, '_>) -> bool {
    last_index_ranges(a, b).is_some_and(|[first, second]| first == second)
}

/// For two accesses to one memref at the same indices but the last: each
/// one's last index as `offset_form` terms and start, and its width.
#[allow(clippy::type_complexity)]
fn last_index_ranges(a: OperationRef<'_, '_>, b: OperationRef<'_, '_>) -> Option<[(Vec<(usize, i64)>, i64, i64); 2]> {
    let ((memref_a, indices_a, width_a), (memref_b, indices_b, width_b)) = (access(a)?, access(b)?);
    let ((last_a, outer_a), (last_b, outer_b)) = (indices_a.split_last()?, indices_b.split_last()?);
    if memref_a != memref_b || outer_a != outer_b {
        return None;
    }
    let ((terms_a, start_a), (terms_b, start_b)) = (offset_form(*last_a), offset_form(*last_b));
    Some([(terms_a, start_a, width_a), (terms_b, start_b, width_b)])
}

/// Replaces the result-less `guard` by an `scf.if` with one result that
/// region `taken` sets to `value` and the other leaves at `carried`;
/// returns that result.
fn yield_through<'c>(
    context: &'c Context,
    guard: OperationRef<'c, 'c>,
    taken: usize,
    value: Value<'c, 'c>,
    carried: Value<'c, 'c>,
) -> Option<Value<'c, 'c>> {
    let location = guard.location();
    let builder = Builder::before(context, guard)?.at(location);
    let branch = |region: usize| {
        let block = Block::new(&[]);
        let end = block.append_operation(scf::r#yield(&[if region == taken { value } else { carried }], location));
        let end: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(end.to_raw()) };
        if let Some(old) = guard.region(region).ok().and_then(|r| r.first_block()) {
            move_until_terminator(old.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), end);
        }
        let new_region = Region::new();
        new_region.append_block(block);
        new_region
    };
    let condition = detach(guard.operand(0).ok()?);
    let new_if = builder.insert(scf::r#if(condition, &[value.r#type()], branch(0), branch(1), location));
    erase(guard);
    Some(detach(new_if.result(0).ok()?.into()))
}
