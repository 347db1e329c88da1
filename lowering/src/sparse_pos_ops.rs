//! Reading `sparse_pos.for` ops: the one place stage II schedules look up
//! loops by label and read their kind.

use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};

pub const FOR: &str = "sparse_pos.for";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    Spatial,
    Reduction,
}

/// The `sparse_pos.for` ops under `root` labelled `label`.
pub fn find_loops<'c: 'a, 'a>(root: OperationRef<'c, 'a>, label: &str) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let is_loop = op.name().as_string_ref().as_str() == Ok(FOR);
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if is_loop && loop_label(op) == label {
            found.push(op);
        }
        WalkResult::Advance
    });
    found
}

/// The loop's label ("" if it has none).
pub fn loop_label(op: OperationRef<'_, '_>) -> String {
    op.attribute("label")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|text| text.value().to_string())
        .unwrap_or_default()
}

/// The trip count of a loop whose bounds are constants.
pub fn constant_trip(op: OperationRef<'_, '_>) -> Option<i64> {
    let bound = |n| op.operand(n).ok().and_then(crate::ir_query::constant_index);
    Some(bound(1)? - bound(0)?)
}

pub fn loop_kind(op: OperationRef<'_, '_>) -> LoopKind {
    let kind = op.attribute("kind").ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|a| a.value());
    if kind == Some(1) {
        LoopKind::Reduction
    } else {
        LoopKind::Spatial
    }
}
