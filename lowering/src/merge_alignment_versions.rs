//! `merge-alignment-versions`: consecutive run-time alignment versions of
//! `vectorize-loops` become one. `if a {X} else {X'}; ...; if a && b {Y}
//! else {Y'}` becomes `...; if a && b {X; Y} else {X'; Y'}`: the scalar
//! version X' computes what X does, so running it wherever `a && b` fails
//! is as correct as running X where `a` holds. This puts a row's zeroing
//! (aligned on C alone) and its accumulation (on C and B) in one block,
//! where `promote-accumulators` starts each sum from the stored zero
//! instead of loading it back, and drops the zeroing store.
//!
//! Only the versions' own ops move (marked `sptir.version`). Between the
//! two, ops must be pure or loads of memrefs the first version does not
//! touch, since the first version's ops move below them.

use crate::{
    axis::detach,
    ir_builder::{erase, move_until_terminator},
    ir_query::{op_name, speculatable},
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    BlockRef, RegionLike, Value,
};

pub const PASS: PassDef = PassDef {
    name: "MergeAlignmentVersions",
    argument: "merge-alignment-versions",
    description: "Join consecutive alignment versions (vectorize-loops) when one's condition implies the other's",
    options: &[],
    dependent_dialects: "",
    run,
};

/// The marker `vectorize-loops` puts on the `scf.if` choosing between a
/// vector version (then) and the scalar loop (else).
pub const VERSION: &str = "sptir.version";

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let mut blocks = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "scf.if" && op.has_attribute(VERSION) {
            if let Some(block) = op.block() {
                let block: BlockRef = unsafe { BlockRef::from_raw(block.to_raw()) };
                if !blocks.contains(&block) {
                    blocks.push(block);
                }
            }
        }
        WalkResult::Advance
    });
    for block in blocks {
        merge_in(block);
    }
    Ok(())
}

/// Merges, in order, each version into the next one that implies it.
fn merge_in(block: BlockRef<'_, '_>) {
    let mut pending: Option<OperationRef> = None;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
        if is_version(op) {
            if let Some(first) = pending.filter(|&first| implies(op, first)) {
                for region in 0..2 {
                    prepend_region(first, op, region);
                }
                erase(first);
            }
            pending = Some(op);
            continue;
        }
        let Some(first) = pending else { continue };
        if !may_move_below(first, op) {
            pending = None;
        }
    }
}

fn is_version(op: OperationRef<'_, '_>) -> bool {
    op_name(&op) == "scf.if" && op.has_attribute(VERSION) && op.result_count() == 0 && op.region_count() == 2
}

/// The values `condition` is the conjunction of (through `arith.andi`).
fn conjuncts<'c>(condition: Value<'c, 'c>, found: &mut Vec<Value<'c, 'c>>) {
    if let Ok(result) = crate::ir_query::op_result(condition) {
        let owner = result.owner();
        if op_name(&owner) == "arith.andi" {
            for operand in owner.operands() {
                conjuncts(detach(operand), found);
            }
            return;
        }
    }
    // A constant `true` (where the conjunction starts) asks nothing.
    let always = crate::ir_query::constant_index(condition).is_some_and(|c| c != 0);
    if !always && !found.contains(&condition) {
        found.push(condition);
    }
}

/// Whether version `strong`'s condition holding means `weak`'s holds:
/// every conjunct of `weak`'s is one of `strong`'s.
fn implies(strong: OperationRef<'_, '_>, weak: OperationRef<'_, '_>) -> bool {
    let (Ok(strong), Ok(weak)) = (strong.operand(0), weak.operand(0)) else { return false };
    let (mut strong_terms, mut weak_terms) = (Vec::new(), Vec::new());
    conjuncts(detach(strong), &mut strong_terms);
    conjuncts(detach(weak), &mut weak_terms);
    weak_terms.iter().all(|term| strong_terms.contains(term))
}

/// Whether `version`'s ops may move below `op`: `op` is pure, or loads
/// from a memref that nothing in `version` takes.
fn may_move_below(version: OperationRef<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    if speculatable(&op) {
        return true;
    }
    if !matches!(op_name(&op).as_str(), "memref.load" | "vector.load") || op.region_count() != 0 {
        return false;
    }
    let Ok(memref) = op.operand(0) else { return false };
    let mut touched = false;
    version.walk(WalkOrder::PreOrder, |inner| {
        touched |= inner.operands().any(|v| v == memref);
        if touched {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    !touched
}

/// Moves the ops of `from`'s region `index` to the start of `to`'s.
fn prepend_region(from: OperationRef<'_, '_>, to: OperationRef<'_, '_>, index: usize) {
    let (Some(source), Some(target)) =
        (from.region(index).ok().and_then(|r| r.first_block()), to.region(index).ok().and_then(|r| r.first_block()))
    else {
        return;
    };
    let Some(anchor) = target.first_operation() else { return };
    let anchor: OperationRef = unsafe { OperationRef::from_raw(anchor.to_raw()) };
    let first = source.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
    move_until_terminator(first, anchor);
}
