//! Reading and making `sparse_pos.for` ops: the one place stage II
//! schedules look up loops by label, read their kind, and build or replace
//! loops.

use crate::{
    axis::detach,
    ir_builder::{region_with_block, Builder},
    ir_query::{defined_outside, encloses, label_choices, op_name},
    pass_registry::{emit_error, options_location, PassFailed},
};
use melior::{
    ir::{
        attribute::{Attribute, IntegerAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::IntegerType,
        RegionLike, Value, ValueLike,
    },
    Context,
};
use sptir_dialects::sparse_pos;

pub const FOR: &str = "sparse_pos.for";

/// The marker of a `sparse_pos.load` that reads a sparse axis's coordinate
/// for a spatial loop (`lower-sparse-iter`): the loop's kind declares the
/// coordinates at its positions distinct, which the dependence test takes
/// at its word (`carried_conflict`).
pub const DISTINCT: &str = "sptir.distinct";

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
        return Err(emit_error(
            options_location(root),
            format!("{pass}: no sparse_pos.for labelled \"{label}\"{choices}"),
        ));
    }
    Ok(loops)
}

/// Refuses a schedule of loop `at` whose new loops would take a label
/// that a loop under `root` already has: a later schedule naming it would
/// apply to both, the user's loop and the new one.
pub fn check_new_labels(
    pass: &str,
    root: OperationRef<'_, '_>,
    at: OperationRef<'_, '_>,
    labels: &[String],
) -> Result<(), PassFailed> {
    match labels.iter().find(|label| !find_loops(root, label).is_empty()) {
        Some(taken) => Err(emit_error(
            at.location(),
            format!("{pass}: it would label a new loop \"{taken}\", which already labels a loop here, so that schedules naming \"{taken}\" would apply to both; give the existing loop another label"),
        )),
        None => Ok(()),
    }
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
    position_of(op).ok_or_else(|| emit_error(op.location(), "internal: loop without position"))
}

fn position_of<'c>(op: OperationRef<'c, '_>) -> Option<Value<'c, 'c>> {
    op.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok()).map(|a| detach(a.into()))
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

/// What to do for loop `op` to get the constant trip count that
/// unrolling and vectorizing need.
pub fn constant_trip_advice(op: OperationRef<'_, '_>) -> &'static str {
    // A clamped split's inner loop runs `minui(factor, left)` positions.
    let upper = op.operand(1).ok().and_then(|bound| crate::ir_query::op_result(bound).ok());
    match upper.map(|bound| op_name(&bound.owner())) {
        Some(name) if name == "arith.minui" => {
            "it is the inner loop of a clamp=true split, which runs min(factor, what is left) positions: split \
             without clamp=true, whose guard keeps the trip count constant"
        }
        _ => "split it first with sparse-pos-split",
    }
}

/// The mark (`vectorize`, `unroll`) that makes `op` one thread's work,
/// its positions a vector's lanes or copies of its body: a schedule
/// that changes the loop's shape or binds it would leave the mark
/// meaning something else.
pub fn one_thread_mark(op: OperationRef<'_, '_>) -> Option<&'static str> {
    ["vectorize", "unroll"].into_iter().find(|&mark| op.has_attribute(mark))
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
pub fn movable(op: &OperationRef<'_, '_>) -> bool {
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
            options_location(root),
            format!("{pass}: loops must name two loops, got '{}'", labels.join(",")),
        ));
    };
    if first == second {
        return Err(emit_error(options_location(root), format!("{pass}: loop \"{first}\" is named twice")));
    }
    let found = |label: &str| Ok((label.to_string(), named_loops(pass, root, label)?));
    Ok((found(first)?, found(second)?))
}

/// The dimension `op` is bound to (`blockIdx.x`, ...), if any.
pub fn binding(op: OperationRef<'_, '_>) -> Option<String> {
    op.attribute("bind").ok().and_then(|a| StringAttribute::try_from(a).ok()).map(|to| to.value().to_string())
}

/// The loops under `top` (itself included) bound to a dimension for which
/// `wanted` holds.
pub fn bound_loops<'c, 'a>(top: OperationRef<'c, 'a>, wanted: impl Fn(&str) -> bool) -> Vec<OperationRef<'c, 'a>> {
    crate::ir_query::ops_where(top, WalkOrder::PreOrder, |op| binding(op).is_some_and(|to| wanted(&to)))
}

/// The first `sparse_pos.store` under `op` for which `wanted` holds.
pub fn find_store<'c>(
    op: OperationRef<'c, '_>,
    wanted: impl Fn(OperationRef<'c, 'c>) -> bool,
) -> Option<OperationRef<'c, 'c>> {
    let mut found = None;
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::<'c, 'c>::from_raw(inner.to_raw()) };
        if op_name(&inner) == "sparse_pos.store" && wanted(inner) {
            found = Some(inner);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Two accesses in `op`'s body to one buffer, one of them a store, that
/// different positions of `op` may make to one element. The positions of
/// the loops inside `op` vary with `op`'s, and so do those of the unbound
/// loops from `op` out to `root`: `root` is the outermost loop of `op`'s
/// launch, and an unbound loop in a launch runs its positions in turn in
/// every thread, with no barrier between them. A bound loop around `op`
/// answers for its own positions (its own check), and loops outside
/// `root` run on the host, a launch a position.
///
/// Two accesses are apart when their coordinates are the very same
/// values (an accumulation's load and store: one element per position,
/// or the one element every position updates, which atomic writes
/// serve), or when at some axis they are
/// - the same value that tells `op`'s positions apart (the position,
///   plus or minus what does not vary, or times a non-zero constant), or
/// - values that do not vary and differ by a non-zero constant (row
///   `t + 1` written from row `t`).
///
/// Running positions that are not apart at once, or in another order,
/// changes what a load reads (a triangular solve's `x[j]`, written at an
/// earlier row) or which store lands last. A buffer allocated inside the
/// loop is each position's own, except one in scope "shared" where
/// `lanes` says the positions are to be a row's lanes (threadIdx.x),
/// which share their block's one copy of it (rows on threadIdx.y or z
/// get a copy each: `privatize-row-tiles`).
///
/// A spatial loop of more than one position conflicts with itself at a
/// store whose coordinates none depend on its position (`Y[0] = X[i]`
/// under an "S" axis): its kind promised what the store breaks.
pub fn carried_conflict<'c>(
    op: OperationRef<'c, '_>,
    root: OperationRef<'_, '_>,
    lanes: bool,
) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)> {
    let position = position_of(op)?;
    let mut varying = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        if op_name(&inner) == FOR {
            varying.extend(position_of(unsafe { OperationRef::<'c, 'c>::from_raw(inner.to_raw()) }));
        }
        WalkResult::Advance
    });
    let mut current = op.to_raw();
    while current.ptr != root.to_raw().ptr {
        let Some(parent) = unsafe { OperationRef::from_raw(current) }.parent_operation() else { break };
        if op_name(&parent) == FOR && !parent.has_attribute("bind") {
            varying.extend(position_of(parent));
        }
        current = parent.to_raw();
    }
    let fixed = |value: Value<'c, 'c>| varying.iter().all(|&p| !crate::ir_query::depends_on(value, p));
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
        let private = |target| {
            crate::buffer::BufferDef::read(target)
                .is_some_and(|def| encloses(op, def.op) && !(lanes && def.scope() == "shared"))
        };
        if let Some(&target) = operands.get(buffer).filter(|&&target| !private(target)) {
            accesses.push((inner, target, operands[buffer + 1..].to_vec(), store));
        }
        WalkResult::Advance
    });
    // A spatial kind is trusted where a store's coordinates follow the
    // position in ways no test here can see through (a hyb bucket's row
    // ids); a store none of whose coordinates follows it at all writes
    // one element at every position.
    if loop_kind(op) == LoopKind::Spatial && constant_trip(op).is_none_or(|trip| trip > 1) {
        let fixed_store = accesses
            .iter()
            .find(|(_, _, at, stores)| *stores && at.iter().all(|&x| !crate::ir_query::depends_on(x, position)));
        if let Some(&(store, ..)) = fixed_store {
            return Some((store, store));
        }
    }
    let spatial = loop_kind(op) == LoopKind::Spatial;
    let never_equal = |x: Value<'c, 'c>, y: Value<'c, 'c>| {
        let ((x_terms, x_offset), (y_terms, y_offset)) =
            (crate::ir_query::offset_form(x), crate::ir_query::offset_form(y));
        x_terms == y_terms && x_offset != y_offset && fixed(x) && fixed(y)
    };
    for (index, (a, buffer, at, a_stores)) in accesses.iter().enumerate() {
        for (b, other, bt, b_stores) in &accesses[index + 1..] {
            let related = *a_stores || *b_stores;
            if !related || crate::buffer::array(*buffer) != crate::buffer::array(*other) {
                continue;
            }
            // Two buffers over one array (an `x` read over one axis and
            // written over another) give coordinates of different axes.
            if !same_axes(*buffer, *other) {
                return Some((*a, *b));
            }
            // Where the other axes' coordinates are the same values, two
            // positions that touch one element agree on them, and on all
            // they determine (a fused loop's row, and the row's start in
            // `f - indptr[row]`).
            // Coordinates computed apart by the same arithmetic of the same
            // values are the same (`last - k` in an init and in the body).
            let same = |x: Value<'c, 'c>, y: Value<'c, 'c>| {
                x == y || crate::ir_query::offset_form(x) == crate::ir_query::offset_form(y)
            };
            let apart = (at.len() == bt.len() && at.iter().zip(bt).all(|(&x, &y)| same(x, y)))
                || at.iter().zip(bt).enumerate().any(|(axis, (&x, &y))| {
                    let keys = || {
                        at.iter()
                            .zip(bt)
                            .enumerate()
                            .filter(|&(other, (&u, &v))| other != axis && same(u, v))
                            .map(|(_, (&u, _))| u)
                    };
                    (same(x, y)
                        && (separates(x, position, &varying, &keys().collect::<Vec<_>>(), &[*a, *b])
                            || (spatial
                                && id_at(x, &fixed, |slot| {
                                    slot == position
                                        || separates(slot, position, &varying, &keys().collect::<Vec<_>>(), &[*a, *b])
                                }))))
                        || never_equal(x, y)
                });
            if !apart {
                return Some((*a, *b));
            }
        }
    }
    None
}

/// Whether `value` is a sparse axis's coordinate read for a spatial loop
/// (marked `DISTINCT`), from a slot that `distinct` tells apart at two
/// positions under a parent that `fixed` says they share (`ids[..., slot]`,
/// cast or not), such as a hyb bucket's row:
/// the kind declares the coordinates distinct, so the ones read at two
/// positions are taken to differ (an owning bucket's row cleared, then
/// added to feature by feature). Ids read from other data are not.
fn id_at<'c>(
    value: Value<'c, 'c>,
    fixed: impl Fn(Value<'c, 'c>) -> bool,
    distinct: impl Fn(Value<'c, 'c>) -> bool,
) -> bool {
    let Some(owner) = coordinate_load(value) else { return false };
    let operands: Vec<Value<'c, 'c>> = owner.operands().map(detach).collect();
    // The slot tells the positions apart within one parent (a row of an
    // ELL axis): the parent's position must not vary with them (a
    // reordered row loop inside the column loop).
    owner.has_attribute(DISTINCT)
        && operands.split_last().is_some_and(|(&slot, rest)| rest[1..].iter().all(|&p| fixed(p)) && distinct(slot))
}

/// The `sparse_pos.load` that an index is read by, through casts (a
/// sparse axis's coordinate, as `lower-sparse-iter` reads it).
pub fn coordinate_load<'c>(index: Value<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    let mut value = detach(index);
    loop {
        let owner = crate::ir_query::op_result(value).ok()?.owner();
        match op_name(&owner).as_str() {
            "arith.index_cast" | "arith.index_castui" => value = detach(owner.operand(0).ok()?),
            "sparse_pos.load" => return Some(unsafe { OperationRef::from_raw(owner.to_raw()) }),
            _ => return None,
        }
    }
}

/// Whether two buffers over one array place each coordinate at the same
/// element: they are one buffer, or match it over the same axes.
fn same_axes(buffer: Value<'_, '_>, other: Value<'_, '_>) -> bool {
    buffer == other
        || crate::buffer::BufferDef::read(buffer)
            .zip(crate::buffer::BufferDef::read(other))
            .is_some_and(|(a, b)| a.axes == b.axes && a.element == b.element)
}

/// Whether `value` differs at any two values of `position`, whatever the
/// other `varying` positions are: it is the position times a non-zero
/// constant plus what spreads over less than that constant (a split
/// loop's row `o * 4 + i`, with `i` in `0..4`, tells the `o` apart).
/// What `keys` and values that do not vary determine counts as fixed.
fn separates<'c>(
    value: Value<'c, 'c>,
    position: Value<'c, 'c>,
    varying: &[Value<'c, 'c>],
    keys: &[Value<'c, 'c>],
    within: &[OperationRef<'c, 'c>],
) -> bool {
    stride(value, position, varying, keys, within, 0)
        .is_some_and(|(coefficient, spread)| coefficient != 0 && spread < coefficient.abs())
}

/// Whether `value` is computed from `keys` and values that no `varying`
/// position changes, by ops without regions.
fn determined_by<'c>(value: Value<'c, 'c>, keys: &[Value<'c, 'c>], varying: &[Value<'c, 'c>]) -> bool {
    let mut pending = vec![value];
    let mut seen = std::collections::HashSet::new();
    while let Some(value) = pending.pop() {
        if keys.contains(&value) || !seen.insert(value.to_raw().ptr) {
            continue;
        }
        if varying.iter().all(|&p| !crate::ir_query::depends_on(value, p)) {
            continue;
        }
        match crate::ir_query::op_result(value) {
            Ok(result) if result.owner().region_count() == 0 => {
                pending.extend(result.owner().operands().map(detach));
            }
            _ => return false,
        }
    }
    true
}

/// A value `value` never exceeds: its own where known, or for a minimum
/// (a clamped split's `minui(F, left)`) the least of the known operands.
fn at_most(value: Value<'_, '_>) -> Option<i64> {
    if let Some(known) = crate::ir_query::evaluate_index(value) {
        return Some(known);
    }
    let owner = crate::ir_query::op_result(value).ok()?.owner();
    if op_name(&owner) != "arith.minui" {
        return None;
    }
    owner.operands().filter_map(crate::ir_query::evaluate_index).filter(|&v| v >= 0).min()
}

/// `value` as `coefficient * position + rest`, with how far `rest` spreads
/// (its largest value minus its smallest) as the `varying` positions
/// other than `position` take their values, where the ops `within` run;
/// none where that is unknown.
fn stride<'c>(
    value: Value<'c, 'c>,
    position: Value<'c, 'c>,
    varying: &[Value<'c, 'c>],
    keys: &[Value<'c, 'c>],
    within: &[OperationRef<'c, 'c>],
    depth: usize,
) -> Option<(i64, i64)> {
    if value == position {
        return Some((1, 0));
    }
    if determined_by(value, keys, varying) {
        return Some((0, 0));
    }
    let computed = stride_inner(value, position, varying, keys, within, depth);
    // A split's tail guard (`i.o * 5 + i.i < 48`, the inner split of a
    // 48-row block) bounds what the loops' spans alone would not, where
    // the value does not follow the position.
    if computed.is_none_or(|(coefficient, _)| coefficient == 0) {
        let bound = guarded_below(value, within).filter(|_| !crate::ir_query::depends_on(value, position));
        if let Some(bound) = bound {
            return Some((0, computed.map_or(bound - 1, |(_, spread)| spread.min(bound - 1))));
        }
    }
    computed
}

/// The bound `C` of a guard `value < C` (unsigned, `C` a constant) whose
/// `then` holds every op of `within`: there `value` lies in `0..C`.
fn guarded_below<'c>(value: Value<'c, 'c>, within: &[OperationRef<'c, 'c>]) -> Option<i64> {
    let ult = melior::dialect::arith::CmpiPredicate::Ult as i64;
    crate::ir_query::users(value)
        .into_iter()
        .filter(|cmpi| {
            op_name(cmpi) == "arith.cmpi"
                && cmpi.operand(0).is_ok_and(|v| detach(v) == value)
                && cmpi
                    .attribute("predicate")
                    .ok()
                    .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                    .is_some_and(|p| p.value() == ult)
        })
        .filter_map(|cmpi| {
            let bound = crate::ir_query::constant_index(cmpi.operand(1).ok()?).filter(|&c| c > 0)?;
            let condition: Value = cmpi.result(0).ok()?.into();
            let guards = crate::ir_query::users(condition).into_iter().any(|guard| {
                op_name(&guard) == "scf.if"
                    && guard.operand(0).is_ok_and(|c| c == condition)
                    && !within.is_empty()
                    && within.iter().all(|&op| crate::ir_query::in_then(guard, op))
            });
            guards.then_some(bound)
        })
        .min()
}

/// `N` where `offset` is the position of a loop from 0 to `minui(F, N -
/// base)` (a clamped split's inner loop, `N` a constant) and `base` is
/// not negative (a loop's position from 0, times a constant): `base +
/// offset` then lies in `0..N`.
fn clamped_sum_bound<'c>(base: Value<'c, 'c>, offset: Value<'c, 'c>) -> Option<i64> {
    fn loop_of<'c>(v: Value<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
        let argument = crate::ir_query::block_argument(v).ok()?;
        let owner = argument.owner().parent_operation()?;
        let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(owner.to_raw()) };
        (op_name(&owner) == FOR && argument.argument_number() == 0).then_some(owner)
    }
    let from_zero =
        |v: Value| loop_of(v).is_some_and(|l| l.operand(0).ok().and_then(crate::ir_query::evaluate_index) == Some(0));
    let non_negative = from_zero(base)
        || crate::ir_query::op_result(base).is_ok_and(|r| {
            let owner = r.owner();
            op_name(&owner) == "arith.muli"
                && owner.operand(0).is_ok_and(|v| from_zero(detach(v)))
                && owner.operand(1).ok().and_then(crate::ir_query::constant_index).is_some_and(|c| c >= 0)
        });
    let clamp_loop = loop_of(offset)?;
    if !non_negative || clamp_loop.operand(0).ok().and_then(crate::ir_query::evaluate_index) != Some(0) {
        return None;
    }
    let minimum = crate::ir_query::op_result(detach(clamp_loop.operand(1).ok()?)).ok()?.owner();
    if op_name(&minimum) != "arith.minui" {
        return None;
    }
    let terms: Vec<Value<'c, 'c>> = minimum.operands().map(detach).collect();
    terms.into_iter().find_map(|term| {
        let difference = crate::ir_query::op_result(term).ok()?.owner();
        let (total, subtracted) = (detach(difference.operand(0).ok()?), detach(difference.operand(1).ok()?));
        (op_name(&difference) == "arith.subi" && subtracted == base)
            .then(|| crate::ir_query::evaluate_index(total))
            .flatten()
            .filter(|&n| n > 0)
    })
}

/// `stride` from `value`'s own arithmetic: a loop's span, sums and
/// products by constants.
fn stride_inner<'c>(
    value: Value<'c, 'c>,
    position: Value<'c, 'c>,
    varying: &[Value<'c, 'c>],
    keys: &[Value<'c, 'c>],
    within: &[OperationRef<'c, 'c>],
    depth: usize,
) -> Option<(i64, i64)> {
    if varying.contains(&value) {
        let argument = crate::ir_query::block_argument(value).ok()?;
        let block = argument.owner();
        let owner = block.parent_operation()?;
        let lower = owner.operand(0).ok().and_then(crate::ir_query::evaluate_index)?;
        let upper = owner.operand(1).ok().and_then(at_most)?;
        return Some((0, upper.checked_sub(lower)?.checked_sub(1)?.max(0)));
    }
    let owner = crate::ir_query::op_result(value).ok()?.owner();
    let (x, y) = (detach(owner.operand(0).ok()?), detach(owner.operand(1).ok()?));
    let inner = |v| if depth < 16 { stride(v, position, varying, keys, within, depth + 1) } else { None };
    match op_name(&owner).as_str() {
        "arith.addi" | "arith.subi" => {
            let ((cx, wx), (cy, wy)) = (inner(x)?, inner(y)?);
            let coefficient = if op_name(&owner) == "arith.addi" { cx.checked_add(cy)? } else { cx.checked_sub(cy)? };
            let mut spread = wx.checked_add(wy)?;
            // A clamped split's chunk start plus its offset stays below
            // what the chunks split (`o * 5 + i`, i < min(5, 48 - o * 5)).
            if op_name(&owner) == "arith.addi" && coefficient == 0 {
                if let Some(bound) = clamped_sum_bound(x, y).or_else(|| clamped_sum_bound(y, x)) {
                    spread = spread.min(bound - 1);
                }
            }
            Some((coefficient, spread))
        }
        "arith.muli" => {
            let (v, factor) = match crate::ir_query::constant_index(y) {
                Some(factor) => (x, factor),
                None => (y, crate::ir_query::constant_index(x)?),
            };
            let (c, w) = inner(v)?;
            Some((c.checked_mul(factor)?, w.checked_mul(factor.checked_abs()?)?))
        }
        _ => None,
    }
}
