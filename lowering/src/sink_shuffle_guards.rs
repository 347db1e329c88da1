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
//! The loop must hold nothing but the accumulation and what computes its
//! term (arithmetic and loads), its bounds and the accumulated element
//! must not come from inside the guard, and the guard must hold nothing
//! else that writes memory.

use crate::{
    axis::detach,
    ir_builder::{additive_identity, erase, hoist_before, if_else, replace_uses, Builder},
    ir_query::{accumulation, depends_on_launch_ids, marked_ops, op_name, use_count},
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
    /// The outermost op in the guard around the accumulation: a loop.
    outer: OperationRef<'c, 'c>,
    /// Values that the ops leaving the guard use, some computed in it.
    hoisted: Vec<Value<'c, 'c>>,
    /// The innermost loop body's ops that compute the terms, in order.
    term_ops: Vec<OperationRef<'c, 'c>>,
    /// The innermost body's ops that compute the elements' indices, in order.
    place_ops: Vec<OperationRef<'c, 'c>>,
    /// Each accumulation's load, addition and term.
    accumulations: Vec<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Value<'c, 'c>)>,
}

fn candidate<'c>(store: OperationRef<'c, 'c>) -> Option<Candidate<'c>> {
    // From the accumulation up to the lane guard: loops, and guards that
    // every lane answers alike.
    let mut path: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut current = store;
    let guard = loop {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(current.parent_operation()?.to_raw()) };
        let lane_guard =
            op_name(&parent) == "scf.if" && parent.operand(0).is_ok_and(|c| depends_on_launch_ids(detach(c), 3..4));
        if lane_guard {
            break parent;
        }
        let plain = match op_name(&parent).as_str() {
            "scf.for" => true,
            "scf.if" => empty_else(parent),
            _ => false,
        };
        if !plain || parent.result_count() != 0 {
            return None;
        }
        path.push(parent);
        current = parent;
    };
    let outer = *path.last()?;
    if guard.result_count() != 0 || !empty_else(guard) || op_name(&outer) != "scf.for" {
        return None;
    }
    let then_block = guard.region(0).ok()?.first_block()?;
    // In the guard: values for the loop, nothing that writes, nothing
    // after it.
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
    // Outside the guard, or computed in the blocks on the path from values
    // that are: what may run for every lane.
    let path_blocks: Vec<melior::ir::BlockRef<'c, 'c>> =
        path.iter().filter_map(|op| op.region(0).ok()?.first_block()).collect();
    let lane_free = |v: Value<'c, 'c>| {
        crate::ir_query::computable_before(v, guard) || path_blocks.iter().any(|&block| defined_in(v, block))
    };
    if outer.operands().any(|bound| !crate::ir_query::computable_before(bound, guard)) {
        return None;
    }
    let innermost = *path_blocks.first()?;
    // The values from the guard that the ops outside it will use: its
    // arithmetic on values from before it, which moves out with the loop.
    let mut hoisted: Vec<Value<'c, 'c>> = outer.operands().map(detach).collect();
    for &block in path_blocks.iter().skip(1) {
        let mut next = block.first_operation();
        while let Some(inner) = next {
            let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
            next = inner.next_in_block();
            if next.is_none() {
                continue;
            }
            if !path.contains(&inner) && !crate::ir_query::speculatable(&inner) {
                return None;
            }
            if inner.operands().any(|v| !lane_free(detach(v))) {
                return None;
            }
            hoisted.extend(inner.operands().map(detach));
        }
    }
    // In the innermost loop: accumulations of terms into elements that
    // every lane can compute (the unrolled copies of one, say), and what
    // computes the terms.
    let mut accumulations = Vec::new();
    let mut next = innermost.first_operation();
    while let Some(op) = next {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        next = op.next_in_block();
        if op.has_attribute(SHUFFLE) {
            accumulations.push(shuffled_accumulation(op, innermost)?);
        }
    }
    let mut accumulation_ops = Vec::new();
    let mut place = Vec::new();
    for &(load, add, _) in &accumulations {
        let store = crate::ir_query::users(detach(add.result(0).ok()?.into()))[0];
        accumulation_ops.extend([load, add, store]);
        place.extend(store.operands().skip(1).map(detach));
    }
    let place_slice = slice_in(innermost, &place);
    let (mut term_ops, mut place_ops) = (Vec::new(), Vec::new());
    let mut next = innermost.first_operation();
    while let Some(op) = next {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        next = op.next_in_block();
        if accumulation_ops.contains(&op) || next.is_none() {
            continue;
        }
        if place_slice.contains(&op) {
            if !crate::ir_query::speculatable(&op) || op.operands().any(|v| !lane_free(detach(v))) {
                return None;
            }
            hoisted.extend(op.operands().map(detach));
            place_ops.push(op);
            continue;
        }
        if !computes(&op) {
            return None;
        }
        term_ops.push(op);
    }
    if place.iter().any(|&v| !lane_free(v)) {
        return None;
    }
    hoisted.extend(place);
    Some(Candidate { guard, outer, hoisted, term_ops, place_ops, accumulations })
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
    // Values computed in the path's blocks stay with their loops.
    for &value in c.hoisted.iter().filter(|&&v| crate::ir_query::computable_before(v, c.guard)) {
        hoist_before(value, c.guard);
    }
    unsafe { OperationRefMut::from_raw(c.outer.to_raw()) }.move_before(c.guard);
    // What is left in the guard computes the term's inputs: a copy of it
    // runs under the guard in each iteration.
    let then_block = c.guard.region(0).ok()?.first_block()?;
    let mut before = Vec::new();
    let mut next = then_block.first_operation();
    while let Some(op) = next {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        next = op.next_in_block();
        if next.is_some() {
            before.push(op);
        }
    }
    let condition = detach(c.guard.operand(0).ok()?);
    let terms: Vec<Value<'c, 'c>> = c.accumulations.iter().map(|&(_, _, term)| term).collect();
    let types: Vec<_> = terms.iter().map(|t| t.r#type()).collect();
    let zeros = types.iter().map(|&t| additive_identity(context, t)).collect::<Option<Vec<_>>>()?;
    // Before the first accumulation's load: every term is computed there.
    let first_load =
        c.accumulations.iter().map(|&(load, _, _)| load).find(|load| {
            c.accumulations.iter().all(|&(other, _, _)| other == *load || load.is_before_in_block(other))
        })?;
    // The elements' indices go first: the terms may use them too.
    for &op in &c.place_ops {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(first_load);
    }
    let builder = Builder::before(context, first_load)?.at(location);
    let mut clones = Vec::new();
    let guarded = if_else(
        &builder,
        condition,
        &types,
        |then| {
            for &op in &before {
                clones.push((op, then.insert_clone(op)));
            }
            for &op in &c.term_ops {
                then.insert_existing(op);
            }
            terms.clone()
        },
        |otherwise| zeros.iter().map(|&zero| otherwise.value(arith::constant(context, zero, location))).collect(),
    );
    for (original, clone) in clones {
        for n in 0..original.result_count() {
            replace_uses(original.result(n).ok()?.into(), clone.result(n).ok()?.into());
        }
    }
    for (&(_, add, term), &value) in c.accumulations.iter().zip(&guarded) {
        let position = (0..2).find(|&n| add.operand(n).map(detach).ok() == Some(term))?;
        unsafe { OperationRefMut::from_raw(add.to_raw()) }.set_operand(position, value);
    }
    erase(c.guard);
    Some(())
}
