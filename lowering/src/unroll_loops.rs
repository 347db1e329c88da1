//! `unroll-loops`: stage III unrolling of the loops `sparse-pos-unroll`
//! marked. A loop of N iterations becomes N copies of itself, the k-th
//! running only iteration k; canonicalization then replaces each
//! one-iteration loop by its body.

use crate::{
    axis::detach,
    ir_builder::{erase, Builder},
    ir_query::{constant_index, marked_loops},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut};

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
