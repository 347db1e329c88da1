//! `sparse-pos-reorder`: the stage II schedule that interchanges two
//! position loops, one directly inside the other (TensorIR's `reorder` on
//! a pair). SpMM uses it to put a feature chunk loop outside the non-zero
//! loop, so that the accumulator of each thread stays in a register.
//!
//! The loops must be perfectly nested up to side-effect-free ops: what the
//! outer body computes before the inner loop (a column index, say) moves
//! into the new inner body, and what the inner loop's bounds need moves out
//! in front of both. Interchanging a reduction with a spatial loop changes
//! only the order of the additions, as in SparseTIR. Loops that may both
//! pass data from position to position are refused.

use crate::{
    ir_builder::move_until_terminator,
    ir_query::describe_pair,
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_pos_ops::{
        carried_conflict, find_store, loop_kind, loop_label, one_thread_mark, parent_loop, perfect_nest, two_loops,
        LoopKind,
    },
};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
    RegionLike,
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosReorder",
    argument: "sparse-pos-reorder",
    description: "Interchange two directly nested stage II loops (loops=NEW_OUTER,NEW_INNER)",
    options: &[PassOption {
        name: "loops",
        help: "two loop labels in their new order, outermost first; one must be directly inside the other",
        required: true,
        kind: OptionKind::Text,
    }],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let ((first, firsts), (second, seconds)) =
        two_loops("sparse-pos-reorder", root, options.get("loops").unwrap_or_default())?;
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

/// `outer { pre; inner { body } }` -> `inner { outer { pre; body } }`.
fn interchange<'c>(outer: OperationRef<'c, 'c>, inner: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = inner.location();
    for op in [outer, inner] {
        if op.has_attribute("bind") {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-reorder: loop \"{}\" is already bound; reorder before binding", loop_label(op)),
            ));
        }
        if let Some(mark) = one_thread_mark(op) {
            return Err(emit_error(
                op.location(),
                format!(
                    "sparse-pos-reorder: loop \"{}\" is marked to {mark}; reorder before marking it",
                    loop_label(op)
                ),
            ));
        }
    }
    perfect_nest("sparse-pos-reorder", outer, inner)?;
    // A dependence that only one of the loops carries keeps its direction
    // when they swap; one that both may carry (a wavefront's
    // `Y[i-1, k+1]`) can turn back. The inner loop's positions are
    // compared at every outer position, not only at one.
    if let (Some(pair), Some(_)) = (carried_conflict(outer, outer, false), carried_conflict(inner, outer, false)) {
        return Err(emit_error(
            location,
            format!(
                "sparse-pos-reorder: loops \"{}\" and \"{}\" may both carry data from position to position ({} may touch one element at other positions of each, and one of them stores it); interchanging them could read an element before it is written",
                loop_label(outer),
                loop_label(inner),
                describe_pair(pair)
            ),
        ));
    }
    // Two reductions swapped visit an output's terms in another order.
    if loop_kind(outer) == LoopKind::Reduction && loop_kind(inner) == LoopKind::Reduction {
        if let Some(store) = find_store(inner, |store| !crate::ir_query::order_free_update(store)) {
            return Err(emit_error(
                store.location(),
                format!(
                    "sparse-pos-reorder: loops \"{}\" and \"{}\" are both reductions, and this store is not an update whose order does not matter (a sum, product, maximum or minimum of the element and another value): interchanging them changes its result",
                    loop_label(outer),
                    loop_label(inner)
                ),
            ));
        }
    }
    let body =
        outer.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;

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
