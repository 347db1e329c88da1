//! `lower-sparse-iter`: stage I -> stage II (SparseTIR section 3.3.1).
//!
//! Each sparse iteration becomes one `sparse_pos.for` per axis (or per fused
//! group) over positions: extents come from fixed lengths or indptr
//! differences, read from auxiliary buffers; coordinates of sparse axes are
//! read from indices. The `init` region runs in its own loop nest before
//! the first reduction loop. Buffer accesses move from coordinates to
//! positions: an access whose coordinate is the one a loop walks uses that
//! loop's position; a dense axis's position is its coordinate; any other
//! sparse coordinate is looked up with a binary search (`sparse_pos.find`),
//! and a load of a coordinate that is not stored reads the default value,
//! a store there goes nowhere, and an accumulation there (`B[c] = B[c] + v`)
//! is skipped as a whole, keeping its form for atomic and register sums.

use crate::{
    aux_buffers::AuxBuffers,
    axis::{detach, key, Axis, AxisKind},
    buffer::BufferDef,
    ir_builder::{erase, if_else, replace_uses, zero_attribute, Builder},
    ir_query::{accumulation, constant_index, outermost, use_count},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    sparse_iter_ops::{is_iteration, IterationInfo},
    sparse_pos_ops::{insert_loop, kind_attribute, loop_position, LoopKind},
};
use melior::Context;
use melior::{
    dialect::arith,
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, Location, RegionLike, Value, ValueLike,
    },
};
use sptir_dialects::sparse_pos;
use std::collections::HashMap;

pub const PASS: PassDef = PassDef {
    name: "LowerSparseIter",
    argument: "lower-sparse-iter",
    description: "Lower stage I sparse iterations to stage II position-space loops",
    options: &[],
    dependent_dialects: "arith,scf,sparse_pos",
    run,
};

/// What the loops opened so far know about one walked axis.
#[derive(Clone, Copy)]
struct Walked<'c> {
    position: Value<'c, 'c>,
    coordinate: Value<'c, 'c>,
    /// The walked axis's length, above every coordinate it yields.
    length: Value<'c, 'c>,
}

type Env<'c> = HashMap<usize, Walked<'c>>;

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    regroup_accumulations(context, root)?;
    select_guarded_reductions(context, root)?;
    // Nested iterations are lowered from inside their parent.
    let outermost = outermost(root, |op| is_iteration(op));
    let mut lowering = Lowering { context, aux: AuxBuffers::new(context) };
    for op in outermost {
        lowering.iteration(op, &Env::default())?;
    }
    refuse_shared_loop_labels(root)?;
    // Accesses outside every iteration (a rank-0 scale read once) walk
    // nothing: each coordinate is looked up.
    let accesses = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        matches!(op.name().as_string_ref().as_str(), Ok("sparse_iter.load" | "sparse_iter.store"))
    });
    for op in accesses {
        lowering.access(op, &Env::default())?;
    }
    Ok(())
}

/// Schedules name loops by label and act on every loop of that label, so
/// two iterations of a function whose loops share one (both labelled
/// "r", or "r.init" beside "r" with an init region: both make
/// "r.init.1") would be scheduled as one. Within an iteration its labels
/// differ; a function whose iterations' do not is refused, naming both,
/// unless they are copies of one iteration in the source.
fn refuse_shared_loop_labels(root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
    let loops =
        crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| crate::ir_query::op_name(&op) == "sparse_pos.for");
    let result = shared_loop_label(&loops);
    for op in &loops {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.remove_attribute(ITERATION).ok();
    }
    result
}

/// The label of the iteration a loop comes from, while lower-sparse-iter
/// runs.
const ITERATION: &str = "sptir.iteration";

fn shared_loop_label(loops: &[OperationRef<'_, '_>]) -> Result<(), PassFailed> {
    let mut seen: HashMap<(usize, String), OperationRef> = HashMap::new();
    for &op in loops {
        let function = crate::ir_query::enclosing_function(op).map_or(0, |f| f.to_raw().ptr as usize);
        let label = crate::sparse_pos_ops::loop_label(op);
        // Copies of one iteration (a helper inlined at two calls) make
        // the same loops, which one schedule is meant for: loops from one
        // source position and iterations of one label.
        let copies = |first: OperationRef| {
            let at = |op: OperationRef| crate::ir_query::position(op.location());
            let iteration = |op: OperationRef| op.attribute(ITERATION).ok().map(|a| a.to_string());
            at(first).is_some() && at(first) == at(op) && iteration(first) == iteration(op)
        };
        if let Some(first) = seen.insert((function, label.clone()), op).filter(|&first| !copies(first)) {
            let at = crate::ir_query::position(first.location())
                .map_or(String::new(), |at| format!(" (the other at line {}:{})", at.line, at.column));
            return Err(emit_error(
                op.location(),
                format!(
                    "lower-sparse-iter: two iterations of this function make a loop labelled \"{label}\"{at}, and a schedule naming it would act on both: give the iterations labels that differ, neither one the other's followed by \".init\""
                ),
            ));
        }
    }
    Ok(())
}

/// Regroups a store of `(m[i] + a) + b` into `m[i]` (either order of
/// each sum; addf or addi, or one maximum or minimum op throughout: a
/// `Reduction`; the inner sum used only there) as `m[i] + (a + b)`, where
/// neither term reads `m[i]`: an accumulation of two terms (a relation's
/// product and a self loop's) is then one that threads can share,
/// atomically or by shuffles, as a sum of one is. A float sum so regrouped
/// may round differently, as any reordered one.
fn regroup_accumulations<'c>(context: &'c Context, root: OperationRef<'c, '_>) -> Result<(), PassFailed> {
    loop {
        let stores = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
            op.name().as_string_ref().as_str() == Ok("sparse_iter.store")
        });
        let Some((outer, load, a, b, inner)) = stores.into_iter().find_map(|store| regroupable(store)) else {
            return Ok(());
        };
        let location = outer.location();
        let builder = Builder::before(context, outer)
            .ok_or_else(|| emit_error(location, "lower-sparse-iter: a sum outside a block"))?;
        let terms = builder.insert_clone(outer);
        unsafe { OperationRefMut::from_raw(terms.to_raw()) }.set_operands(&[a, b]);
        let sum: Value<'c, 'c> = detach(
            terms.result(0).map_err(|_| emit_error(location, "lower-sparse-iter: a sum without a result"))?.into(),
        );
        unsafe { OperationRefMut::from_raw(outer.to_raw()) }.set_operands(&[load, sum]);
        erase(inner);
        // `a + b` may overflow where neither partial sum did, and so may
        // the new total: the flags that said otherwise no longer hold.
        for op in [terms, outer] {
            for (flags, none) in [("overflowFlags", "#arith.overflow<none>"), ("fastmath", "#arith.fastmath<none>")] {
                if let Some(none) = Attribute::parse(context, none).filter(|_| op.has_attribute(flags)) {
                    unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_attribute(flags, none);
                }
            }
        }
    }
}

/// Rewrites a reduction under a guard, `if c { m[i] = max(m[i], t) }`
/// (any `Reduction`, in an iteration), as the unguarded
/// `m[i] = max(m[i], select(c, t, identity))`, and one in an else branch
/// with `!c`: each branch holds only stage I loads (which read an unstored
/// or out-of-range coordinate as its default, never out of bounds), pure
/// arithmetic, and stores that reduce into the element they load. Where
/// a branch is not taken, its elements are stored back as they were. A
/// guard that the data decides (a ReLU-masked maximum, a count of
/// positives, positives and negatives summed apart) then no longer stands
/// between a row's lanes and their warp shuffle, nor keeps the update from
/// being shared.
fn select_guarded_reductions<'c>(context: &'c Context, root: OperationRef<'c, '_>) -> Result<(), PassFailed> {
    // A guard holding another is not taken: the inner one's rewrite
    // leaves the stores found here as they are.
    let mut guards = Vec::new();
    root.walk(WalkOrder::PostOrder, |op| {
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let in_iteration = crate::ir_query::enclosing(op, &["sparse_iter.iterate"]).is_some();
        if crate::ir_query::op_name(&op) == "scf.if" && in_iteration {
            guards.extend(guarded_reductions(op).map(|stores| (op, stores)));
        }
        WalkResult::Advance
    });
    for (guard, branches) in guards {
        let location = guard.location();
        let taken = detach(guard.operand(0).map_err(|_| emit_error(location, "malformed scf.if"))?);
        let before = Builder::before(context, guard)
            .ok_or_else(|| emit_error(location, "lower-sparse-iter: an op outside a block"))?
            .at(location);
        let not_taken = || before.value(arith::xori(taken, boolean(&before, true), location));
        let conditions = [taken, if branches[1].is_empty() { taken } else { not_taken() }];
        let mut rewritten = std::collections::HashSet::new();
        for ((store, term, reduction), condition) in
            branches.into_iter().zip(conditions).flat_map(|(stores, c)| stores.into_iter().map(move |s| (s, c)))
        {
            let combined = crate::ir_query::op_result(detach(
                store.operand(0).map_err(|_| emit_error(location, "malformed store"))?,
            ))
            .map_err(|_| emit_error(location, "lower-sparse-iter: a reduction without its op"))?
            .owner();
            let combined: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(combined.to_raw()) };
            // Stores of one update (the same value stored twice) share
            // its rewrite.
            if !rewritten.insert(combined.to_raw().ptr as usize) {
                continue;
            }
            let identity = reduction.identity(context, term.r#type()).ok_or_else(|| {
                emit_error(location, "lower-sparse-iter: internal: a guarded reduction without an identity")
            })?;
            let builder = Builder::before(context, combined)
                .ok_or_else(|| emit_error(location, "lower-sparse-iter: an op outside a block"))?
                .at(combined.location());
            let identity = builder.value(arith::constant(context, identity, combined.location()));
            let selected = builder.value(arith::select(condition, term, identity, combined.location()));
            let position = (0..2).find(|&n| combined.operand(n).map(detach).ok() == Some(term)).ok_or_else(|| {
                emit_error(location, "lower-sparse-iter: internal: a reduction's term is not its operand")
            })?;
            unsafe { OperationRefMut::from_raw(combined.to_raw()) }.set_operand(position, selected);
        }
        let then_block = guard.region(0).ok().and_then(|r| r.first_block());
        let first = then_block.and_then(|b| b.first_operation()).map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        crate::ir_builder::move_until_terminator(first, guard);
        crate::ir_builder::inline_region(guard, 1);
    }
    Ok(())
}

/// The reduction `store`s (with their terms) of each branch of a guard
/// that `select_guarded_reductions` can take, if it can: no results, and
/// branches of stage I loads, pure arithmetic and reductions that have an
/// identity for their type, at least one reduction in all.
#[allow(clippy::type_complexity)]
fn guarded_reductions<'c>(
    guard: OperationRef<'c, 'c>,
) -> Option<[Vec<(OperationRef<'c, 'c>, Value<'c, 'c>, crate::reduction::Reduction)>; 2]> {
    if guard.result_count() != 0 || guard.region_count() != 2 {
        return None;
    }
    let branches = [branch_reductions(guard, 0)?, branch_reductions(guard, 1)?];
    branches.iter().any(|stores| !stores.is_empty()).then_some(branches)
}

/// The reduction stores of region `index` of `guard` as
/// `guarded_reductions` takes them: none for an empty region, `None` if an
/// op there is not one it can take.
#[allow(clippy::type_complexity)]
fn branch_reductions<'c>(
    guard: OperationRef<'c, 'c>,
    index: usize,
) -> Option<Vec<(OperationRef<'c, 'c>, Value<'c, 'c>, crate::reduction::Reduction)>> {
    let Some(block) = guard.region(index).ok()?.first_block() else { return Some(Vec::new()) };
    let context = guard.context();
    let context = unsafe { context.to_ref() };
    let mut stores = Vec::new();
    for op in crate::ir_query::block_ops(&block) {
        match crate::ir_query::op_name(&op).as_str() {
            "scf.yield" | "sparse_iter.load" => {}
            "sparse_iter.store" => {
                let (load, term, reduction) = crate::ir_query::reduction(op)?;
                let load_here = load.block().is_some_and(|b| b == block);
                reduction.identity(context, term.r#type())?;
                if !load_here || !spatially_own(op) || fast_math_assumes_finite(op) {
                    return None;
                }
                stores.push((op, term, reduction));
            }
            _ if crate::ir_query::speculatable(&op) || crate::ir_query::op_name(&op).starts_with("math.") => {}
            _ => return None,
        }
    }
    Some(stores)
}

/// Whether `store`'s element has every spatial coordinate of the
/// iterations around it among its indices: each spatial position then
/// writes only elements of its own, and so may write one unconditionally.
/// Otherwise the guard may be what kept positions that run at once apart
/// (`if i == j { y[j] = max(y[j], a) }` over a spatial i: only row j wrote
/// y[j]; unguarded, every row would read and write it back).
fn spatially_own(store: OperationRef<'_, '_>) -> bool {
    let indices: Vec<Value> = store.operands().skip(2).map(detach).collect();
    let mut child = store;
    while let Some(iteration) = crate::ir_query::enclosing(child, &["sparse_iter.iterate"]) {
        // The op of the iteration's region that holds `store`.
        while child.parent_operation().is_some_and(|p| p != iteration) {
            let Some(parent) = child.parent_operation() else { return false };
            child = unsafe { OperationRef::from_raw(parent.to_raw()) };
        }
        let info = IterationInfo::read(iteration);
        let Some(block) = child.block() else { return false };
        let in_init = iteration.region(0).ok().and_then(|r| r.first_block()) == Some(block);
        // The init region's coordinates are the spatial ones, in order.
        let spatial: Vec<usize> = match in_init {
            true => (0..block.argument_count()).collect(),
            false => (0..info.kinds.len()).filter(|&n| info.kinds[n] == b'S').collect(),
        };
        for n in spatial {
            let Ok(coordinate) = block.argument(n) else { return false };
            if !indices.contains(&detach(coordinate.into())) {
                return false;
            }
        }
        child = iteration;
    }
    true
}

/// Whether `store`'s combining op may assume no NaN or infinity (fast-math
/// `nnan`/`ninf`): the identities of a maximum or a maxnum are -inf and
/// NaN, which such an op makes poison.
fn fast_math_assumes_finite(store: OperationRef<'_, '_>) -> bool {
    let Some(combined) = store.operand(0).ok().and_then(|v| crate::ir_query::op_result(detach(v)).ok()) else {
        return true;
    };
    let combined = unsafe { OperationRef::from_raw(combined.owner().to_raw()) };
    crate::ir_query::fast_math_flags(&combined).iter().any(|flag| matches!(flag.as_str(), "nnan" | "ninf" | "fast"))
}

/// For a store of `(load + a) + b` as `regroup_accumulations` takes it: the
/// outer sum, the load's value, `a`, `b` and the inner sum.
#[allow(clippy::type_complexity)]
fn regroupable<'c>(
    store: OperationRef<'c, 'c>,
) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>, Value<'c, 'c>, Value<'c, 'c>, OperationRef<'c, 'c>)> {
    if crate::ir_query::reduction(store).is_some() {
        return None;
    }
    let sum = |value: Value<'c, 'c>| -> Option<OperationRef<'c, 'c>> {
        let owner = crate::ir_query::op_result(value).ok()?.owner();
        let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(owner.to_raw()) };
        crate::reduction::Reduction::of(&owner).is_some().then_some(owner)
    };
    let operands = |op: OperationRef<'c, 'c>| Some((detach(op.operand(0).ok()?), detach(op.operand(1).ok()?)));
    let outer = sum(detach(store.operand(0).ok()?))?;
    let (x, y) = operands(outer)?;
    // A term that reads the stored element would see it before the sum.
    let reads_element = |v: Value<'c, 'c>| crate::ir_query::reads_stored_element(store, v);
    [(x, y), (y, x)].into_iter().find_map(|(partial, b)| {
        let inner = sum(partial)?;
        if crate::ir_query::op_name(&inner) != crate::ir_query::op_name(&outer) || use_count(partial) != 1 {
            return None;
        }
        let (p, q) = operands(inner)?;
        let is_old = |v| crate::ir_query::load_of_stored_element(store, v).is_some();
        let (load, a) = if is_old(p) {
            (p, q)
        } else if is_old(q) {
            (q, p)
        } else {
            return None;
        };
        (!reads_element(a) && !reads_element(b)).then_some((outer, load, a, b, inner))
    })
}

struct Lowering<'c> {
    context: &'c Context,
    aux: AuxBuffers<'c>,
}

impl<'c> Lowering<'c> {
    fn iteration(&mut self, op: OperationRef<'c, 'c>, outer: &Env<'c>) -> Result<(), PassFailed> {
        let location = op.location();
        let info = IterationInfo::read(op);
        let axes = info
            .axes
            .iter()
            .map(|&value| {
                Axis::read(value).ok_or_else(|| {
                    emit_error(location, crate::ir_query::not_defined_by(value, "an iteration axis", "an axis op"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let groups = info.groups();
        let is_reduction = |group: &std::ops::Range<usize>| group.clone().any(|a| info.kinds[a] == b'R');
        let first_reduction = groups.iter().position(is_reduction);

        let mut env = outer.clone();
        let mut builder =
            Builder::before(self.context, op).ok_or_else(|| emit_error(location, "iteration is not in a block"))?;
        let mut init_nest = None;
        for (index, group) in groups.iter().enumerate() {
            if info.has_init && Some(index) == first_reduction {
                init_nest = Some(self.init(op, &info, &axes, &groups[index..], builder, &env)?);
            }
            let kind = if is_reduction(group) { LoopKind::Reduction } else { LoopKind::Spatial };
            let label = format!("{}.{index}", info.label);
            builder = self.open_loop(builder, &axes[group.clone()], &mut env, (&label, &info.label), kind)?;
        }

        let body = op
            .region(1)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| emit_error(location, "iteration has no body"))?;
        let coordinates: Vec<Value> = axes.iter().map(|axis| env[&key(axis.value)].coordinate).collect();
        let moved = move_block(body, &coordinates, &builder);
        self.translate(&moved, &env)?;
        if let Some((moved, init_env)) = init_nest {
            self.translate(&moved, &init_env)?;
        }
        erase(op);
        Ok(())
    }

    /// The init nest: loops over the spatial axes that follow the first
    /// reduction loop, placed before it, running the init region once per
    /// spatial point.
    fn init(
        &mut self,
        op: OperationRef<'c, 'c>,
        info: &IterationInfo<'c, 'c>,
        axes: &[Axis<'c>],
        rest: &[std::ops::Range<usize>],
        mut builder: Builder<'c>,
        env: &Env<'c>,
    ) -> Result<(Vec<OperationRef<'c, 'c>>, Env<'c>), PassFailed> {
        let location = op.location();
        let mut env = env.clone();
        let reduction: Vec<usize> = rest.iter().flat_map(|g| g.clone()).filter(|&a| info.kinds[a] == b'R').collect();
        for (index, group) in rest.iter().enumerate() {
            if let Some(a) = info.spatial_fused_with_reduction(group.clone()) {
                return Err(emit_error(
                    location,
                    format!("init region needs spatial axis #{a}, which is fused with a reduction axis; write the initialization as its own iteration"),
                ));
            }
            if !group.clone().all(|a| info.kinds[a] == b'S') {
                continue;
            }
            for a in group.clone() {
                let depends = axes[a]
                    .ancestors()
                    .iter()
                    .any(|ancestor| reduction.iter().any(|&r| axes[r].value == ancestor.value));
                if depends {
                    return Err(emit_error(
                        location,
                        format!("init region needs spatial axis #{a}, which depends on a reduction axis; write the initialization as its own iteration"),
                    ));
                }
            }
            let label = format!("{}.init.{index}", info.label);
            builder =
                self.open_loop(builder, &axes[group.clone()], &mut env, (&label, &info.label), LoopKind::Spatial)?;
        }
        let init = op
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| emit_error(location, "missing init block"))?;
        let coordinates: Vec<Value> =
            (0..axes.len()).filter(|&a| info.kinds[a] == b'S').map(|a| env[&key(axes[a].value)].coordinate).collect();
        let moved = move_block(init, &coordinates, &builder);
        Ok((moved, env))
    }

    /// Opens the loop of one group of axes and records their positions and
    /// coordinates in `env`; returns a builder inside the loop body.
    fn open_loop(
        &mut self,
        builder: Builder<'c>,
        group: &[Axis<'c>],
        env: &mut Env<'c>,
        (label, iteration): (&str, &str),
        kind: LoopKind,
    ) -> Result<Builder<'c>, PassFailed> {
        let zero = builder.index(0);
        let upper = match group {
            [axis] => self.extent(&builder, axis, env)?,
            _ => self.fused_extent(&builder, group)?,
        };
        let (loop_op, inner) = insert_loop(&builder, label, kind_attribute(builder.context, kind), zero, upper);
        // For refuse_shared_loop_labels, which takes it off again.
        unsafe { OperationRefMut::from_raw(loop_op.to_raw()) }.set_discardable_attribute(
            ITERATION,
            melior::ir::attribute::StringAttribute::new(builder.context, iteration).into(),
        );
        let position = loop_position(loop_op)?;
        match group {
            [axis] => {
                let coordinate = self.coordinate(&inner, axis, env, position)?;
                if kind == LoopKind::Spatial {
                    mark_distinct(builder.context, coordinate);
                }
                env.insert(key(axis.value), Walked { position, coordinate, length: axis.length });
            }
            _ => self.unfuse(&inner, group, env, position)?,
        }
        Ok(inner)
    }

    /// Positions of the ancestors of `axis`, which enclosing loops walk.
    fn ancestor_positions(
        &self,
        axis: &Axis<'c>,
        env: &Env<'c>,
        location: Location<'c>,
    ) -> Result<Vec<Value<'c, 'c>>, PassFailed> {
        axis.ancestors()
            .iter()
            .map(|ancestor| {
                env.get(&key(ancestor.value)).map(|walked| walked.position).ok_or_else(|| {
                    emit_error(location, "an axis is walked before its parent axis; reorder the iteration")
                })
            })
            .collect()
    }

    /// Number of positions of `axis` under the walked positions of its
    /// ancestors.
    fn extent(&mut self, builder: &Builder<'c>, axis: &Axis<'c>, env: &Env<'c>) -> Result<Value<'c, 'c>, PassFailed> {
        match axis.kind {
            AxisKind::DenseFixed => Ok(axis.length),
            AxisKind::SparseFixed => {
                axis.nnz_cols.ok_or_else(|| emit_error(builder.location, "malformed sparse_fixed axis"))
            }
            AxisKind::DenseVariable | AxisKind::SparseVariable => {
                let positions = self.ancestor_positions(axis, env, builder.location)?;
                let (start, end) = self.row_bounds(builder, axis, &positions)?;
                Ok(builder.sub(end, start))
            }
        }
    }

    /// `indptr[row]` and `indptr[row + 1]` of a variable axis, as indices.
    fn row_bounds(
        &mut self,
        builder: &Builder<'c>,
        axis: &Axis<'c>,
        positions: &[Value<'c, 'c>],
    ) -> Result<(Value<'c, 'c>, Value<'c, 'c>), PassFailed> {
        let indptr = self.aux.indptr(axis)?;
        let mut next = positions.to_vec();
        if let Some(last) = next.last_mut() {
            let one = builder.index(1);
            *last = builder.add(*last, one);
        }
        let start = load_index(builder, indptr, positions);
        let end = load_index(builder, indptr, &next);
        Ok((start, end))
    }

    /// The coordinate at `position` of `axis`.
    fn coordinate(
        &mut self,
        builder: &Builder<'c>,
        axis: &Axis<'c>,
        env: &Env<'c>,
        position: Value<'c, 'c>,
    ) -> Result<Value<'c, 'c>, PassFailed> {
        if !axis.kind.is_sparse() {
            return Ok(position);
        }
        let mut positions = self.ancestor_positions(axis, env, builder.location)?;
        positions.push(position);
        let indices = self.aux.indices(axis)?;
        Ok(load_index(builder, indices, &positions))
    }

    /// Total positions of the space closed by the last axis of a fused
    /// group that starts at a root.
    fn fused_extent(&mut self, builder: &Builder<'c>, group: &[Axis<'c>]) -> Result<Value<'c, 'c>, PassFailed> {
        if group[0].parent.is_some() {
            return Err(emit_error(builder.location, "a fused group must start at a root axis (one without a parent)"));
        }
        let mut total = group[0].length;
        for axis in &group[1..] {
            total = match (axis.kind.is_variable(), axis.nnz, axis.nnz_cols) {
                (true, Some(nnz), _) => nnz,
                (false, _, Some(cols)) => builder.mul(total, cols),
                _ => return Err(emit_error(builder.location, "malformed axis in fused group")),
            };
        }
        Ok(total)
    }

    /// Recovers each fused axis's position from the flat position of the
    /// last one: parents bottom-up by `parent_position`, then positions
    /// within rows top-down.
    fn unfuse(
        &mut self,
        builder: &Builder<'c>,
        group: &[Axis<'c>],
        env: &mut Env<'c>,
        flat: Value<'c, 'c>,
    ) -> Result<(), PassFailed> {
        let mut flats = vec![flat; group.len()];
        for index in (1..group.len()).rev() {
            flats[index - 1] = builder.value(
                sparse_pos::ParentPositionOperation::builder(builder.context, builder.location)
                    .position(builder.index_type())
                    .axis(group[index].value)
                    .flat(flats[index])
                    .build(),
            );
        }
        let mut positions: Vec<Value<'c, 'c>> = Vec::new();
        for (index, axis) in group.iter().enumerate() {
            let position = if index == 0 {
                flats[0]
            } else if axis.kind.is_variable() {
                let indptr = self.aux.indptr(axis)?;
                let start = load_index(builder, indptr, &positions);
                builder.sub(flats[index], start)
            } else {
                let cols = axis.nnz_cols.ok_or_else(|| emit_error(builder.location, "malformed sparse_fixed axis"))?;
                let start = builder.mul(flats[index - 1], cols);
                builder.sub(flats[index], start)
            };
            positions.push(position);
            let coordinate = self.coordinate(builder, axis, env, position)?;
            env.insert(key(axis.value), Walked { position, coordinate, length: axis.length });
        }
        Ok(())
    }

    /// Rewrites the coordinate accesses under `roots` into position
    /// accesses, then lowers the iterations nested there.
    fn translate(&mut self, roots: &[OperationRef<'c, 'c>], env: &Env<'c>) -> Result<(), PassFailed> {
        let mut accesses = Vec::new();
        let mut nested = Vec::new();
        for root in roots {
            root.walk(WalkOrder::PreOrder, |op| {
                let name = op.name();
                let name = name.as_string_ref().as_str().unwrap_or_default();
                let op = unsafe { OperationRef::from_raw(op.to_raw()) };
                match name {
                    "sparse_iter.iterate" => {
                        nested.push(op);
                        return WalkResult::Skip;
                    }
                    "sparse_iter.load" | "sparse_iter.store" => accesses.push(op),
                    _ => {}
                }
                WalkResult::Advance
            });
        }
        let accumulations: Vec<_> = accesses.iter().filter_map(|&store| guardable_accumulation(store)).collect();
        let ptr = |op: OperationRef| op.to_raw().ptr;
        let in_accumulation = |op: OperationRef| {
            accumulations.iter().any(|(load, store)| ptr(op) == ptr(*load) || ptr(op) == ptr(*store))
        };
        for access in accesses {
            if !in_accumulation(access) {
                self.access(access, env)?;
            }
        }
        for (load, store) in accumulations {
            self.accumulate(load, store, env)?;
        }
        for op in nested {
            self.iteration(op, env)?;
        }
        Ok(())
    }

    fn access(&mut self, op: OperationRef<'c, 'c>, env: &Env<'c>) -> Result<(), PassFailed> {
        let location = op.location();
        let is_store = op.name().as_string_ref().as_str() == Ok("sparse_iter.store");
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        let (value, buffer, coordinates) = if is_store {
            (Some(operands[0]), operands[1], &operands[2..])
        } else {
            (None, operands[0], &operands[1..])
        };
        let (builder, def, positions, all_found) = self.place(op, buffer, coordinates, env)?;
        match value {
            Some(value) => {
                let store = |b: &Builder<'c>| {
                    store_at(b, value, buffer, &positions);
                    vec![]
                };
                match all_found {
                    // A coordinate that is not stored has nowhere to go.
                    Some(condition) => {
                        if_else(&builder, condition, &[], store, |_| vec![]);
                    }
                    None => {
                        store(&builder);
                    }
                }
            }
            None => {
                let load = |b: &Builder<'c>| {
                    vec![b.value(
                        sparse_pos::LoadOperation::builder(b.context, location)
                            .result(def.element)
                            .buffer(buffer)
                            .positions(&positions)
                            .build(),
                    )]
                };
                let result = match all_found {
                    Some(condition) => {
                        let default = default_value(self.context, &def, location)?;
                        if_else(&builder, condition, &[def.element], load, |b| {
                            vec![b.value(arith::constant(b.context, default, location))]
                        })[0]
                    }
                    None => load(&builder)[0],
                };
                let old = op.result(0).map_err(|_| emit_error(location, "internal: load result"))?;
                replace_uses(old.into(), result);
            }
        }
        erase(op);
        Ok(())
    }

    /// `B[c] = B[c] + v` as one access: the load, the add and the store
    /// at the store's place, under one guard where the coordinates may be
    /// missing (`C[i, k + 1]`), instead of a load of the default value and
    /// a guarded store. The accumulation keeps its form for the atomic,
    /// shuffle and register lowerings; where a coordinate is missing
    /// nothing is stored either way.
    fn accumulate(
        &mut self,
        load: OperationRef<'c, 'c>,
        store: OperationRef<'c, 'c>,
        env: &Env<'c>,
    ) -> Result<(), PassFailed> {
        let location = store.location();
        let operands: Vec<Value<'c, 'c>> = store.operands().map(detach).collect();
        let (sum, buffer, coordinates) = (operands[0], operands[1], &operands[2..]);
        let add = crate::ir_query::op_result(sum).map_err(|_| emit_error(location, "internal: accumulation"))?.owner();
        let add: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(add.to_raw()) };
        let (builder, def, positions, all_found) = self.place(store, buffer, coordinates, env)?;
        let old = detach(load.result(0).map_err(|_| emit_error(location, "internal: load result"))?.into());
        let accumulate = |b: &Builder<'c>| {
            let value = b.value(
                sparse_pos::LoadOperation::builder(b.context, load.location())
                    .result(def.element)
                    .buffer(buffer)
                    .positions(&positions)
                    .build(),
            );
            let new_add = b.insert_clone(add);
            let at = usize::from(add.operand(0).map(detach).ok() != Some(old));
            unsafe { OperationRefMut::from_raw(new_add.to_raw()) }.set_operand(at, value);
            if let Ok(new_sum) = new_add.result(0) {
                store_at(b, detach(new_sum.into()), buffer, &positions);
            }
            vec![]
        };
        match all_found {
            Some(condition) => {
                if_else(&builder, condition, &[], accumulate, |_| vec![]);
                erase(store);
                erase(add);
                erase(load);
            }
            // Certainly stored: each access stays where it was.
            None => {
                store_at(&builder, sum, buffer, &positions);
                erase(store);
                self.access(load, env)?;
            }
        }
        Ok(())
    }

    /// Where access `op` of `buffer` at `coordinates` goes: a builder before
    /// `op`, the buffer's definition, the positions (looked up there) and
    /// whether they are all stored (`None`: certainly).
    #[allow(clippy::type_complexity)]
    fn place(
        &mut self,
        op: OperationRef<'c, 'c>,
        buffer: Value<'c, 'c>,
        coordinates: &[Value<'c, 'c>],
        env: &Env<'c>,
    ) -> Result<(Builder<'c>, BufferDef<'c>, Vec<Value<'c, 'c>>, Option<Value<'c, 'c>>), PassFailed> {
        let location = op.location();
        let def = BufferDef::read(buffer).ok_or_else(|| {
            emit_error(
                location,
                crate::ir_query::not_defined_by(
                    buffer,
                    "buffer",
                    "sparse_iter.match_buffer or sparse_iter.alloc_buffer",
                ),
            )
        })?;
        let builder = Builder::before(self.context, op)
            .ok_or_else(|| emit_error(location, "access is not in a block"))?
            .at(location);
        let axes = def
            .axes
            .iter()
            .map(|&value| Axis::read(value).ok_or_else(|| emit_error(location, "buffer axis is not an axis op")))
            .collect::<Result<Vec<_>, _>>()?;
        let lookup = Lookup { def: &def, axes: &axes, coordinates, env };
        let (positions, all_found) = self.look_up(&builder, &lookup, Vec::new(), Vec::new())?;
        Ok((builder, def, positions, all_found))
    }

    /// The positions of `lookup`'s coordinates from axis `positions.len()`
    /// on (after `positions`, `matched` saying which of those a loop
    /// walks), and whether they are all stored (`None`: certainly). Once
    /// a coordinate may be missing, the axes after it that read memory
    /// (a row's bounds, a search) do so only where it is stored: a missing
    /// row or fiber has no bounds to read, and reading them anyway would
    /// run past the structure arrays.
    fn look_up(
        &mut self,
        builder: &Builder<'c>,
        lookup: &Lookup<'c, '_>,
        mut positions: Vec<Value<'c, 'c>>,
        mut matched: Vec<bool>,
    ) -> Result<(Vec<Value<'c, 'c>>, Option<Value<'c, 'c>>), PassFailed> {
        let count = lookup.axes.len();
        while positions.len() < count {
            let index = positions.len();
            let (position, found) = self.look_up_axis(builder, lookup, index, &positions, &mut matched)?;
            positions.push(position);
            let Some(found) = found else { continue };
            if !lookup.reads_memory_after(index, &matched) {
                let (rest, later) = self.look_up(builder, lookup, positions, matched)?;
                return Ok((rest, Some(later.map_or(found, |later| builder.and(found, later)))));
            }
            let mut types = vec![builder.index_type(); count - index - 1];
            types.push(builder.bool_type());
            let mut failed = None;
            let (known, known_matched) = (positions.clone(), matched.clone());
            let results = if_else(
                builder,
                found,
                &types,
                |inside| match self.look_up(inside, lookup, known, known_matched) {
                    Ok((all, later)) => {
                        let mut yielded = all[index + 1..].to_vec();
                        yielded.push(later.unwrap_or_else(|| boolean(inside, true)));
                        yielded
                    }
                    Err(error) => {
                        failed = Some(error);
                        absent(inside, count - index - 1)
                    }
                },
                |outside| absent(outside, count - index - 1),
            );
            if let Some(error) = failed {
                return Err(error);
            }
            positions.extend_from_slice(&results[..count - index - 1]);
            return Ok((positions, results.last().copied()));
        }
        Ok((positions, None))
    }

    /// The position of coordinate `index` of `lookup` on its axis, given
    /// the positions before it, and whether it is stored (`None`:
    /// certainly).
    fn look_up_axis(
        &mut self,
        builder: &Builder<'c>,
        lookup: &Lookup<'c, '_>,
        index: usize,
        positions: &[Value<'c, 'c>],
        matched: &mut Vec<bool>,
    ) -> Result<(Value<'c, 'c>, Option<Value<'c, 'c>>), PassFailed> {
        let location = builder.location;
        let (axis, coordinate) = (&lookup.axes[index], lookup.coordinates[index]);
        let walked = lookup.walked(index, matched);
        matched.push(walked.is_some());
        if let Some(position) = walked {
            return Ok((position, None));
        }
        let mut found = None;
        if axis.kind == AxisKind::DenseVariable {
            // A row holds the coordinates below its length; past it the
            // element is not stored, as a sparse coordinate not found.
            let depth = axis.ancestors().len();
            let (start, end) = self.row_bounds(builder, axis, &positions[index - depth..index])?;
            let length = builder.sub(end, start);
            found = Some(builder.cmp(arith::CmpiPredicate::Ult, coordinate, length));
        }
        if axis.kind == AxisKind::DenseFixed && !below_length(coordinate, axis.length, lookup.env) {
            // A coordinate computed (i - 1) or taken from another axis
            // may fall outside the axis: not stored, like a sparse
            // coordinate not found.
            found = Some(builder.cmp(arith::CmpiPredicate::Ult, coordinate, axis.length));
        }
        if !axis.kind.is_sparse() {
            return Ok((coordinate, found));
        }
        if !axis.sorted {
            return Err(emit_error(
                location,
                format!("access to buffer axis #{index} needs a coordinate lookup, a binary search, but the axis is not sorted"),
            ));
        }
        let depth = axis.ancestors().len();
        let ancestors = positions[index - depth..index].to_vec();
        let find = builder.insert(
            sparse_pos::FindOperation::builder(builder.context, location)
                .position(builder.index_type())
                .found(builder.bool_type())
                .axis(axis.value)
                .ancestors(&ancestors)
                .coord(coordinate)
                .build(),
        );
        let result = |n| find.result(n).map(|r| detach(r.into())).map_err(|_| emit_error(location, "internal: find"));
        Ok((result(0)?, Some(result(1)?)))
    }
}

/// One buffer access's coordinates, on the buffer's axes.
struct Lookup<'c, 'a> {
    def: &'a BufferDef<'c>,
    axes: &'a [Axis<'c>],
    coordinates: &'a [Value<'c, 'c>],
    env: &'a Env<'c>,
}

impl<'c> Lookup<'c, '_> {
    /// The position of a loop that walks coordinate `index` on its axis,
    /// if one does, under the position its parent matched (`matched`:
    /// whether each axis before `index` was walked).
    fn walked(&self, index: usize, matched: &[bool]) -> Option<Value<'c, 'c>> {
        let axis = &self.axes[index];
        let parent_matched = index == 0 || axis.parent.is_none() || matched[index - 1];
        self.env
            .get(&key(self.def.axes[index]))
            .filter(|walked| walked.coordinate == self.coordinates[index] && parent_matched)
            .map(|walked| walked.position)
    }

    /// Whether an axis after `index` reads memory to find its position:
    /// a row's bounds or a search, where no loop walks the coordinate.
    fn reads_memory_after(&self, index: usize, matched: &[bool]) -> bool {
        let mut matched = matched.to_vec();
        (index + 1..self.axes.len()).any(|later| {
            let walked = self.walked(later, &matched).is_some();
            matched.push(walked);
            !walked && (self.axes[later].kind == AxisKind::DenseVariable || self.axes[later].kind.is_sparse())
        })
    }
}

/// The constant `value` of type i1.
fn boolean<'c>(builder: &Builder<'c>, value: bool) -> Value<'c, 'c> {
    let attribute = IntegerAttribute::new(builder.bool_type(), value as i64);
    builder.value(arith::constant(builder.context, attribute.into(), builder.location))
}

/// What a lookup yields for `count` axes past a missing coordinate:
/// positions 0 (never used: nothing is stored there) and not found.
fn absent<'c>(builder: &Builder<'c>, count: usize) -> Vec<Value<'c, 'c>> {
    let mut values = vec![builder.index(0); count];
    values.push(boolean(builder, false));
    values
}

/// Whether `coordinate` is known to be below `length`: a constant below a
/// constant, or the coordinate of a walked axis of the same length (a
/// column index of CSR against the dense axis of B's rows, say; a
/// format's coordinates are below its axis's length).
fn below_length<'c>(coordinate: Value<'c, 'c>, length: Value<'c, 'c>, env: &Env<'c>) -> bool {
    let same_length = |other: Value<'c, 'c>| {
        other == length || constant_index(other).is_some_and(|o| constant_index(length) == Some(o))
    };
    if let (Some(c), Some(l)) = (constant_index(coordinate), constant_index(length)) {
        return (0..l).contains(&c);
    }
    env.values().any(|walked| walked.coordinate == coordinate && same_length(walked.length))
}

/// The buffer's `default_value`, or zero of its element type.
fn default_value<'c>(
    context: &'c Context,
    def: &BufferDef<'c>,
    location: Location<'c>,
) -> Result<Attribute<'c>, PassFailed> {
    if IntegerType::try_from(def.element).is_ok_and(|integer| !integer.is_signless()) {
        return Err(emit_error(
            location,
            format!(
                "a lookup into a buffer of {} may read its default value, and arith.constant makes only signless integers; give the buffer a signless type (i32 for ui32)",
                def.element
            ),
        ));
    }
    def.default_value
        .or_else(|| zero_attribute(context, def.element))
        .ok_or_else(|| emit_error(location, format!("no default value for element type {}", def.element)))
}

/// For `store` writing `load + v` back where `load` read (`B[c] = B[c] + v`,
/// as `ir_query::accumulation` finds it), with the load and the add used
/// only there and all three in one block: the load and the store, if
/// nothing between them may write the buffer (so the load may move down
/// to the store).
fn guardable_accumulation<'c>(store: OperationRef<'c, 'c>) -> Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)> {
    let (load, _) = accumulation(store)?;
    let add = crate::ir_query::op_result(detach(store.operand(0).ok()?)).ok()?.owner();
    let block = store.block()?;
    let same_block = |op: &OperationRef| op.block().map(|b| b.to_raw().ptr) == Some(block.to_raw().ptr);
    let single_use = |op: &OperationRef| op.result(0).is_ok_and(|r| use_count(detach(r.into())) == 1);
    if !same_block(&load) || !same_block(&add) || !single_use(&load) || !single_use(&add) {
        return None;
    }
    // A store through another buffer over the same array may write the
    // element too.
    let array = crate::buffer::array(detach(store.operand(1).ok()?));
    let mut next = load.next_in_block();
    while let Some(op) = next {
        if op.to_raw().ptr == store.to_raw().ptr {
            return Some((load, store));
        }
        next = op.next_in_block();
        let mut writes = false;
        op.walk(WalkOrder::PreOrder, |inner| {
            let name = inner.name();
            let name = name.as_string_ref().as_str().unwrap_or_default();
            writes |= name == "sparse_iter.iterate"
                || (name == "sparse_iter.store"
                    && inner.operand(1).is_ok_and(|b| crate::buffer::array(detach(b)) == array));
            if writes {
                WalkResult::Interrupt
            } else {
                WalkResult::Advance
            }
        });
        if writes {
            return None;
        }
    }
    None
}

fn store_at<'c>(builder: &Builder<'c>, value: Value<'c, 'c>, buffer: Value<'c, 'c>, positions: &[Value<'c, 'c>]) {
    builder.insert(
        sparse_pos::StoreOperation::builder(builder.context, builder.location)
            .value(value)
            .buffer(buffer)
            .positions(positions)
            .build(),
    );
}

/// Marks the load of a sparse axis's `coordinate` (`sparse_pos_ops::DISTINCT`)
/// where a spatial loop walks the axis: its kind declares that the
/// coordinates at its positions differ (the rows of a hyb bucket that
/// lists each once; one that repeats a row walks it as a reduction).
fn mark_distinct(context: &Context, coordinate: Value<'_, '_>) {
    if let Some(load) = crate::sparse_pos_ops::coordinate_load(coordinate) {
        unsafe { OperationRefMut::from_raw(load.to_raw()) }
            .set_discardable_attribute(crate::sparse_pos_ops::DISTINCT, Attribute::unit(context));
    }
}

/// `sparse_pos.load` of an integer aux buffer, as an index.
fn load_index<'c>(builder: &Builder<'c>, buffer: Value<'c, 'c>, positions: &[Value<'c, 'c>]) -> Value<'c, 'c> {
    let element = sptir_dialects::buffer_type_info(buffer.r#type()).map(|(_, e)| e).unwrap_or(builder.index_type());
    let value = builder.value(
        sparse_pos::LoadOperation::builder(builder.context, builder.location)
            .result(element)
            .buffer(buffer)
            .positions(positions)
            .build(),
    );
    builder.to_index(value)
}

/// Moves the ops of `block` (all but its terminator) to `builder`'s
/// insertion point, with the block's arguments replaced by `arguments`;
/// returns the moved ops.
fn move_block<'c>(
    block: melior::ir::BlockRef<'_, '_>,
    arguments: &[Value<'c, 'c>],
    builder: &Builder<'c>,
) -> Vec<OperationRef<'c, 'c>> {
    for (index, &argument) in arguments.iter().enumerate() {
        if let Ok(old) = block.argument(index) {
            replace_uses(old.into(), argument);
        }
    }
    let mut moved = Vec::new();
    let mut next = block.first_operation().map(|op| unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) });
    while let Some(op) = next {
        next = op.next_in_block().map(|op| unsafe { OperationRef::from_raw(op.to_raw()) });
        if next.is_none() {
            break; // the terminator
        }
        let placed = builder.insert_existing(op);
        moved.push(placed);
    }
    moved
}
