//! Reading and making `sparse_pos.for` ops: the one place stage II
//! schedules look up loops by label, read their kind, and build or replace
//! loops.

use crate::{
    axis::detach,
    ir_builder::{region_with_block, Builder},
    ir_query::{defined_outside, encloses, label_choices, op_name},
    pass_registry::{emit_error, PassFailed},
};
use melior::{
    ir::{
        attribute::{Attribute, IntegerAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::IntegerType,
        RegionLike, Value,
    },
    Context,
};
use sptir_dialects::sparse_pos;

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

/// The loops labelled `label` under `root`, at least one; `pass` prefixes
/// the diagnostic when there is none.
pub fn named_loops<'c: 'a, 'a>(
    pass: &str,
    root: OperationRef<'c, 'a>,
    label: &str,
) -> Result<Vec<OperationRef<'c, 'a>>, PassFailed> {
    let loops = find_loops(root, label);
    if loops.is_empty() {
        let mut labels = Vec::new();
        root.walk(WalkOrder::PreOrder, |op| {
            if op.name().as_string_ref().as_str() == Ok(FOR) {
                labels.push(loop_label(unsafe { OperationRef::from_raw(op.to_raw()) }));
            }
            WalkResult::Advance
        });
        let choices = label_choices(labels, "there is none (lower-sparse-iter makes them from stage I iterations)");
        return Err(emit_error(root.location(), format!("{pass}: no sparse_pos.for labelled \"{label}\"{choices}")));
    }
    Ok(loops)
}

/// The loop's label ("" if it has none).
pub fn loop_label(op: OperationRef<'_, '_>) -> String {
    op.attribute("label")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|text| text.value().to_string())
        .unwrap_or_default()
}

/// The position (block argument) of a `sparse_pos.for`.
pub fn loop_position<'c>(op: OperationRef<'c, '_>) -> Result<Value<'c, 'c>, PassFailed> {
    op.region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.argument(0).ok())
        .map(|a| detach(a.into()))
        .ok_or_else(|| emit_error(op.location(), "internal: loop without position"))
}

/// A new `sparse_pos.for` labelled `label` of `kind` (the `kind`
/// attribute of a loop it stands for, or [`kind_attribute`]) over
/// `lower..upper`, inserted by `builder`; and a builder that inserts into
/// its empty body, whose block argument is the position.
pub fn insert_loop<'c>(
    builder: &Builder<'c>,
    label: &str,
    kind: Attribute<'c>,
    lower: Value<'c, '_>,
    upper: Value<'c, '_>,
) -> (OperationRef<'c, 'c>, Builder<'c>) {
    let (context, location) = (builder.context, builder.location);
    let (body, inside) =
        region_with_block(context, location, &[builder.index_type()], sparse_pos::r#yield(context, location).into());
    let loop_op = builder.insert(
        sparse_pos::ForOperation::builder(context, location)
            .label(StringAttribute::new(context, label))
            .kind(kind)
            .lower_bound(lower)
            .upper_bound(upper)
            .body(body)
            .build(),
    );
    (loop_op, inside)
}

/// The `kind` attribute of a loop of `kind`.
pub fn kind_attribute(context: &Context, kind: LoopKind) -> Attribute<'_> {
    let value = match kind {
        LoopKind::Spatial => 0,
        LoopKind::Reduction => 1,
    };
    IntegerAttribute::new(IntegerType::new(context, 32).into(), value).into()
}

/// Replaces loop `old` by `new`: its body goes before `end` (an op of
/// `new`'s nest), its position replaced by `position`, and its schedule
/// attributes (all but its label and kind) go onto `new`.
pub fn replace_loop<'c>(
    old: OperationRef<'c, 'c>,
    new: OperationRef<'c, 'c>,
    position: Value<'c, 'c>,
    end: OperationRef<'c, 'c>,
) -> Result<(), PassFailed> {
    let body = old
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| emit_error(old.location(), "loop without body"))?;
    if let Ok(old_position) = body.argument(0) {
        crate::ir_builder::replace_uses(old_position.into(), position);
    }
    crate::ir_builder::move_until_terminator(
        body.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }),
        end,
    );
    let mut new_mut = unsafe { OperationRefMut::from_raw(new.to_raw()) };
    for (name, attribute) in old.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or_default().to_string();
        if !matches!(name.as_str(), "label" | "kind") {
            new_mut.set_discardable_attribute(&name, attribute);
        }
    }
    crate::ir_builder::erase(old);
    Ok(())
}

/// The trip count of a loop whose bounds are constants, or arithmetic over
/// constants.
pub fn constant_trip(op: OperationRef<'_, '_>) -> Option<i64> {
    let bound = |n| op.operand(n).ok().and_then(crate::ir_query::evaluate_index);
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

/// The loop whose body directly holds `op`.
pub fn parent_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    op.parent_operation().filter(|parent| op_name(parent) == FOR)
}

/// Ops a schedule may move into or out of a loop body: they compute, and
/// neither write nor loop.
fn movable(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    op.region_count() == 0
        && (name.starts_with("arith.")
            || name.starts_with("index.")
            || name.starts_with("math.")
            || matches!(name.as_str(), "sparse_pos.load" | "sparse_pos.find" | "sparse_pos.parent_position"))
}

/// Checks that `inner` is perfectly nested in `outer` up to movable ops
/// before it (`outer { pre; inner { body } }`, nothing after `inner`), and
/// moves what the bounds of `inner` need out in front of `outer`, so that
/// `inner`'s trip count is known before `outer` runs. Returns the ops of
/// `pre` that stay. `pass` prefixes the diagnostics.
pub fn perfect_nest<'c>(
    pass: &str,
    outer: OperationRef<'c, 'c>,
    inner: OperationRef<'c, 'c>,
) -> Result<Vec<OperationRef<'c, 'c>>, PassFailed> {
    let location = inner.location();
    let label = loop_label;
    let body =
        outer.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    let outer_position = loop_position(outer)?;

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
                    "{pass}: loops \"{}\" and \"{}\" are not perfectly nested: this op follows \"{}\" inside \"{}\"",
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
                "{pass}: loops \"{}\" and \"{}\" are not perfectly nested: this op between them writes or loops",
                label(outer),
                label(inner)
            ),
        ));
    }

    let mut hoist: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut pending: Vec<Value<'c, 'c>> = inner.operands().map(detach).collect();
    while let Some(value) = pending.pop() {
        if value == outer_position {
            return Err(emit_error(
                location,
                format!("{pass}: the bounds of \"{}\" depend on the position of \"{}\"", label(inner), label(outer)),
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
                format!("{pass}: the bounds of \"{}\" are computed inside \"{}\"", label(inner), label(outer)),
            ));
        }
    }
    for &op in before.iter().filter(|op| hoist.contains(op)) {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(outer);
    }
    Ok(before.into_iter().filter(|op| !hoist.contains(op)).collect())
}

/// The loops a `loops=A,B` option names: two distinct labels, each found
/// under `root`. `pass` prefixes the diagnostics.
#[allow(clippy::type_complexity)]
pub fn two_loops<'c, 'a>(
    pass: &str,
    root: OperationRef<'c, 'a>,
    option: &str,
) -> Result<((String, Vec<OperationRef<'c, 'a>>), (String, Vec<OperationRef<'c, 'a>>)), PassFailed> {
    let labels: Vec<&str> = option.split(',').map(str::trim).collect();
    let [first, second] = labels[..] else {
        return Err(emit_error(
            root.location(),
            format!("{pass}: loops must name two loops, got '{}'", labels.join(",")),
        ));
    };
    if first == second {
        return Err(emit_error(root.location(), format!("{pass}: loop \"{first}\" is named twice")));
    }
    let found = |label: &str| Ok((label.to_string(), named_loops(pass, root, label)?));
    Ok((found(first)?, found(second)?))
}

/// Two accesses in `op`'s body to one buffer, one of them a store, that
/// different positions of `op` may make to one element: they differ at
/// some axis, and at no axis are both the same value that tells the
/// loop's positions apart. Running those positions at once, or in
/// another order, changes what the load reads (a triangular solve's
/// `x[j]`, written at an earlier row) or which store lands last.
/// Accesses at the very same positions (an accumulation's load and
/// store) are one element per position, or the one element that every
/// position updates, which atomic writes serve; a buffer allocated inside
/// the loop is a position's own.
pub fn carried_conflict<'c>(op: OperationRef<'c, '_>) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)> {
    let position = loop_position(op).ok()?;
    let mut accesses: Vec<(OperationRef<'c, 'c>, Value<'c, 'c>, Vec<Value<'c, 'c>>, bool)> = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        let store = match op_name(&inner).as_str() {
            "sparse_pos.load" => false,
            "sparse_pos.store" => true,
            _ => return WalkResult::Advance,
        };
        let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
        let operands: Vec<Value<'c, 'c>> = inner.operands().map(detach).collect();
        let buffer = usize::from(store);
        // A buffer allocated inside the loop is each position's own.
        let private = |target| crate::buffer::BufferDef::read(target).is_some_and(|def| encloses(op, def.op));
        if let Some(&target) = operands.get(buffer).filter(|&&target| !private(target)) {
            accesses.push((inner, target, operands[buffer + 1..].to_vec(), store));
        }
        WalkResult::Advance
    });
    for (index, (a, buffer, at, a_stores)) in accesses.iter().enumerate() {
        for (b, other, bt, b_stores) in &accesses[index + 1..] {
            let related = buffer == other && (*a_stores || *b_stores);
            let apart = at == bt || at.iter().zip(bt).any(|(&x, &y)| x == y && separates(x, position, 0));
            if related && !apart {
                return Some((*a, *b));
            }
        }
    }
    None
}

/// Whether `value` differs at any two values of `position`: the position
/// itself, plus or minus what does not depend on it, or times a non-zero
/// constant.
fn separates(value: Value<'_, '_>, position: Value<'_, '_>, depth: usize) -> bool {
    if value == position {
        return true;
    }
    let Ok(owner) = melior::ir::operation::OperationResult::try_from(value).map(|r| r.owner()) else { return false };
    let (Ok(x), Ok(y)) = (owner.operand(0), owner.operand(1)) else { return false };
    let (x, y) = (detach(x), detach(y));
    let position = detach(position);
    let invariant = |v| !crate::ir_query::depends_on(v, position);
    let inner = |v| depth < 16 && separates(v, position, depth + 1);
    match op_name(&owner).as_str() {
        "arith.addi" => (inner(x) && invariant(y)) || (inner(y) && invariant(x)),
        "arith.subi" => inner(x) && invariant(y),
        "arith.muli" => {
            let nonzero = |v| crate::ir_query::constant_index(v).is_some_and(|c| c != 0);
            (inner(x) && nonzero(y)) || (inner(y) && nonzero(x))
        }
        _ => false,
    }
}
