//! `hoist-invariant-loads`: moves a `memref.load` or `vector.load` out of
//! the `scf.for` loops it does not depend on when nothing in the function
//! writes that memref, together with the non-trapping arithmetic around
//! such loads.
//! Stage III reads structure (indptr, indices) and input values where each
//! access is flattened; a row start read in the innermost loop is then read
//! once per row. Upstream loop-invariant code motion cannot do this: it
//! does not know that sptir's memref arguments do not alias (SparseTIR's
//! `tir.noalias`), so any store might change any load.
//!
//! Then a load of such a memref that an identical load dominates reuses
//! that load's value. A flattened access reads its row start again where
//! it is used, and a use inside a guard (`scf.if`) cannot be hoisted
//! without running the load where the guard would skip it; the earlier
//! load already ran, so reusing it is safe. Accumulator indices then
//! become loop-invariant, which `promote-accumulators` needs.

use crate::{
    ir_builder::{erase, replace_uses},
    ir_query::{defined_outside, op_name, root_memref, VIEWS},
    lower_loop_bindings::SHUFFLE,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    block::{BlockLike, BlockRef},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
    RegionLike, Value, ValueLike,
};
use std::collections::HashSet;

pub const PASS: PassDef = PassDef {
    name: "HoistInvariantLoads",
    argument: "hoist-invariant-loads",
    description: "Hoist loads of never-written memrefs out of loops they do not depend on",
    options: &[],
    dependent_dialects: "",
    run,
};

/// Loads of never-written memrefs, and arithmetic that cannot trap (no
/// division: hoisting it out of a loop that does not run must not fault).
fn hoistable(op: &OperationRef<'_, '_>, written: &[usize]) -> bool {
    let name = op_name(op);
    match name.as_str() {
        "memref.load" | "vector.load" => op.operand(0).is_ok_and(|m| !written.contains(&root_memref(m))),
        "arith.constant" | "arith.addi" | "arith.subi" | "arith.muli" | "arith.index_cast" | "arith.cmpi"
        | "arith.select" | "arith.andi" | "arith.ori" | "arith.xori" | "arith.addf" | "arith.subf" | "arith.mulf"
        | "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui" | "arith.extsi" | "arith.extui"
        | "arith.trunci" | "arith.sitofp" | "arith.extf" | "arith.truncf" | "vector.broadcast" => true,
        _ => false,
    }
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    // The memory (`root_memref`) something writes, or hands to something
    // that might, through any view of it: a view's loads see its writes.
    let mut written: Vec<usize> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        match op_name(&op).as_str() {
            "memref.store" => written.extend(op.operand(1).ok().map(root_memref)),
            "memref.load" | "vector.load" | "memref.dim" | "memref.extract_aligned_pointer_as_index" => {}
            name if VIEWS.contains(&name) => {}
            _ => written.extend(
                op.operands().filter(|v| melior::ir::r#type::MemRefType::try_from(v.r#type()).is_ok()).map(root_memref),
            ),
        }
        WalkResult::Advance
    });
    // Loops and guards innermost first; hoisting repeats until nothing
    // moves, since a hoisted load can free the arithmetic that uses it and
    // vice versa. Out of a guard (`scf.if`) moves only the arithmetic that
    // places a warp-shuffled accumulation (a load there may be what the
    // guard keeps in bounds): computed under a split's tail guard from
    // values outside the loop, that place then leaves the loop too, and
    // `promote-accumulators` keeps the sum in a register for the shuffle.
    let places = shuffled_places(root);
    let parents = crate::ir_query::ops_where(root, WalkOrder::PostOrder, |op| {
        matches!(op_name(&op).as_str(), "scf.for" | "scf.if")
    });
    let mut moved = true;
    while moved {
        moved = false;
        for &parent in &parents {
            let guard = op_name(&parent) == "scf.if";
            for region in parent.regions() {
                let Some(body) = region.first_block() else { continue };
                let mut next = body.first_operation();
                while let Some(op) = next {
                    next = op.next_in_block();
                    let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
                    let load = matches!(op_name(&op).as_str(), "memref.load" | "vector.load");
                    let placing = places.contains(&(op.to_raw().ptr as usize));
                    if hoistable(&op, &written)
                        && !(guard && (load || !placing))
                        && op.operands().all(|v| defined_outside(v, parent))
                    {
                        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(parent);
                        moved = true;
                    }
                }
            }
        }
    }
    reuse_dominating_loads(root, &written);
    Ok(())
}

/// The ops that compute the indices of stores marked for a warp shuffle.
fn shuffled_places<'c>(root: OperationRef<'c, '_>) -> HashSet<usize> {
    let mut pending: Vec<Value<'c, 'c>> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op.has_attribute(SHUFFLE) {
            pending.extend(op.operands().skip(2).map(crate::axis::detach));
        }
        WalkResult::Advance
    });
    let mut found = HashSet::new();
    while let Some(value) = pending.pop() {
        let Ok(result) = crate::ir_query::op_result(value) else { continue };
        let op = result.owner();
        if found.insert(op.to_raw().ptr as usize) {
            pending.extend(op.operands().map(crate::axis::detach));
        }
    }
    found
}

/// Replaces each load of a never-written memref by an identical earlier
/// load in a block around it. In pre-order an op in an enclosing block is
/// visited before the ops nested after it, so such a load dominates.
fn reuse_dominating_loads(root: OperationRef<'_, '_>, written: &[usize]) {
    let mut loads: Vec<OperationRef> = Vec::new();
    let mut redundant = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op: OperationRef = unsafe { OperationRef::from_raw(op.to_raw()) };
        if !matches!(op_name(&op).as_str(), "memref.load" | "vector.load") || !hoistable(&op, written) {
            return WalkResult::Advance;
        }
        let operands: Vec<Value> = op.operands().collect();
        // Same op and result type too: a scalar and a vector load may share
        // their operands.
        let same_result = |load: &OperationRef| {
            op_name(load) == op_name(&op)
                && load.result(0).map(|r| r.r#type()).ok() == op.result(0).map(|r| r.r#type()).ok()
        };
        let earlier = loads.iter().find(|load| {
            load.operands().collect::<Vec<Value>>() == operands
                && same_result(load)
                && encloses_block_of(load.block(), op)
        });
        match earlier {
            Some(&earlier) => redundant.push((op, earlier)),
            None => loads.push(op),
        }
        WalkResult::Advance
    });
    for (op, earlier) in redundant {
        if let (Ok(old), Ok(new)) = (op.result(0), earlier.result(0)) {
            replace_uses(old.into(), new.into());
            erase(op);
        }
    }
}

/// Whether `block` holds `op` or an op around it.
fn encloses_block_of(block: Option<BlockRef<'_, '_>>, op: OperationRef<'_, '_>) -> bool {
    let Some(block) = block else { return false };
    let mut current = Some(op);
    while let Some(inner) = current {
        if inner.block() == Some(block) {
            return true;
        }
        current = inner.parent_operation().map(|parent| unsafe { OperationRef::from_raw(parent.to_raw()) });
    }
    false
}
