//! `defer-vector-reductions`: a sum that adds the lanes of a vector to a
//! scalar step after step, `s = s + reduce(v_k)` (what `vectorize-loops`
//! makes of a dot product in a reduction loop: an SDDMM's features in
//! 16-byte steps), adds the vectors instead and sums their lanes once, at
//! the end. In a loop the carried scalar becomes a carried vector; in
//! straight-line code (a loop unrolled whole) the chain of additions
//! becomes a chain of vector additions. A step then costs one vector
//! multiply-add, not a multiply, a lane-by-lane chain of adds and an add,
//! and its lanes' sums no longer wait on one another.
//!
//! Factors that every step multiplies by the same value (the non-zero's
//! value `a` in SDDMM's `a * x_k * y_k`, defined outside the loop) leave
//! the sum: `sum(a * x_k * y_k) = a * sum(x_k * y_k)`; a factor that is a
//! broadcast scalar multiplies the reduced scalar, once.
//!
//! The terms are added in another order, as vectorizing them already
//! did: results move by rounding only.

use crate::{
    accumulation_chain::scalar_type,
    axis::detach,
    ir_builder::{additive_identity, erase, is_float, replace_uses_where, Builder},
    ir_query::{block_argument, defined_outside, op_name, op_result, use_count, users},
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        Location, RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "DeferVectorReductions",
    argument: "defer-vector-reductions",
    description: "Add vectors instead of their lane sums in chains and loops of s = s + vector.reduction<add>(v), \
                  and take the terms' common factors out of the sum",
    options: &[],
    dependent_dialects: "arith,vector",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // Each rewrite removes a lane sum from a loop or a chain, or a factor
    // from a lane sum, so this ends.
    while let Some(chain) = find(root) {
        if rewrite(context, &chain).is_none() {
            break;
        }
    }
    Ok(())
}

/// `start + reduce(v_1) + ... + reduce(v_n)`, one addition after another
/// in one block.
struct Chain<'c> {
    start: Value<'c, 'c>,
    /// Each step's addition and its `vector.reduction`.
    links: Vec<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)>,
    /// The loop and the position of its carried value, when the chain
    /// runs from a loop's iteration argument to its yield.
    carried: Option<(OperationRef<'c, 'c>, usize)>,
    /// Each step's multiplicative factors, and those every step shares
    /// that can leave the sum (vectors, then broadcast scalars).
    factors: Vec<Vec<Value<'c, 'c>>>,
    common: Vec<Value<'c, 'c>>,
}

fn find<'c>(root: OperationRef<'c, '_>) -> Option<Chain<'c>> {
    let mut found = None;
    root.walk(WalkOrder::PostOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op_name(&op) == "vector.reduction" {
            found = link_of(op).and_then(|(add, _)| chain_through(add)).filter(worth_rewriting);
        }
        if found.is_some() {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// The addition `s + reduce(v)` that a lane sum of `reduction` feeds,
/// with `s`: a `vector.reduction <add>` without accumulator operand, used
/// once, by an addition in its block.
fn link_of<'c>(reduction: OperationRef<'c, 'c>) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>)> {
    if op_name(&reduction) != "vector.reduction"
        || reduction.operand_count() != 1
        || !reduction.attribute("kind").ok()?.to_string().contains("<add>")
    {
        return None;
    }
    let sum: Value<'c, 'c> = detach(reduction.result(0).ok()?.into());
    let [add] = users(sum)[..] else { return None };
    let add_name = if is_float(sum.r#type()) { "arith.addf" } else { "arith.addi" };
    if op_name(&add) != add_name || add.block() != reduction.block() {
        return None;
    }
    let (a, b) = (detach(add.operand(0).ok()?), detach(add.operand(1).ok()?));
    match (a == sum, b == sum) {
        (true, false) => Some((add, b)),
        (false, true) => Some((add, a)),
        _ => None,
    }
}

/// The addition that makes `value`, if it is a link used only by the next.
fn link_making<'c>(value: Value<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let add: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op_result(value).ok()?.owner().to_raw()) };
    (use_count(value) == 1 && reduction_of(add).is_some()).then_some(add)
}

/// The whole chain that the link `add` belongs to.
fn chain_through<'c>(add: OperationRef<'c, 'c>) -> Option<Chain<'c>> {
    let block = add.block()?;
    let mut head = add;
    let mut start;
    loop {
        let reduction = reduction_of(head)?;
        start = link_of(reduction)?.1;
        match link_making(start) {
            Some(previous) if previous.block() == Some(block) => head = previous,
            _ => break,
        }
    }
    // Forward: the one user of each link's sum, where it adds another lane
    // sum to it.
    let mut links = vec![(head, reduction_of(head)?)];
    loop {
        let value: Value<'c, 'c> = detach(links.last()?.0.result(0).ok()?.into());
        let [next] = users(value)[..] else { break };
        let Some(reduction) = reduction_of(next) else { break };
        if next.block() != Some(block) || link_of(reduction).map(|(_, sum)| sum) != Some(value) {
            break;
        }
        links.push((next, reduction));
    }
    let vector_type = links[0].1.operand(0).ok()?.r#type();
    if links.iter().any(|(_, r)| r.operand(0).map(|v| v.r#type()).ok() != Some(vector_type)) {
        return None;
    }
    let carried = carried_by_loop(start, links.last()?.0);
    let factors: Vec<Vec<Value<'c, 'c>>> =
        links.iter().map(|(_, r)| r.operand(0).ok().map(|v| factors_of(detach(v), block))).collect::<Option<_>>()?;
    let common = common_factors(&factors, carried.map(|(loop_op, _)| loop_op), links.len());
    Some(Chain { start, links, carried, factors, common })
}

/// The `vector.reduction` that the link `add` adds.
fn reduction_of<'c>(add: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    (0..2).find_map(|n| {
        let operand = detach(add.operand(n).ok()?);
        let reduction: OperationRef<'c, 'c> =
            unsafe { OperationRef::from_raw(op_result(operand).ok()?.owner().to_raw()) };
        link_of(reduction).filter(|(link, _)| *link == add).map(|_| reduction)
    })
}

/// The `scf.for` and carried position, when `start` is an iteration
/// argument of the loop whose body holds the chain, used by it alone,
/// and the chain's end goes to the loop's yield in the same position.
fn carried_by_loop<'c>(start: Value<'c, 'c>, tail: OperationRef<'c, 'c>) -> Option<(OperationRef<'c, 'c>, usize)> {
    let argument = block_argument(start).ok()?;
    let body = argument.owner();
    let loop_op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(body.parent_operation()?.to_raw()) };
    let position = argument.argument_number().checked_sub(1)?;
    let end: Value<'c, 'c> = detach(tail.result(0).ok()?.into());
    let terminator = body.terminator()?;
    let yields_end = terminator.operand(position).map(detach).ok() == Some(end);
    (op_name(&loop_op) == "scf.for"
        && tail.block().map(|b| b.to_raw().ptr) == Some(body.to_raw().ptr)
        && use_count(start) == 1
        && users(end)[..] == [terminator]
        && yields_end)
        .then_some((loop_op, position))
}

/// The values a term multiplies together, through multiplications in
/// `block` that nothing else uses.
fn factors_of<'c>(value: Value<'c, 'c>, block: melior::ir::BlockRef<'c, 'c>) -> Vec<Value<'c, 'c>> {
    let multiply = if is_float(scalar_type(value.r#type())) { "arith.mulf" } else { "arith.muli" };
    let definer = op_result(value).ok().map(|r| unsafe { OperationRef::<'c, 'c>::from_raw(r.owner().to_raw()) });
    match definer {
        Some(op) if op_name(&op) == multiply && op.block() == Some(block) && use_count(value) == 1 => {
            op.operands().flat_map(|operand| factors_of(detach(operand), block)).collect()
        }
        _ => vec![value],
    }
}

/// The factors in every term that may leave the sum: those defined
/// outside the loop when it carries the sum; with one term, only
/// broadcast scalars (a vector factor would cost as much outside).
/// Vectors first, then broadcasts. Empty if some term would be left with
/// no factor.
fn common_factors<'c>(
    factors: &[Vec<Value<'c, 'c>>],
    loop_op: Option<OperationRef<'c, 'c>>,
    terms: usize,
) -> Vec<Value<'c, 'c>> {
    let mut remaining: Vec<Vec<Value<'c, 'c>>> = factors.to_vec();
    let mut common = Vec::new();
    // A loop that may not run would add `factor * 0` where it added
    // nothing (NaN for an infinite factor).
    if loop_op.is_some_and(|l| !runs(l)) {
        return Vec::new();
    }
    for &factor in &factors[0] {
        let outside = loop_op.is_none_or(|l| defined_outside(factor, l));
        let movable = outside && (terms > 1 || loop_op.is_some() || broadcast_source(factor).is_some());
        if !movable || !remaining.iter().all(|r| r.contains(&factor)) {
            continue;
        }
        for r in &mut remaining {
            let n = r.iter().position(|&f| f == factor).unwrap_or(0);
            r.remove(n);
        }
        common.push(factor);
    }
    if remaining.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    common.sort_by_key(|&f| broadcast_source(f).is_some());
    common
}

/// Whether `loop_op`'s bounds are constants that make it run at least once.
fn runs(loop_op: OperationRef<'_, '_>) -> bool {
    let bound = |n| loop_op.operand(n).ok().and_then(|v| crate::ir_query::constant_index(v));
    matches!((bound(0), bound(1), bound(2)), (Some(lower), Some(upper), Some(step)) if step > 0 && upper > lower)
}

fn worth_rewriting(chain: &Chain<'_>) -> bool {
    chain.carried.is_some() || chain.links.len() > 1 || !chain.common.is_empty()
}

/// The scalar that `value` broadcasts, if it is a `vector.broadcast` of one.
fn broadcast_source<'c>(value: Value<'c, 'c>) -> Option<Value<'c, 'c>> {
    let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op_result(value).ok()?.owner().to_raw()) };
    let source = detach(op.operand(0).ok()?);
    (op_name(&op) == "vector.broadcast" && source.r#type() == scalar_type(value.r#type())).then_some(source)
}

fn add<'c>(builder: &Builder<'c>, lhs: Value<'c, 'c>, rhs: Value<'c, 'c>) -> Value<'c, 'c> {
    let location = builder.location;
    match is_float(scalar_type(lhs.r#type())) {
        true => builder.value(arith::addf(lhs, rhs, location)),
        false => builder.value(arith::addi(lhs, rhs, location)),
    }
}

fn mul<'c>(builder: &Builder<'c>, lhs: Value<'c, 'c>, rhs: Value<'c, 'c>) -> Value<'c, 'c> {
    let location = builder.location;
    match is_float(scalar_type(lhs.r#type())) {
        true => builder.value(arith::mulf(lhs, rhs, location)),
        false => builder.value(arith::muli(lhs, rhs, location)),
    }
}

fn rewrite<'c>(context: &'c Context, chain: &Chain<'c>) -> Option<()> {
    let (tail, last_reduction) = *chain.links.last()?;
    let location: Location<'c> = tail.location();
    let vector_type = last_reduction.operand(0).ok()?.r#type();
    // The scalar the sum starts from, and the value that ends it now.
    let (initial, old_end, mut sum) = match chain.carried {
        Some((loop_op, position)) => {
            let initial = detach(loop_op.operand(3 + position).ok()?);
            let zero = additive_identity(context, vector_type)?;
            let zero = Builder::before(context, loop_op)?.at(location).value(arith::constant(context, zero, location));
            unsafe { OperationRefMut::from_raw(loop_op.to_raw()) }.set_operand(3 + position, zero);
            chain.start.set_type(vector_type);
            let result = loop_op.result(position).ok()?;
            result.set_type(vector_type);
            (initial, detach(result.into()), Some(chain.start))
        }
        None => (chain.start, detach(tail.result(0).ok()?.into()), None),
    };
    // Each term without the common factors, added to the carried vector
    // or to the terms before it, at its addition: the term and the sum
    // before it are both computed there, in whatever order the lane sums
    // were.
    for ((link, reduction), factors) in chain.links.iter().zip(&chain.factors) {
        let builder = Builder::before(context, *link)?.at(location);
        let mut remaining = factors.clone();
        for common in &chain.common {
            let n = remaining.iter().position(|f| f == common)?;
            remaining.remove(n);
        }
        let term = match remaining.len() == factors.len() {
            true => detach(reduction.operand(0).ok()?),
            false => remaining[1..].iter().fold(remaining[0], |product, &f| mul(&builder, product, f)),
        };
        sum = Some(match sum {
            Some(sum) => add(&builder, sum, term),
            None => term,
        });
    }
    let sum = sum?;
    // What used the sum's end before; the ops built below use it too.
    let old_users = users(old_end);
    let (builder, mut vector) = match chain.carried {
        Some((loop_op, position)) => {
            let terminator = loop_op.region(0).ok()?.first_block()?.terminator()?;
            unsafe { OperationRefMut::from_raw(terminator.to_raw()) }.set_operand(position, sum);
            (Builder::before(context, loop_op.next_in_block()?)?, old_end)
        }
        None => (Builder::before(context, tail.next_in_block()?)?, sum),
    };
    let builder = builder.at(location);
    for &factor in chain.common.iter().filter(|&&f| broadcast_source(f).is_none()) {
        vector = mul(&builder, vector, factor);
    }
    let reduction = builder.insert_clone(last_reduction);
    unsafe { OperationRefMut::from_raw(reduction.to_raw()) }.set_operand(0, vector);
    let mut total: Value<'c, 'c> = detach(reduction.result(0).ok()?.into());
    for &factor in &chain.common {
        if let Some(scalar) = broadcast_source(factor) {
            total = mul(&builder, total, scalar);
        }
    }
    let total = add(&builder, initial, total);
    replace_uses_where(old_end, total, |user| old_users.contains(&user));
    for &(link, reduction) in chain.links.iter().rev() {
        let operand = detach(reduction.operand(0).ok()?);
        erase(link);
        erase(reduction);
        erase_unused(operand);
    }
    Some(())
}

/// Erases the multiplications (and broadcasts) that computed `value` once
/// nothing uses them.
fn erase_unused(value: Value<'_, '_>) {
    if use_count(value) != 0 {
        return;
    }
    let Ok(result) = op_result(value) else { return };
    let op = result.owner();
    if !matches!(op_name(&op).as_str(), "arith.mulf" | "arith.muli" | "vector.broadcast") {
        return;
    }
    let mut operands: Vec<_> = op.operands().map(detach).collect();
    // `x * x` names its operand twice; it is erased once.
    operands.dedup();
    erase(op);
    for operand in operands {
        erase_unused(operand);
    }
}
