//! `check-dim-indices`: the start of every sptir pipeline that
//! canonicalizes. `memref.dim` with a constant index (or arithmetic on
//! constants, which canonicalization folds to one) outside its operand's
//! rank passes the op's verifier and is undefined: a negative one crashed
//! the process in MLIR 22's canonicalization (`SimplifyDimOfAllocOp`
//! reads out of bounds), one past the rank lowered to poison. This pass
//! names such an op first.

use crate::{
    ir_query::{evaluate_index, op_name},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    operation::{OperationLike, OperationRef, WalkOrder},
    r#type::{MemRefType, RankedTensorType, ShapedTypeLike},
    ValueLike,
};

pub const PASS: PassDef = PassDef {
    name: "CheckDimIndices",
    argument: "check-dim-indices",
    description: "Refuse memref.dim and tensor.dim with a negative constant index, which canonicalization crashes on",
    options: &[],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let dims = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        matches!(op_name(&op).as_str(), "memref.dim" | "tensor.dim")
    });
    match dims.into_iter().find_map(|op| problem(op).map(|problem| (op, problem))) {
        Some((op, problem)) => {
            Err(emit_error(op.location(), format!("check-dim-indices: '{}' {problem}", op_name(&op))))
        }
        None => Ok(()),
    }
}

/// What is wrong with a dim op's constant index, if anything.
fn problem(op: OperationRef<'_, '_>) -> Option<String> {
    let index = op.operand(1).ok().and_then(evaluate_index)?;
    let source = op.operand(0).ok()?.r#type();
    let rank = MemRefType::try_from(source)
        .map(|t| t.rank())
        .or_else(|_| RankedTensorType::try_from(source).map(|t| t.rank()))
        .ok();
    match rank {
        _ if index < 0 => Some(format!("asks for dimension {index}, but dimensions count from 0")),
        Some(rank) if index as usize >= rank => {
            let noun = if rank == 1 { "dimension" } else { "dimensions" };
            Some(format!("asks for dimension {index} of {source}, which has {rank} {noun}"))
        }
        _ => None,
    }
}
