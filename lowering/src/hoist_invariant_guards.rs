//! `hoist-invariant-guards`: loop unswitching at stage III. An `scf.if`
//! in a loop body whose condition does not change in the loop (the tail
//! guard of a split feature loop, the alignment check of a vectorized one)
//! moves out: `for { pre; if c {A} else {B}; post }` becomes
//! `if c { for { pre; A; post } } else { for { pre; B; post } }`.
//! Each iteration would have taken the same branch, so this holds for any
//! body. It matters because the guard otherwise sits between a reduction
//! loop and the accumulator that `promote-accumulators` keeps in a
//! register.
//!
//! The pure arithmetic computing the condition inside the loop leaves it
//! too, except divisions by values that may be zero. A loop holding a
//! `gpu.barrier` or a warp shuffle (`ir_query::holds_sync`) keeps a guard
//! whose condition depends on the thread: all threads must reach the same
//! barriers and shuffles.

use crate::{
    axis::detach,
    ir_builder::{inline_region, region_with_block, Builder},
    ir_query::{defined_outside, holds_sync, op_name, speculatable, thread_dependent},
    merge_alignment_versions::VERSION,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::scf,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        RegionLike, Value,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "HoistInvariantGuards",
    argument: "hoist-invariant-guards",
    description: "Unswitch scf.for loops over scf.if conditions that do not change in the loop",
    options: &[],
    dependent_dialects: "scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // Each unswitch moves a guard out of one loop, so this ends.
    while let Some((for_op, if_op, slice)) = find(root) {
        unswitch(context, for_op, if_op, &slice);
    }
    Ok(())
}

type Candidate<'c> = (OperationRef<'c, 'c>, OperationRef<'c, 'c>, Vec<OperationRef<'c, 'c>>);

/// The first loop (innermost first) holding a guard that can leave it, the
/// guard, and the ops of the loop body its condition needs.
fn find<'c>(root: OperationRef<'c, '_>) -> Option<Candidate<'c>> {
    let mut found = None;
    root.walk(WalkOrder::PostOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op_name(&op) != "scf.for" || op.result_count() != 0 {
            return WalkResult::Advance;
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return WalkResult::Advance };
        let mut next = body.first_operation();
        while let Some(inner) = next {
            next = inner.next_in_block();
            let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
            if op_name(&inner) != "scf.if" || inner.result_count() != 0 {
                continue;
            }
            let Ok(condition) = inner.operand(0) else { continue };
            // Threads that take different branches around a barrier
            // would wait at different ones.
            if holds_sync(op) && thread_dependent(detach(condition)) {
                continue;
            }
            if let Some(slice) = invariant_slice(detach(condition), op) {
                found = Some((op, inner, slice));
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    found
}

/// The ops of `loop_op`'s body that compute `value`, in body order, if
/// they can all leave the loop; `None` if `value` changes in the loop.
fn invariant_slice<'c>(value: Value<'c, 'c>, loop_op: OperationRef<'c, 'c>) -> Option<Vec<OperationRef<'c, 'c>>> {
    let body = loop_op.region(0).ok()?.first_block()?;
    let mut slice: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        if defined_outside(value, loop_op) {
            continue;
        }
        let result = crate::ir_query::op_result(value).ok()?;
        let definer: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
        if definer.block()? != body || !speculatable(&definer) {
            return None;
        }
        if !slice.contains(&definer) {
            slice.push(definer);
            pending.extend(definer.operands().map(detach));
        }
    }
    // Body order, so that definitions stay before uses.
    let mut ordered = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if slice.contains(&op) {
            ordered.push(op);
        }
    }
    Some(ordered)
}

fn unswitch<'c>(
    context: &'c Context,
    for_op: OperationRef<'c, 'c>,
    if_op: OperationRef<'c, 'c>,
    slice: &[OperationRef<'c, 'c>],
) {
    for &op in slice {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(for_op);
    }
    let location = if_op.location();
    let Some(builder) = Builder::before(context, for_op) else { return };
    let builder = builder.at(location);
    let Ok(condition) = if_op.operand(0) else { return };
    let position = position_in_block(if_op);

    let (then_region, then_builder) = region_with_block(context, location, &[], scf::r#yield(&[], location));
    let (else_region, else_builder) = region_with_block(context, location, &[], scf::r#yield(&[], location));
    let unswitched = builder.insert(scf::r#if(detach(condition), &[], then_region, else_region, location));
    // An alignment version stays one around the loop: its branches still
    // do the same work, vector and scalar.
    if let Ok(marker) = if_op.attribute(VERSION) {
        unsafe { OperationRefMut::from_raw(unswitched.to_raw()) }.set_discardable_attribute(VERSION, marker);
    }

    // The taken-branch copy: the loop with the guard replaced by its
    // `then` ops; the original loop keeps the `else` ops.
    let copy = then_builder.insert_clone(for_op);
    else_builder.insert_existing(for_op);
    if let Some(copied_if) = nth_in_body(copy, position) {
        inline_region(copied_if, 0);
    }
    inline_region(if_op, 1);
}

fn position_in_block(op: OperationRef<'_, '_>) -> usize {
    let mut count = 0;
    let mut current = op.block().and_then(|b| b.first_operation());
    while let Some(inner) = current {
        if inner == op {
            break;
        }
        count += 1;
        current = inner.next_in_block();
    }
    count
}

fn nth_in_body<'c>(loop_op: OperationRef<'c, 'c>, position: usize) -> Option<OperationRef<'c, 'c>> {
    let body = loop_op.region(0).ok()?.first_block()?;
    let mut op = body.first_operation()?;
    for _ in 0..position {
        op = op.next_in_block()?;
    }
    Some(unsafe { OperationRef::from_raw(op.to_raw()) })
}
