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
        let labelled = op
            .attribute("label")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .is_some_and(|text| text.value() == label);
        if is_loop && labelled {
            found.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    found
}

pub fn loop_kind(op: OperationRef<'_, '_>) -> LoopKind {
    let kind = op.attribute("kind").ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|a| a.value());
    if kind == Some(1) {
        LoopKind::Reduction
    } else {
        LoopKind::Spatial
    }
}
