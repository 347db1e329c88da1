//! `sparse-pos-reorder`: the stage II schedule that interchanges two
//! position loops, one directly inside the other (TensorIR's `reorder` on
//! a pair). SpMM uses it to put a feature chunk loop outside the non-zero
//! loop, so that the accumulator of each thread stays in a register.
//!
//! The loops must be perfectly nested up to side-effect-free ops: what the
//! outer body computes before the inner loop (a column index, say) moves
//! into the new inner body, and what the inner loop's bounds need moves out
//! in front of both. Interchanging a reduction with a spatial loop changes
//! only the order of the additions, as in SparseTIR.

use crate::{
    axis::detach,
    ir_builder::move_until_terminator,
    ir_query::{defined_outside, op_name},
    pass_registry::{emit_error, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{find_loops, loop_label, FOR},
};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
    RegionLike, Value,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosReorder",
    argument: "sparse-pos-reorder",
    description: "Interchange two directly nested stage II loops (loops=NEW_OUTER,NEW_INNER)",
    options: &[PassOption {
        name: "loops",
        help: "two loop labels in their new order, outermost first; one must be directly inside the other",
        required: true,
    }],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let labels: Vec<&str> = options.get("loops").unwrap_or_default().split(',').map(str::trim).collect();
    let [first, second] = labels[..] else {
        return Err(emit_error(
            root.location(),
            format!("sparse-pos-reorder: loops must name two loops, got '{}'", labels.join(",")),
        ));
    };
    if first == second {
        return Err(emit_error(root.location(), format!("sparse-pos-reorder: loop \"{first}\" is named twice")));
    }
    let firsts = find_loops(root, first);
    let seconds = find_loops(root, second);
    for (label, found) in [(first, &firsts), (second, &seconds)] {
        if found.is_empty() {
            return Err(emit_error(
                root.location(),
                format!("sparse-pos-reorder: no sparse_pos.for labelled \"{label}\""),
            ));
        }
    }
    // Each occurrence of the pair (a decomposed format repeats labels per
    // bucket) is interchanged where one loop sits directly in the other.
    let mut done = 0;
    for &a in &firsts {
        for &b in &seconds {
            if parent_loop(a) == Some(b) {
                interchange(b, a)?;
                done += 1;
            } else if parent_loop(b) == Some(a) {
                // Already in the requested order.
                done += 1;
            }
        }
    }
    if done == 0 {
        return Err(emit_error(
            firsts[0].location(),
            format!("sparse-pos-reorder: loops \"{first}\" and \"{second}\" are not directly nested"),
        ));
    }
    Ok(())
}

/// The loop whose body directly holds `op`.
fn parent_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    op.parent_operation().filter(|parent| op_name(parent) == FOR)
}

/// Ops a reorder may move into or out of a loop body: they compute, and
/// neither write nor loop.
fn movable(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    op.region_count() == 0
        && (name.starts_with("arith.")
            || name.starts_with("index.")
            || name.starts_with("math.")
            || matches!(name.as_str(), "sparse_pos.load" | "sparse_pos.find" | "sparse_pos.parent_position"))
}

/// `outer { pre; inner { body } }` -> `inner { outer { pre; body } }`.
fn interchange<'c>(outer: OperationRef<'c, 'c>, inner: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = inner.location();
    let label = loop_label;
    for op in [outer, inner] {
        if op.has_attribute("bind") {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-reorder: loop \"{}\" is already bound; reorder before binding", label(op)),
            ));
        }
    }
    let body =
        outer.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    let outer_position: Value =
        detach(body.argument(0).map_err(|_| emit_error(location, "loop without position"))?.into());

    // The ops of the outer body before the inner loop, and nothing after it.
    let mut before = Vec::new();
    let mut next = body.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(op) = next {
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        if op == inner {
            break;
        }
        before.push(op);
    }
    if let Some(after) = inner.next_in_block() {
        if after.next_in_block().is_some() {
            return Err(emit_error(
                after.location(),
                format!(
                    "sparse-pos-reorder: loops \"{}\" and \"{}\" are not perfectly nested: this op follows \"{}\" inside \"{}\"",
                    label(outer),
                    label(inner),
                    label(inner),
                    label(outer)
                ),
            ));
        }
    }
    if let Some(blocker) = before.iter().find(|op| !movable(op)) {
        return Err(emit_error(
            blocker.location(),
            format!(
                "sparse-pos-reorder: loops \"{}\" and \"{}\" are not perfectly nested: this op between them writes or loops",
                label(outer),
                label(inner)
            ),
        ));
    }

    // What the inner bounds need leaves the outer loop, provided it does
    // not depend on the outer position.
    let mut hoist: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut pending: Vec<Value<'c, 'c>> = inner.operands().map(detach).collect();
    while let Some(value) = pending.pop() {
        if value == outer_position {
            return Err(emit_error(
                location,
                format!(
                    "sparse-pos-reorder: the bounds of \"{}\" depend on the position of \"{}\"",
                    label(inner),
                    label(outer)
                ),
            ));
        }
        if let Some(definer) = before.iter().copied().find(|op| op.results().any(|r| Value::from(r) == value)) {
            if !hoist.contains(&definer) {
                hoist.push(definer);
                pending.extend(definer.operands().map(detach));
            }
        } else if !defined_outside(value, outer) {
            return Err(emit_error(
                location,
                format!(
                    "sparse-pos-reorder: the bounds of \"{}\" are computed inside \"{}\"",
                    label(inner),
                    label(outer)
                ),
            ));
        }
    }
    for &op in before.iter().filter(|op| hoist.contains(op)) {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(outer);
    }

    // Swap: the inner loop goes in front of the outer one, the outer loop
    // becomes the first op of the inner body, and the inner body's ops move
    // to the end of the outer body (after `pre`).
    let inner_body =
        inner.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    let inner_first = inner_body.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    let outer_terminator = body
        .terminator()
        .map(|t| unsafe { OperationRef::<'c, 'c>::from_raw(t.to_raw()) })
        .ok_or_else(|| emit_error(location, "loop without terminator"))?;
    unsafe { OperationRefMut::from_raw(inner.to_raw()) }.move_before(outer);
    move_until_terminator(inner_first, outer_terminator);
    let anchor = inner_body.terminator().ok_or_else(|| emit_error(location, "loop without terminator"))?;
    unsafe { OperationRefMut::from_raw(outer.to_raw()) }
        .move_before(unsafe { OperationRef::from_raw(anchor.to_raw()) });
    Ok(())
}
