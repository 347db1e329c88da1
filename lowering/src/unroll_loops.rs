//! `unroll-loops`: stage III unrolling of the loops `sparse-pos-unroll`
//! marked. A loop marked whole, of N iterations, becomes N copies of
//! itself, the k-th running only iteration k; canonicalization then
//! replaces each one-iteration loop by its body. A loop marked by N, whose
//! trip count is known only at run time, keeps its shape here and gets
//! LLVM's unroll count N (`loop_annotation`, which `convert-scf-to-cf`
//! moves to the back edge): LLVM's runtime unrolling then runs N
//! iterations a step with a remainder loop after, on loops that by then
//! hold their sums in registers (`promote-accumulators` runs between), so
//! the copies' loads are independent.

use crate::{
    axis::detach,
    ir_builder::{erase, Builder},
    ir_query::{constant_index, holds_sync, marked_loops},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
};

pub const PASS: PassDef = PassDef {
    name: "UnrollLoops",
    argument: "unroll-loops",
    description: "Unroll the scf.for loops sparse-pos-unroll marked (constant bounds and step)",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let marked = marked_loops(root, "unroll");
    for op in marked {
        let location = op.location();
        if let Some(factor) = op.attribute("unroll").ok().and_then(|a| IntegerAttribute::try_from(a).ok()) {
            // LLVM does not unroll a loop of convergent operations by a
            // factor (its remainder would change which threads meet).
            if holds_sync(op) {
                return Err(emit_error(
                    location,
                    "unroll-loops: a loop that holds a barrier or a warp shuffle (shuffle=true) cannot run several iterations a step: unroll it whole (a constant trip count) or not at all",
                ));
            }
            let text = format!("#llvm.loop_annotation<unroll = <count = {}>>", factor.value());
            let annotation = Attribute::parse(context, &text)
                .ok_or_else(|| emit_error(location, "unroll-loops: could not build the LLVM loop annotation"))?;
            let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
            op.remove_attribute("unroll").ok();
            op.set_discardable_attribute("loop_annotation", annotation);
            continue;
        }
        let bound = |n| op.operand(n).ok().and_then(constant_index);
        let (Some(lower), Some(upper), Some(step)) = (bound(0), bound(1), bound(2)) else {
            return Err(emit_error(location, "unroll-loops: a marked loop must have constant bounds and step"));
        };
        if op.result_count() != 0 || step <= 0 {
            return Err(emit_error(location, "unroll-loops: a marked loop must step forward and carry no values"));
        }
        let builder =
            Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
        let mut start = lower;
        while start < upper {
            let (from, to) = (builder.index(start), builder.index(start + 1));
            let copy = builder.insert_clone(op);
            let mut copy = unsafe { OperationRefMut::from_raw(copy.to_raw()) };
            copy.remove_attribute("unroll").ok();
            copy.set_operand(0, detach(from));
            copy.set_operand(1, detach(to));
            start += step;
        }
        erase(op);
    }
    Ok(())
}
