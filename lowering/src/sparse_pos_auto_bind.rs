//! `sparse-pos-auto-bind`: the default GPU schedule, for kernels nobody
//! scheduled by hand. Every outermost position loop becomes a grid of
//! blocks (a reduction one with atomic writes); inside it, the innermost
//! spatial loops whose bounds do not depend on the block become the
//! threads of a block (threadIdx.x, unless some loop of the nest already
//! is). A reduction loop whose updates are not sums stays sequential and
//! the loops inside it are scheduled instead. Loops already bound are left
//! alone, so this completes a partial hand schedule. Correct for any
//! stage II program; fast only where the threads have work (the feature
//! loop of SpMM); hand schedules do better.

use crate::ir_query::{accumulation, constant_index, constant_of, defined_outside, outermost};
use crate::pass_registry::{PassDef, PassFailed, PassOptions};
use crate::sparse_pos_ops::{loop_kind, LoopKind, FOR};
use melior::ir::{
    attribute::{Attribute, StringAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
    Value,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosAutoBind",
    argument: "sparse-pos-auto-bind",
    description: "Default GPU schedule: outermost loops to blocks, uniform innermost spatial loops to threads",
    options: &[],
    dependent_dialects: "",
    run,
};

fn is_loop(op: &OperationRef<'_, '_>) -> bool {
    op.name().as_string_ref().as_str() == Ok(FOR)
}

fn contains_loop(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        if inner.to_raw().ptr != op.to_raw().ptr && inner.name().as_string_ref().as_str() == Ok(FOR) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `value` is known outside `outer`: defined there, or a constant.
fn outside(value: Value<'_, '_>, outer: OperationRef<'_, '_>) -> bool {
    constant_of(value).is_some() || defined_outside(value, outer)
}

/// Equal values, or constants of equal value.
fn same_value(a: Value<'_, '_>, b: Value<'_, '_>) -> bool {
    a == b || matches!((constant_of(a), constant_of(b)), (Some(x), Some(y)) if x == y)
}

/// Whether `op` runs exactly once: from constant 0 to constant 1.
fn is_single(op: OperationRef<'_, '_>) -> bool {
    let bound = |n: usize| op.operand(n).ok().and_then(constant_index);
    bound(0) == Some(0) && bound(1) == Some(1)
}

/// The only loop directly in `op`'s body, if there is exactly one.
fn only_loop_in<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    use melior::ir::{block::BlockLike, RegionLike};
    let body = op.region(0).ok()?.first_block()?;
    let mut found = None;
    let mut next = body.first_operation();
    while let Some(inner) = next {
        next = inner.next_in_block();
        if is_loop(&inner) {
            if found.is_some() {
                return None;
            }
            found = Some(unsafe { OperationRef::from_raw(inner.to_raw()) });
        }
    }
    found
}

/// Whether a loop under `top` (itself included) is bound to `dimension`.
fn binds(top: OperationRef<'_, '_>, dimension: &str) -> bool {
    let mut found = false;
    top.walk(WalkOrder::PreOrder, |op| {
        let bound = op.attribute("bind").ok().and_then(|a| StringAttribute::try_from(a).ok());
        if bound.is_some_and(|b| b.value() == dimension) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether some store under `top` is in none of `loops`: to a sparse
/// buffer, or to a tile that `sparse-pos-cache-read` copies into.
fn stores_outside(top: OperationRef<'_, '_>, loops: &[OperationRef<'_, '_>]) -> bool {
    let mut outside = false;
    top.walk(WalkOrder::PreOrder, |op| {
        if matches!(op.name().as_string_ref().as_str(), Ok("sparse_pos.store" | "memref.store")) {
            let mut parent = op.parent_operation();
            let mut covered = false;
            while let Some(current) = parent {
                if loops.iter().any(|l| l.to_raw().ptr == current.to_raw().ptr) {
                    covered = true;
                    break;
                }
                parent = current.parent_operation();
            }
            if !covered {
                outside = true;
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    outside
}

/// Whether every store under `top` adds to the element it overwrites
/// (`m[i] = m[i] + v`, floats or integers): the only updates that blocks
/// running a reduction loop's positions at once can make atomically.
fn accumulates_only(top: OperationRef<'_, '_>) -> bool {
    let mut only = true;
    top.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("sparse_pos.store") && accumulation(op).is_none() {
            only = false;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    only
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    for top in outermost(root, is_loop) {
        schedule(top);
    }
    Ok(())
}

/// Binds the nest under `top`: `top` to the blocks and uniform innermost
/// spatial loops to the threads. A reduction loop whose updates blocks
/// cannot share (a maximum, a product, an overwrite) stays sequential, on
/// the host, and the loops in it are scheduled instead, a launch per
/// position.
fn schedule(mut top: OperationRef<'_, '_>) {
    let context_ref = top.context();
    let context = unsafe { context_ref.to_ref() };
    let bind = |op: OperationRef<'_, '_>, to: &str, atomic: bool| {
        let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        op.set_discardable_attribute("bind", StringAttribute::new(context, to).into());
        if atomic {
            op.set_discardable_attribute("atomic", Attribute::unit(context));
        }
    };
    // A loop of one position (an ELL bucket's placeholder root) makes a
    // grid of one block: the loop it wraps is the real grid.
    while !top.has_attribute("bind") && is_single(top) {
        match only_loop_in(top) {
            Some(inner) => top = inner,
            None => break,
        }
    }
    if !top.has_attribute("bind") {
        let reduction = loop_kind(top) == LoopKind::Reduction;
        if reduction && !accumulates_only(top) {
            let outer = top.to_raw().ptr;
            for inner in outermost(top, |op| is_loop(op) && op.to_raw().ptr != outer) {
                schedule(inner);
            }
            return;
        }
        bind(top, "blockIdx.x", reduction);
    }
    if binds(top, "threadIdx.x") {
        return;
    }
    let mut threads = Vec::new();
    top.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        let candidate = is_loop(&op)
            && op.to_raw().ptr != top.to_raw().ptr
            && !op.has_attribute("bind")
            && loop_kind(op) == LoopKind::Spatial
            && !contains_loop(op)
            && op.operands().all(|bound| outside(bound, top));
        if candidate {
            threads.push(op);
        }
        WalkResult::Advance
    });
    // One launch has one block size: only loops with the bounds of the
    // first candidate share the threads. And every store must then sit
    // in one of them, or each thread of the block would repeat it.
    let Some(first) = threads.first().copied() else { return };
    let bounds: Vec<Value> = first.operands().collect();
    threads.retain(|op| op.operands().zip(&bounds).all(|(a, &b)| same_value(a, b)));
    if stores_outside(top, &threads) {
        return;
    }
    for op in threads {
        bind(op, "threadIdx.x", false);
    }
}
