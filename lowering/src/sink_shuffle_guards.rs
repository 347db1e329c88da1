//! `sink-shuffle-guards`: every lane of a warp shuffle must reach it, so a
//! guard that tests the lane (the tail of a split bound to threadIdx.x: a
//! row's last chunk of non-zeros) cannot stay around a loop that holds a
//! warp-shuffled accumulation (`sptir.shuffle`), as it does when the
//! features are walked in turn inside the lanes' non-zero:
//!
//! ```text
//! scf.if %lane_in_row {            scf.for %k {
//!   %col = load ...                  %t = scf.if %lane_in_row -> f32 {
//!   scf.for %k {          becomes      %col = load ...
//!     c[k] += a * b[col, k]            yield a * b[col, k]
//!   }                                } else { yield 0 }
//! }                                  c[k] += %t
//!                                  }
//! ```
//!
//! The loop leaves the guard, which then guards only the term; a lane out
//! of range adds zero. The ops before the loop in the guard (loads of the
//! non-zero's column and value) run in each iteration, under the guard.
//! Inside the loop there may be more loops and guards that every lane
//! answers alike (split feature chunks, the tail guard of each unrolled
//! copy of a step): each block holding accumulations gets its own guard
//! around its terms. Where the features were unrolled whole, the lane
//! guard's own block holds the accumulations, and it becomes the guard of
//! their terms. Every lane must be able to run what is left outside: loop
//! bounds, guard conditions and the accumulated elements come from
//! arithmetic on values from before the lane guard, and the guard holds
//! nothing else that writes memory.

use crate::{
    axis::detach,
    ir_builder::{additive_identity, erase, hoist_before, if_else, Builder},
    ir_query::{accumulation, depends_on_launch_ids, marked_ops, op_name, speculatable, use_count},
    lower_loop_bindings::SHUFFLE,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "SinkShuffleGuards",
    argument: "sink-shuffle-guards",
    description: "Move a lane guard around a loop holding a warp-shuffled accumulation into the loop, around the term",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for store in marked_ops(root, SHUFFLE) {
        if let Some(candidate) = candidate(store) {
            sink(context, candidate);
        }
    }
    Ok(())
}

struct Candidate<'c> {
    guard: OperationRef<'c, 'c>,
    /// The op in the guard around the accumulations: a loop, or a guard
    /// that every lane answers alike; none where the accumulations are in
    /// the guard's own block (a loop unrolled whole).
    outer: Option<OperationRef<'c, 'c>>,
    /// Values that the ops leaving the guard use, some computed in it.
    hoisted: Vec<Value<'c, 'c>>,
    leaves: Vec<Leaf<'c>>,
}

/// A block in `outer` that holds shuffled accumulations.
struct Leaf<'c> {
    /// Its ops, other than loops and guards, that compute the terms.
    term_ops: Vec<OperationRef<'c, 'c>>,
    /// Its ops that compute the elements' indices.
    place_ops: Vec<OperationRef<'c, 'c>>,
    /// Each accumulation's load, addition and term.
    accumulations: Vec<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Value<'c, 'c>)>,
}

fn lane_guard(op: &OperationRef<'_, '_>) -> bool {
    op_name(op) == "scf.if" && op.operand(0).is_ok_and(|c| depends_on_launch_ids(detach(c), 3..4))
}

/// A loop, or a guard every lane answers alike, without results.
fn plain(op: &OperationRef<'_, '_>) -> bool {
    op.result_count() == 0
        && match op_name(op).as_str() {
            "scf.for" => true,
            "scf.if" => !lane_guard(op) && empty_else(*op),
            _ => false,
        }
}

fn candidate<'c>(store: OperationRef<'c, 'c>) -> Option<Candidate<'c>> {
    // Up from the accumulation to the lane guard, through loops and guards
    // that every lane answers alike.
    let mut current = store;
    let mut outer = None;
    let guard = loop {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(current.parent_operation()?.to_raw()) };
        if lane_guard(&parent) {
            break parent;
        }
        if !plain(&parent) {
            return None;
        }
        outer = Some(parent);
        current = parent;
    };
    if guard.result_count() != 0 || !empty_else(guard) {
        return None;
    }
    let Some(outer) = outer else { return straight_line(guard) };
    // In the guard: values for the nest, nothing that writes, nothing
    // after it.
    let then_block = guard.region(0).ok()?.first_block()?;
    let mut next = then_block.first_operation();
    while let Some(op) = next {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        next = op.next_in_block();
        if op == outer {
            break;
        }
        if !computes(&op) {
            return None;
        }
    }
    if outer.next_in_block() != then_block.terminator() {
        return None;
    }
    // The nest: loops and guards every lane runs alike, arithmetic, and the
    // blocks (leaves) that hold accumulations and what computes their terms.
    let mut control = vec![outer];
    let mut shared: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut leaves = Vec::new();
    let mut nest_blocks = Vec::new();
    let mut pending = blocks_of(outer);
    while let Some(block) = pending.pop() {
        nest_blocks.push(block);
        let ops = ops_of(block);
        let mut accumulations = Vec::new();
        for &op in ops.iter().filter(|op| op.has_attribute(SHUFFLE)) {
            accumulations.push(shuffled_accumulation(op, block)?);
        }
        let mut accumulation_ops = Vec::new();
        let mut place = Vec::new();
        for &(load, add, _) in &accumulations {
            let store = crate::ir_query::users(detach(add.result(0).ok()?.into()))[0];
            accumulation_ops.extend([load, add, store]);
            place.extend(store.operands().skip(1).map(detach));
        }
        let place_slice = slice_in(block, &place);
        let (mut term_ops, mut place_ops) = (Vec::new(), Vec::new());
        for op in ops {
            if accumulation_ops.contains(&op) {
                continue;
            }
            if plain(&op) {
                control.push(op);
                pending.extend(blocks_of(op));
            } else if place_slice.contains(&op) || (accumulations.is_empty() && speculatable(&op)) {
                if !speculatable(&op) {
                    return None;
                }
                shared.push(op);
                if place_slice.contains(&op) {
                    place_ops.push(op);
                }
            } else if !accumulations.is_empty() && computes(&op) {
                term_ops.push(op);
            } else {
                return None;
            }
        }
        if !accumulations.is_empty() {
            leaves.push(Leaf { term_ops, place_ops, accumulations });
        }
    }
    // What runs for every lane takes only values from before the guard or
    // from the nest's loops and shared arithmetic, not the terms.
    let terms: Vec<OperationRef<'c, 'c>> = leaves.iter().flat_map(|l| l.term_ops.iter().copied()).collect();
    let lane_free = |v: Value<'c, 'c>| {
        crate::ir_query::computable_before(v, guard)
            || (nest_blocks.iter().any(|&block| defined_in(v, block))
                && crate::ir_query::op_result(v).map_or(true, |r| !terms.iter().any(|t| *t == r.owner())))
    };
    let mut hoisted = Vec::new();
    for op in control.iter().chain(&shared) {
        // A loop's or a guard's own operands: bounds and condition.
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        if operands.iter().any(|&v| !lane_free(v)) {
            return None;
        }
        hoisted.extend(operands);
    }
    for leaf in &leaves {
        for &(_, _, term) in &leaf.accumulations {
            // A term computed by every lane would stay unguarded.
            let guarded = crate::ir_query::op_result(term).is_ok_and(|r| leaf.term_ops.iter().any(|t| *t == r.owner()));
            if !guarded {
                return None;
            }
        }
    }
    Some(Candidate { guard, outer: Some(outer), hoisted, leaves })
}

/// The guard's own block as the one leaf: its accumulations, the
/// arithmetic on values from before the guard that indexes their elements,
/// and what computes their terms.
fn straight_line<'c>(guard: OperationRef<'c, 'c>) -> Option<Candidate<'c>> {
    let block = guard.region(0).ok()?.first_block()?;
    let ops = ops_of(block);
    let mut accumulations = Vec::new();
    for &op in ops.iter().filter(|op| op.has_attribute(SHUFFLE)) {
        accumulations.push(shuffled_accumulation(op, block)?);
    }
    let mut accumulation_ops = Vec::new();
    let mut place = Vec::new();
    for &(load, add, _) in &accumulations {
        let store = crate::ir_query::users(detach(add.result(0).ok()?.into()))[0];
        accumulation_ops.extend([load, add, store]);
        place.extend(store.operands().skip(1).map(detach));
    }
    let place_slice = slice_in(block, &place);
    let (mut term_ops, mut place_ops) = (Vec::new(), Vec::new());
    for op in ops.into_iter().filter(|op| !accumulation_ops.contains(op)) {
        if place_slice.contains(&op) {
            place_ops.push(op);
        } else if computes(&op) {
            term_ops.push(op);
        } else {
            return None;
        }
    }
    let free = |v: Value<'c, 'c>| {
        crate::ir_query::computable_before(v, guard)
            || crate::ir_query::op_result(v).is_ok_and(|r| place_ops.iter().any(|p| *p == r.owner()))
    };
    if place_ops.iter().any(|op| !speculatable(op) || op.operands().any(|v| !free(detach(v)))) {
        return None;
    }
    let hoisted = place.clone();
    Some(Candidate { guard, outer: None, hoisted, leaves: vec![Leaf { term_ops, place_ops, accumulations }] })
}

fn blocks_of<'c>(op: OperationRef<'c, 'c>) -> Vec<melior::ir::BlockRef<'c, 'c>> {
    (0..op.region_count()).filter_map(|n| op.region(n).ok()?.first_block()).collect()
}

/// The ops of `block` but its terminator.
fn ops_of<'c>(block: melior::ir::BlockRef<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if next.is_some() {
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
    }
    ops
}

/// The load, addition and term of `store`, a shuffled `m[i] = m[i] + term`
/// in `block` whose load and sum serve it alone.
fn shuffled_accumulation<'c>(
    store: OperationRef<'c, 'c>,
    block: melior::ir::BlockRef<'c, 'c>,
) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Value<'c, 'c>)> {
    let (load, term) = accumulation(store)?;
    let stored = detach(store.operand(0).ok()?);
    let add: OperationRef<'c, 'c> =
        unsafe { OperationRef::from_raw(crate::ir_query::op_result(stored).ok()?.owner().to_raw()) };
    let single = use_count(stored) == 1 && use_count(detach(load.result(0).ok()?.into())) == 1;
    (single && store.block()? == block && load.block()? == block && add.block()? == block).then_some((load, add, term))
}

/// Whether `if_op` has no else branch, or an empty one.
fn empty_else(if_op: OperationRef<'_, '_>) -> bool {
    if_op.region(1).ok().and_then(|r| r.first_block()).is_none_or(|b| b.first_operation() == b.terminator())
}

/// Arithmetic or a load: an op that may run again, or not at all, with
/// the same effect.
fn computes(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    op.region_count() == 0
        && (name.starts_with("arith.")
            || name.starts_with("index.")
            || name.starts_with("math.")
            || name.starts_with("vector.")
                && !matches!(name.as_str(), "vector.store" | "vector.maskedstore" | "vector.scatter" | "vector.print")
            || matches!(name.as_str(), "memref.load" | "memref.dim" | "memref.extract_aligned_pointer_as_index"))
}

fn defined_in(value: Value<'_, '_>, block: melior::ir::BlockRef<'_, '_>) -> bool {
    crate::ir_query::op_result(value).is_ok_and(|r| r.owner().block().is_some_and(|b| b == block))
        || crate::ir_query::block_argument(value).is_ok_and(|a| a.owner() == block)
}

/// The ops of `block` that compute `values`.
fn slice_in<'c>(block: melior::ir::BlockRef<'c, 'c>, values: &[Value<'c, 'c>]) -> Vec<OperationRef<'c, 'c>> {
    let mut slice: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut pending = values.to_vec();
    while let Some(value) = pending.pop() {
        let Ok(result) = crate::ir_query::op_result(value) else { continue };
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
        if op.block().is_some_and(|b| b == block) && !slice.contains(&op) {
            slice.push(op);
            pending.extend(op.operands().map(detach));
        }
    }
    slice
}

fn sink<'c>(context: &'c Context, c: Candidate<'c>) -> Option<()> {
    let location = c.guard.location();
    // Values computed in the nest's blocks stay with their loops.
    for &value in c.hoisted.iter().filter(|&&v| crate::ir_query::computable_before(v, c.guard)) {
        hoist_before(value, c.guard);
    }
    let Some(outer) = c.outer else {
        return sink_straight_line(context, &c);
    };
    unsafe { OperationRefMut::from_raw(outer.to_raw()) }.move_before(c.guard);
    // What is left in the guard computes the terms' inputs: a copy of it
    // runs under the guard in each leaf.
    let before = ops_of(c.guard.region(0).ok()?.first_block()?);
    let condition = detach(c.guard.operand(0).ok()?);
    for leaf in &c.leaves {
        sink_into_leaf(context, leaf, &before, condition, location)?;
    }
    erase(c.guard);
    Some(())
}

/// Computes the leaf's terms under the lane guard, before its first
/// accumulation, and adds zero for a lane out of range.
fn sink_into_leaf<'c>(
    context: &'c Context,
    leaf: &Leaf<'c>,
    before: &[OperationRef<'c, 'c>],
    condition: Value<'c, 'c>,
    location: melior::ir::Location<'c>,
) -> Option<()> {
    let terms: Vec<Value<'c, 'c>> = leaf.accumulations.iter().map(|&(_, _, term)| term).collect();
    let types: Vec<_> = terms.iter().map(|t| t.r#type()).collect();
    let zeros = types.iter().map(|&t| additive_identity(context, t)).collect::<Option<Vec<_>>>()?;
    let first_load = leaf.accumulations.iter().map(|&(load, _, _)| load).find(|load| {
        leaf.accumulations.iter().all(|&(other, _, _)| other == *load || load.is_before_in_block(other))
    })?;
    // The elements' indices that come after it move up: the terms may
    // use them too, and only later ops did.
    for &op in leaf.place_ops.iter().filter(|op| first_load.is_before_in_block(**op)) {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(first_load);
    }
    let builder = Builder::before(context, first_load)?.at(location);
    let mut clones = Vec::new();
    let guarded = if_else(
        &builder,
        condition,
        &types,
        |then| {
            for &op in before {
                clones.push((op, then.insert_clone(op)));
            }
            for &op in &leaf.term_ops {
                then.insert_existing(op);
            }
            terms.clone()
        },
        |otherwise| zeros.iter().map(|&zero| otherwise.value(arith::constant(context, zero, location))).collect(),
    );
    // The leaf's term ops take the copies made in this leaf.
    let if_op = crate::ir_query::op_result(guarded[0]).ok()?.owner();
    for (original, clone) in clones {
        for n in 0..original.result_count() {
            let (old, new): (Value<'c, 'c>, Value<'c, 'c>) =
                (detach(original.result(n).ok()?.into()), detach(clone.result(n).ok()?.into()));
            for user in crate::ir_query::users(old) {
                if crate::ir_query::encloses(unsafe { OperationRef::from_raw(if_op.to_raw()) }, user) {
                    for position in 0..user.operand_count() {
                        if user.operand(position).map(detach).ok() == Some(old) {
                            unsafe { OperationRefMut::from_raw(user.to_raw()) }.set_operand(position, new);
                        }
                    }
                }
            }
        }
    }
    for (&(_, add, term), &value) in leaf.accumulations.iter().zip(&guarded) {
        let position = (0..2).find(|&n| add.operand(n).map(detach).ok() == Some(term))?;
        unsafe { OperationRefMut::from_raw(add.to_raw()) }.set_operand(position, value);
    }
    Some(())
}

/// The guard becomes the leaf's term guard, yielding its terms; the
/// indices go before it and the accumulations after it.
fn sink_straight_line<'c>(context: &'c Context, c: &Candidate<'c>) -> Option<()> {
    let leaf = c.leaves.first()?;
    let location = c.guard.location();
    for &op in &leaf.place_ops {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(c.guard);
    }
    let terms: Vec<Value<'c, 'c>> = leaf.accumulations.iter().map(|&(_, _, term)| term).collect();
    let types: Vec<_> = terms.iter().map(|t| t.r#type()).collect();
    let zeros = types.iter().map(|&t| additive_identity(context, t)).collect::<Option<Vec<_>>>()?;
    let builder = Builder::before(context, c.guard)?.at(location);
    let condition = detach(c.guard.operand(0).ok()?);
    let guarded = if_else(
        &builder,
        condition,
        &types,
        |then| {
            for &op in &leaf.term_ops {
                then.insert_existing(op);
            }
            terms.clone()
        },
        |otherwise| zeros.iter().map(|&zero| otherwise.value(arith::constant(context, zero, location))).collect(),
    );
    for op in ops_of(c.guard.region(0).ok()?.first_block()?) {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(c.guard);
    }
    for (&(_, add, term), &value) in leaf.accumulations.iter().zip(&guarded) {
        let position = (0..2).find(|&n| add.operand(n).map(detach).ok() == Some(term))?;
        unsafe { OperationRefMut::from_raw(add.to_raw()) }.set_operand(position, value);
    }
    erase(c.guard);
    Some(())
}
