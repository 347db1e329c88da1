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
//! of range adds zero (the identity of the accumulation's reduction: -inf
//! for a maximum). The ops before the loop in the guard (loads of the
//! non-zero's column and value) run in each iteration, under the guard.
//! The lane guard may hold several such loops (the unrolled copies of a
//! chunk loop), and inside them more loops and guards that every lane
//! answers alike (split feature chunks, the tail guard of each unrolled
//! copy of a step): each block holding accumulations, the lane guard's own
//! included (features unrolled whole), gets its own guard around its
//! terms. Every lane must be able to run what is left outside: loop
//! bounds, guard conditions and the accumulated elements come from
//! arithmetic on values from before the lane guard that do not depend on
//! the lane. The guard may hold nothing else that writes memory, and
//! nothing in it may read what the accumulations write (the reads would
//! move past the writes).

use crate::{
    axis::{detach, key},
    ir_builder::{erase, if_else, replace_uses_where, Builder},
    ir_query::{
        block_ops, depends_on_launch_ids, empty_else, marked_ops, op_name, reduction, root_memref, speculatable,
        use_count,
    },
    lower_loop_bindings::SHUFFLE,
    pass_registry::{PassDef, PassFailed, PassOptions},
    reduction::Reduction,
};
use melior::{
    dialect::arith,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        r#type::TypeLike,
        RegionLike, Value, ValueLike,
    },
    Context,
};
use std::collections::HashSet;

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
    /// The ops of the guard's block that every lane will run, in order:
    /// loops and guards every lane answers alike, arithmetic on values
    /// from before the guard, and the accumulations in the block itself.
    outside: Vec<OperationRef<'c, 'c>>,
    leaves: Vec<Leaf<'c>>,
}

/// A block in the lane guard that holds shuffled accumulations.
struct Leaf<'c> {
    /// Its ops, other than loops and guards, that compute the terms
    /// (none in the lane guard's own block, whose such ops run in every
    /// leaf).
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

/// How the ops of a block in the lane guard take part.
#[derive(Default)]
struct Part<'c> {
    control: Vec<OperationRef<'c, 'c>>,
    /// Arithmetic every lane runs (elements' indices among it).
    shared: Vec<OperationRef<'c, 'c>>,
    place_ops: Vec<OperationRef<'c, 'c>>,
    /// What computes the terms: arithmetic on loads, loads.
    terms: Vec<OperationRef<'c, 'c>>,
    accumulation_ops: Vec<OperationRef<'c, 'c>>,
    accumulations: Vec<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Value<'c, 'c>)>,
}

fn candidate<'c>(store: OperationRef<'c, 'c>) -> Option<Candidate<'c>> {
    // Up from the accumulation to the lane guard, through loops and guards
    // that every lane answers alike.
    let mut current = store;
    let guard = loop {
        let parent: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(current.parent_operation()?.to_raw()) };
        if lane_guard(&parent) {
            break parent;
        }
        if !plain(&parent) {
            return None;
        }
        current = parent;
    };
    if guard.result_count() != 0 || !empty_else(guard) {
        return None;
    }
    let guard_block = guard.region(0).ok()?.first_block()?;
    // Values every lane may compute alike: from before the guard, not
    // from the lane, or from the ops every lane runs in it.
    let mut everyone: HashSet<usize> = HashSet::new();
    let mut blocks = vec![guard_block];
    let mut parts: Vec<Part<'c>> = Vec::new();
    while let Some(block) = blocks.pop() {
        let part = classify(block, guard, &mut everyone)?;
        for &op in &part.control {
            blocks.extend(blocks_of(op));
        }
        parts.push(part);
    }
    let written: Vec<usize> = parts
        .iter()
        .flat_map(|p| p.accumulation_ops.iter())
        .filter(|op| op.has_attribute(SHUFFLE))
        .filter_map(|op| op.operand(1).ok().map(root_memref))
        .collect();
    let (guard_part, nested) = parts.split_first()?;
    // Reads of the accumulated memory would move past the writes.
    // (Inside a term's choice too: its loads use what they read from
    // outside it.)
    let reads_written = |op: &OperationRef<'c, 'c>| {
        used_from_outside(*op).into_iter().any(|v| v.r#type().is_mem_ref() && written.contains(&root_memref(v)))
    };
    if parts.iter().flat_map(|p| p.terms.iter()).any(reads_written) {
        return None;
    }
    let mut leaves = Vec::new();
    for part in std::iter::once(guard_part).chain(nested) {
        if part.accumulations.is_empty() {
            // Outside the lane guard's block, what computes terms must
            // serve a leaf's accumulations.
            if !std::ptr::eq(part, guard_part) && !part.terms.is_empty() {
                return None;
            }
            continue;
        }
        // A term must be computed under the guard.
        let computed_in = |v: Value<'c, 'c>| {
            crate::ir_query::op_result(v).is_ok_and(|r| {
                let owner = r.owner();
                part.terms.iter().chain(&guard_part.terms).any(|t| *t == owner)
            })
        };
        if part.accumulations.iter().any(|&(_, _, term)| !computed_in(term)) {
            return None;
        }
        let own_terms = if std::ptr::eq(part, guard_part) { Vec::new() } else { part.terms.clone() };
        leaves.push(Leaf {
            term_ops: own_terms,
            place_ops: part.place_ops.clone(),
            accumulations: part.accumulations.clone(),
        });
    }
    // A leaf's terms take values from before the guard, from what every
    // lane computes, and from the terms of its own block and the guard's.
    for part in nested {
        for op in &part.terms {
            let known = |v: Value<'c, 'c>| {
                crate::ir_query::defined_outside(v, guard)
                    || everyone.contains(&key(v))
                    || crate::ir_query::op_result(v).is_ok_and(|r| {
                        let owner = r.owner();
                        part.terms.iter().chain(&guard_part.terms).any(|t| *t == owner)
                    })
            };
            if used_from_outside(*op).into_iter().any(|v| !known(v)) {
                return None;
            }
        }
    }
    // The lane guard's block: what every lane runs leaves it in order, its
    // arithmetic first (the terms' copies in the leaves may use it).
    let outside = guard_part.shared.iter().copied().chain(
        block_ops(&guard_block)
            .into_iter()
            .filter(|op| !guard_part.terms.contains(op) && !guard_part.shared.contains(op)),
    );
    let outside = outside.collect();
    Some(Candidate { guard, outside, leaves })
}

/// Sorts the ops of `block` (in the lane guard) into those every lane runs
/// and those under the guard; `None` where one fits neither.
fn classify<'c>(
    block: melior::ir::BlockRef<'c, 'c>,
    guard: OperationRef<'c, 'c>,
    everyone: &mut HashSet<usize>,
) -> Option<Part<'c>> {
    let mut part = Part::default();
    // A loop's position: the same for every lane, as its bounds are.
    for argument in (0..block.argument_count()).filter_map(|n| block.argument(n).ok()) {
        everyone.insert(key(argument.into()));
    }
    let ops = block_ops(&block);
    for &op in ops.iter().filter(|op| op.has_attribute(SHUFFLE)) {
        let (load, add, term) = shuffled_accumulation(op, block)?;
        part.accumulation_ops.extend([load, add, op]);
        part.accumulations.push((load, add, term));
    }
    let place: Vec<Value<'c, 'c>> = part
        .accumulation_ops
        .iter()
        .filter(|op| op.has_attribute(SHUFFLE))
        .flat_map(|op| op.operands().skip(1).map(detach).collect::<Vec<_>>())
        .collect();
    let place_slice = slice_in(block, &place);
    let free = |v: Value<'c, 'c>, everyone: &HashSet<usize>| {
        (crate::ir_query::defined_outside(v, guard) && !depends_on_launch_ids(v, 3..4)) || everyone.contains(&key(v))
    };
    for op in ops {
        if part.accumulation_ops.contains(&op) {
            continue;
        }
        let operands_free = op.operands().all(|v| free(detach(v), everyone));
        if plain(&op) {
            if !operands_free {
                return None;
            }
            part.control.push(op);
        } else if speculatable(&op) && operands_free {
            for n in 0..op.result_count() {
                everyone.insert(key(op.result(n).ok()?.into()));
            }
            if place_slice.contains(&op) {
                part.place_ops.push(op);
            }
            part.shared.push(op);
        } else if computes(&op) && !place_slice.contains(&op) {
            part.terms.push(op);
        } else {
            return None;
        }
    }
    if place.iter().any(|&v| !free(v, everyone)) {
        return None;
    }
    Some(part)
}

fn blocks_of<'c>(op: OperationRef<'c, 'c>) -> Vec<melior::ir::BlockRef<'c, 'c>> {
    (0..op.region_count()).filter_map(|n| op.region(n).ok()?.first_block()).collect()
}

/// The load, addition and term of `store`, a shuffled `m[i] = m[i] + term`
/// (or another reduction: `max(m[i], term)`) in `block` whose load and
/// sum serve it alone.
fn shuffled_accumulation<'c>(
    store: OperationRef<'c, 'c>,
    block: melior::ir::BlockRef<'c, 'c>,
) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>, Value<'c, 'c>)> {
    let (load, term, _) = reduction(store)?;
    let stored = detach(store.operand(0).ok()?);
    let add: OperationRef<'c, 'c> =
        unsafe { OperationRef::from_raw(crate::ir_query::op_result(stored).ok()?.owner().to_raw()) };
    let single = use_count(stored) == 1 && use_count(detach(load.result(0).ok()?.into())) == 1;
    (single && store.block()? == block && load.block()? == block && add.block()? == block).then_some((load, add, term))
}

/// Arithmetic or a load: an op that may run again, or not at all, with
/// the same effect.
fn computes(op: &OperationRef<'_, '_>) -> bool {
    const READS: [&str; 17] = [
        "memref.load",
        "memref.dim",
        "memref.extract_aligned_pointer_as_index",
        "vector.load",
        "vector.transfer_read",
        "vector.broadcast",
        "vector.splat",
        "vector.extract",
        "vector.extractelement",
        "vector.insert",
        "vector.insertelement",
        "vector.reduction",
        "vector.fma",
        "vector.shuffle",
        "vector.bitcast",
        "vector.shape_cast",
        "vector.from_elements",
    ];
    let name = op_name(op);
    // A value chosen by a condition (a column's range check around the
    // gather of its row) is computed too, where its branches only compute.
    if name == "scf.if" && op.result_count() > 0 {
        return blocks_of(*op)
            .iter()
            .all(|block| block_ops(block).iter().all(|inner| op_name(inner) == "scf.yield" || computes(inner)));
    }
    op.region_count() == 0
        && (name.starts_with("arith.")
            || name.starts_with("index.")
            || name.starts_with("math.")
            || READS.contains(&name.as_str()))
}

/// The values `op` and the ops nested in it use that are defined outside
/// it.
fn used_from_outside<'c>(op: OperationRef<'c, 'c>) -> Vec<Value<'c, 'c>> {
    let mut used = Vec::new();
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
        let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
        for value in inner.operands() {
            let value = detach(value);
            if crate::ir_query::defined_outside(value, op) {
                used.push(value);
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    used
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
    for &op in &c.outside {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(c.guard);
    }
    // What is left in the guard computes the terms' inputs: a copy of it
    // runs under the guard in each leaf.
    let before = block_ops(&c.guard.region(0).ok()?.first_block()?);
    let condition = detach(c.guard.operand(0).ok()?);
    for leaf in &c.leaves {
        sink_into_leaf(context, leaf, &before, condition, location)?;
    }
    erase(c.guard);
    Some(())
}

/// Computes the leaf's terms under the lane guard, before its first
/// accumulation, and adds zero (the reduction's identity) for a lane out
/// of range.
fn sink_into_leaf<'c>(
    context: &'c Context,
    leaf: &Leaf<'c>,
    before: &[OperationRef<'c, 'c>],
    condition: Value<'c, 'c>,
    location: melior::ir::Location<'c>,
) -> Option<()> {
    let terms: Vec<Value<'c, 'c>> = leaf.accumulations.iter().map(|&(_, _, term)| term).collect();
    let types: Vec<_> = terms.iter().map(|t| t.r#type()).collect();
    let zeros = leaf
        .accumulations
        .iter()
        .zip(&types)
        .map(|(&(_, add, _), &t)| Reduction::of(&add)?.identity(context, t))
        .collect::<Option<Vec<_>>>()?;
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
            let (old, new) = (original.result(n).ok()?, clone.result(n).ok()?);
            replace_uses_where(old.into(), new.into(), |user| crate::ir_query::encloses(if_op, user));
        }
    }
    for (&(_, add, term), &value) in leaf.accumulations.iter().zip(&guarded) {
        let position = (0..2).find(|&n| add.operand(n).map(detach).ok() == Some(term))?;
        unsafe { OperationRefMut::from_raw(add.to_raw()) }.set_operand(position, value);
    }
    Some(())
}
