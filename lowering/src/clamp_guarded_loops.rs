//! `clamp-guarded-loops`: a loop that `sparse-pos-split` left guarded and
//! that stayed sequential (bound to no thread, not vectorized, not
//! unrolled) stops at the split loop's end instead of testing every
//! position: `for i in lb..ub { if b + i < n {A} }` becomes
//! `for i in lb..min(ub, n - b) {A}`, and `if c * i + b < n` (the outer
//! part of a split over threads, `c` its thread count) bounds the loop
//! by `ceil((n - b) / c)`. The guard exists so that the inner
//! loop keeps a constant trip count for threads, vectors and unrolling;
//! a sequential loop gains nothing from it and runs `factor` iterations a
//! chunk however few positions are left, which for a factor far above the
//! loop's size is practically forever. A loop around the clamped one
//! that holds it and pure arithmetic only (the chunks of a split of a
//! split's inner loop) then stops at its last chunk that has a position,
//! and so on outwards.
//!
//! Only the split's own guard (marked `sptir.split_guard`) is rewritten:
//! it compares a position, which is never negative, with the loop's end,
//! so the signed minimum is the unsigned comparison's bound. The loop
//! body must be that guard plus pure arithmetic, so that skipping the
//! iterations the guard refused skips nothing else. A loop with a barrier
//! or shuffle keeps its guard where the new bound would differ between
//! threads (all threads must meet the same barriers).

use crate::{
    axis::detach,
    ir_builder::{inline_region, Builder},
    ir_query::{constant_index, defined_outside, holds_sync, op_name, speculatable, thread_dependent},
    pass_registry::{PassDef, PassFailed, PassOptions},
    sparse_pos_split::SPLIT_GUARD,
};
use melior::{
    dialect::arith,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        Location, RegionLike, Value,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "ClampGuardedLoops",
    argument: "clamp-guarded-loops",
    description: "Turn a sequential split loop's guard into the loop's upper bound",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for guard in crate::ir_query::marked_ops(root, SPLIT_GUARD) {
        let Some((loop_op, bound)) = clampable(guard) else { continue };
        let location = guard.location();
        // A split of a split's inner loop: once the innermost loop stops
        // at the end, the loops around it run empty chunks past it, as
        // many as the outer factor allows; each stops where its chunks do.
        let mut outer = enclosing_bound(loop_op, &bound);
        clamp(context, loop_op, location, &bound);
        inline_region(guard, 0);
        while let Some((loop_op, bound)) = outer {
            outer = enclosing_bound(loop_op, &bound);
            clamp(context, loop_op, location, &bound);
        }
    }
    Ok(())
}

/// For `inner`, about to be bounded by `bound`: the loop around it and
/// that loop's bound, where the loop holds `inner` and pure arithmetic
/// only and `inner` runs from 0 to a positive constant. Clamped, `inner`
/// runs iff `end - sum(base) > 0`; with `sum(base) = c * j + sum(b)`, `j`
/// the outer induction variable, that is the guard `c * j + sum(b) < end`
/// for the outer loop.
fn enclosing_bound<'c>(inner: OperationRef<'c, 'c>, bound: &Bound<'c>) -> Option<(OperationRef<'c, 'c>, Bound<'c>)> {
    if constant_index(detach(inner.operand(0).ok()?)) != Some(0)
        || !constant_index(detach(inner.operand(1).ok()?)).is_some_and(|n| n > 0)
    {
        return None;
    }
    let (loop_op, induction) = loop_around(inner)?;
    if !defined_outside(bound.end, loop_op) {
        return None;
    }
    let mut base = Vec::new();
    let mut coefficient = 0i64;
    for &term in &bound.base {
        coefficient = coefficient.checked_add(sum_terms(term, induction, loop_op, &mut base, 0)?)?;
    }
    if coefficient < 1 {
        return None;
    }
    if holds_sync(loop_op) && (thread_dependent(bound.end) || base.iter().any(|&b| thread_dependent(b))) {
        return None;
    }
    Some((loop_op, Bound { end: bound.end, base, coefficient }))
}

/// What a guard bounds its loop by: it tests `b_1 + ... + c * i < n`
/// with `n` and the `b`s known before the loop, `i` its induction
/// variable and `c` a positive constant.
struct Bound<'c> {
    end: Value<'c, 'c>,
    base: Vec<Value<'c, 'c>>,
    coefficient: i64,
}

/// The `scf.for` without results directly around `op`, and its induction
/// variable, where its body is `op` plus pure arithmetic: skipping an
/// iteration in which `op` does nothing then skips nothing else.
fn loop_around<'c>(op: OperationRef<'c, 'c>) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>)> {
    let loop_op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.parent_operation()?.to_raw()) };
    if op_name(&loop_op) != "scf.for" || loop_op.result_count() != 0 {
        return None;
    }
    let body = loop_op.region(0).ok()?.first_block()?;
    let induction: Value = detach(body.argument(0).ok()?.into());
    let mut next = body.first_operation();
    while let Some(other) = next {
        next = other.next_in_block();
        let other: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(other.to_raw()) };
        if other != op && op_name(&other) != "scf.yield" && !speculatable(&other) {
            return None;
        }
    }
    Some((loop_op, induction))
}

/// The loop `guard` can bound, and the bound.
fn clampable<'c>(guard: OperationRef<'c, 'c>) -> Option<(OperationRef<'c, 'c>, Bound<'c>)> {
    if op_name(&guard) != "scf.if" || guard.result_count() != 0 || !region_empty(guard, 1) {
        return None;
    }
    let (loop_op, induction) = loop_around(guard)?;
    let condition = defining(detach(guard.operand(0).ok()?))?;
    if op_name(&condition) != "arith.cmpi" || !is_less_than(condition) {
        return None;
    }
    let position = detach(condition.operand(0).ok()?);
    let end = detach(condition.operand(1).ok()?);
    if !defined_outside(end, loop_op) {
        return None;
    }
    let mut base = Vec::new();
    let coefficient = sum_terms(position, induction, loop_op, &mut base, 0)?;
    if coefficient < 1 {
        return None;
    }
    if holds_sync(loop_op) && (thread_dependent(end) || base.iter().any(|&b| thread_dependent(b))) {
        return None;
    }
    Some((loop_op, Bound { end, base, coefficient }))
}

/// `ult` or `slt`: the split's guard is `ult`, and a canonicalization may
/// not change it into anything else that still bounds from above.
fn is_less_than(cmpi: OperationRef<'_, '_>) -> bool {
    let predicate =
        cmpi.attribute("predicate").ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok());
    predicate.is_some_and(|p| [arith::CmpiPredicate::Slt as i64, arith::CmpiPredicate::Ult as i64].contains(&p.value()))
}

/// Splits `value` into a multiple of `induction` plus terms known before
/// `loop_op`; returns the multiple (`None`: not such a sum).
fn sum_terms<'c>(
    value: Value<'c, 'c>,
    induction: Value<'c, 'c>,
    loop_op: OperationRef<'c, 'c>,
    terms: &mut Vec<Value<'c, 'c>>,
    depth: usize,
) -> Option<i64> {
    if value == induction {
        return Some(1);
    }
    if defined_outside(value, loop_op) {
        terms.push(value);
        return Some(0);
    }
    let op = defining(value)?;
    let (left, right) = (detach(op.operand(0).ok()?), detach(op.operand(1).ok()?));
    match op_name(&op).as_str() {
        "arith.addi" if depth <= 16 => {
            let left = sum_terms(left, induction, loop_op, terms, depth + 1)?;
            let right = sum_terms(right, induction, loop_op, terms, depth + 1)?;
            left.checked_add(right)
        }
        "arith.muli" => match (constant_index(left), constant_index(right)) {
            (None, Some(c)) if left == induction && c > 0 => Some(c),
            (Some(c), None) if right == induction && c > 0 => Some(c),
            _ => None,
        },
        _ => None,
    }
}

fn defining<'c>(value: Value<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let result = crate::ir_query::op_result(value).ok()?;
    Some(unsafe { OperationRef::from_raw(result.owner().to_raw()) })
}

fn region_empty(op: OperationRef<'_, '_>, index: usize) -> bool {
    op.region(index).ok().and_then(|r| r.first_block()).is_none()
}

fn clamp<'c>(context: &'c Context, loop_op: OperationRef<'c, 'c>, location: Location<'c>, bound: &Bound<'c>) {
    let Some(builder) = Builder::before(context, loop_op) else { return };
    let builder = builder.at(location);
    let left = bound.base.iter().fold(bound.end, |left, &b| builder.sub(left, b));
    // c * i < left  <=>  i < ceil(left / c), for a positive c.
    let left = match bound.coefficient {
        1 => left,
        c => builder.value(arith::ceildivsi(left, builder.index(c), location)),
    };
    let Ok(upper) = loop_op.operand(1) else { return };
    let clamped = builder.value(arith::minsi(detach(upper), left, location));
    unsafe { OperationRefMut::from_raw(loop_op.to_raw()) }.set_operand(1, clamped);
}
