//! Reading `sparse_iter.iterate` ops: the one place passes look up an
//! iteration by label and read its axes, kinds and fused groups.

use melior::ir::operation::WalkOrder;
use melior::ir::operation::WalkResult;
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, StringAttribute},
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    RegionLike, Value,
};

pub const ITERATE: &str = "sparse_iter.iterate";

/// The `sparse_iter.iterate` ops under `root` (itself included) whose label
/// is `label`, outermost first.
pub fn find_iterations<'c: 'a, 'a>(root: OperationRef<'c, 'a>, label: &str) -> Vec<OperationRef<'c, 'a>> {
    crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        is_iteration(&op) && IterationInfo::label_of(&op).as_deref() == Some(label)
    })
}

/// The labels of the iterations under `root`, in order.
pub fn iteration_labels(root: OperationRef<'_, '_>) -> Vec<String> {
    let mut labels = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if is_iteration(&op) {
            labels.extend(IterationInfo::label_of(&op));
        }
        WalkResult::Advance
    });
    labels
}

/// The iterations a stage I schedule named by `pass` acts on: those
/// labelled by its `iteration` option; none is an error at `root`.
pub fn scheduled_iterations<'c: 'a, 'a>(
    root: OperationRef<'c, 'a>,
    options: &crate::pass_registry::PassOptions,
    pass: &str,
) -> Result<Vec<OperationRef<'c, 'a>>, crate::pass_registry::PassFailed> {
    named_iterations(pass, root, options.get("iteration").unwrap_or_default())
}

/// The iterations labelled `label` under `root`, at least one; `pass`
/// prefixes the diagnostic when there is none.
pub fn named_iterations<'c: 'a, 'a>(
    pass: &str,
    root: OperationRef<'c, 'a>,
    label: &str,
) -> Result<Vec<OperationRef<'c, 'a>>, crate::pass_registry::PassFailed> {
    let iterations = find_iterations(root, label);
    if iterations.is_empty() {
        let choices = crate::ir_query::label_choices(
            iteration_labels(root),
            "there is none (stage I schedules run before lower-sparse-iter)",
        );
        return Err(crate::pass_registry::emit_error(
            crate::pass_registry::options_location(root),
            format!("{pass}: no sparse iteration labelled \"{label}\"{choices}"),
        ));
    }
    Ok(iterations)
}

/// Every op in the body region of `iteration` (not its init region), at
/// any depth, in program order.
pub fn body_ops<'c>(iteration: OperationRef<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut ops = Vec::new();
    let Ok(body) = iteration.region(1) else { return ops };
    for block in std::iter::successors(body.first_block(), |b| b.next_in_region()) {
        for op in std::iter::successors(block.first_operation(), |o| o.next_in_block()) {
            op.walk(WalkOrder::PreOrder, |inner| {
                ops.push(unsafe { OperationRef::from_raw(inner.to_raw()) });
                WalkResult::Advance
            });
        }
    }
    ops
}

pub fn is_iteration<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    op.name().as_string_ref().as_str() == Ok(ITERATE)
}

/// The schedule-relevant parts of one `sparse_iter.iterate`.
pub struct IterationInfo<'c, 'a> {
    pub label: String,
    pub axes: Vec<Value<'c, 'a>>,
    /// One byte per axis, `S` or `R`.
    pub kinds: Vec<u8>,
    /// Sizes of the loops (fused groups); all ones when nothing is fused.
    pub group_sizes: Vec<usize>,
    pub fused: bool,
    /// Whether the iteration has an init region.
    pub has_init: bool,
}

impl<'c: 'a, 'a> IterationInfo<'c, 'a> {
    fn label_of(op: &impl OperationLike<'c, 'a>) -> Option<String> {
        let attribute = op.attribute("label").ok()?;
        StringAttribute::try_from(attribute).ok().map(|text| text.value().to_string())
    }

    pub fn read(op: OperationRef<'c, 'a>) -> Self {
        let axes: Vec<Value<'c, 'a>> = op.operands().collect();
        let kinds = op
            .attribute("kinds")
            .ok()
            .and_then(|attribute| StringAttribute::try_from(attribute).ok())
            .map(|text| text.value().as_bytes().to_vec())
            .unwrap_or_default();
        let groups =
            op.attribute("fuse_groups").ok().and_then(|attribute| DenseI64ArrayAttribute::try_from(attribute).ok());
        let group_sizes: Vec<usize> = match groups {
            Some(groups) => (0..groups.len())
                .filter_map(|index| groups.element(index).ok())
                .map(|size| size.max(0) as usize)
                .collect(),
            None => vec![1; axes.len()],
        };
        // `fuse(%I)` alone groups nothing.
        let fused = group_sizes.iter().any(|&size| size > 1);
        let has_init = op.region(0).ok().and_then(|r| r.first_block()).is_some();
        Self { label: Self::label_of(&op).unwrap_or_default(), axes, kinds, group_sizes, fused, has_init }
    }

    /// The first spatial axis among `axes` when a reduction axis is among
    /// them too: one loop over both has no position per element of the
    /// spatial axis, where the init region runs.
    pub fn spatial_fused_with_reduction(&self, axes: std::ops::Range<usize>) -> Option<usize> {
        let kinds = &self.kinds[axes.clone()];
        kinds.contains(&b'R').then(|| axes.clone().find(|&a| self.kinds[a] == b'S')).flatten()
    }

    /// The axis positions of each loop.
    pub fn groups(&self) -> Vec<std::ops::Range<usize>> {
        let mut start = 0;
        self.group_sizes
            .iter()
            .map(|&size| {
                start += size;
                start - size..start
            })
            .collect()
    }
}
