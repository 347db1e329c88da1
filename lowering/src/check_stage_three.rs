//! `check-stage-three`: the start of a lowering from stage III. A pipeline
//! that skipped `lower-sparse-iter` or `lower-sparse-buffer` hands it
//! `sparse_iter` or `sparse_pos` ops, which the upstream conversions do not
//! know: they broke the ops' own invariants on the way (a `scf.if` inside
//! a `sparse_pos.for` turned into blocks: "expects region #0 to have 0 or 1
//! blocks") or left them for `verify-llvm-lowering` at the end. This pass
//! names the first such op and the passes that lower it, before any
//! conversion runs.

use crate::{
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};

pub const PASS: PassDef = PassDef {
    name: "CheckStageThree",
    argument: "check-stage-three",
    description: "Refuse sparse_iter and sparse_pos ops where a lowering from stage III (scf/memref/arith) starts",
    options: &[],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    // The first op of stage I (an iteration), else the first of stage II
    // (axis and buffer ops stay until lower-sparse-buffer).
    let (mut stage_one, mut stage_two) = (None, None);
    root.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if name == "sparse_iter.iterate" {
            stage_one = Some((op, name));
            return WalkResult::Interrupt;
        }
        if stage_two.is_none() && (name.starts_with("sparse_iter.") || name.starts_with("sparse_pos.")) {
            stage_two = Some((op, name));
        }
        WalkResult::Advance
    });
    let (found, lowering) = match (stage_one, stage_two) {
        (Some(found), _) => (found, "lower-sparse-iter (stage I to II), then lower-sparse-buffer (stage II to III)"),
        (None, Some(found)) => (found, "lower-sparse-buffer (stage II to III)"),
        (None, None) => return Ok(()),
    };
    let (op, name) = found;
    Err(emit_error(
        op.location(),
        format!(
            "check-stage-three: '{name}' is not stage III, where this lowering starts: run {lowering} first \
             (sptir-to-stage3, sptir-stage2-to-launches and sptir-stage2-to-emulation include them)"
        ),
    ))
}
