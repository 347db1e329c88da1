//! `serialize-launches`: runs each `gpu.launch` as plain nested loops over
//! its blocks and threads, one after the other. A test instrument: the GPU
//! path's index arithmetic, guards, atomics and register accumulation can
//! then be checked on the CPU JIT. Sequential order hides races, which is
//! why `lower-loop-bindings` rejects the shapes that would race.
//!
//! A `gpu.barrier` splits the block's work: every thread runs the code
//! before it, then every thread the code after it (loop fission, as the
//! CPU backends of CUDA compilers do). The barrier may sit in code every
//! thread runs alike, also inside `scf.if` without results and `scf.for`
//! with uniform bounds. A thread's value that lives across a barrier (an
//! accumulator carried by the loop around it, say) is kept in scratch
//! memory with one slot per thread. Workgroup memory becomes one buffer
//! that the blocks reuse, one after the other.
//!
//! A `gpu.subgroup_reduce` (a sum, maximum or minimum over clusters of
//! contiguous lanes) splits the work the same way: each thread stores its
//! value in scratch memory, then each reduces its cluster's slots. When the launch has no
//! `gpu.barrier` and every cluster lies in one row of threads (its size
//! divides the block's constant x size), only the threads of a row need
//! to meet: the rows (y, z) become plain loops around the body and only x
//! is split, so branches on y (a row's bounds check) may hold reductions.
//! A row barrier (`gpu.barrier {sptir.row = N}`, N the block's x size)
//! is the same kind of meeting: only a row's threads reach it.
//! Otherwise a reduction under a branch that threads take differently
//! (an `scf.if` on a thread's row) runs in the loops over the threads
//! under that branch's condition, kept per thread like any other value:
//! the lanes of a cluster take the branch alike, so each adds up slots its
//! cluster wrote. A barrier there would not be reached by every thread of
//! the block, and is refused.

use crate::{
    axis::detach,
    ir_builder::{erase, move_until_terminator, region_with_block, replace_uses, Builder},
    ir_query::{
        block_ops, constant_index, encloses, holds_sync, lane_cluster_reduction, op_name, outermost, root_memref,
        speculatable, static_shape, users,
    },
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    synchronize_thread_loops::ROW_BARRIER,
};
use melior::{
    dialect::{memref, scf},
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::{MemRefType, ShapedTypeLike, TypeLike},
        Block, BlockRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "SerializeLaunches",
    argument: "serialize-launches",
    description: "Test instrument: run gpu.launch bodies as sequential loops over blocks and threads (for the CPU)",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for launch in outermost(root, |op| op_name(op) == "gpu.launch") {
        serialize(context, launch)?;
    }
    Ok(())
}

fn serialize<'c>(context: &'c Context, launch: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = launch.location();
    let sizes: Vec<Value<'c, 'c>> = launch.operands().map(detach).collect();
    if sizes.len() != 6 {
        return Err(emit_error(
            location,
            "serialize-launches: only launches with six sizes and nothing else are supported",
        ));
    }
    let body = launch
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| emit_error(location, "launch without body"))?;
    let builder =
        Builder::before(context, launch).ok_or_else(|| emit_error(location, "launch is not in a block"))?.at(location);
    // Workgroup memory: one buffer, in front of the loops over the blocks.
    let workgroup = launch
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value() as usize);
    if 12 + workgroup != body.argument_count() {
        return Err(emit_error(
            location,
            "serialize-launches: private memory attributions are not supported (only workgroup ones)",
        ));
    }
    for n in 12..body.argument_count() {
        let shared: Value<'c, 'c> = detach(body.argument(n).map_err(|_| emit_error(location, "internal"))?.into());
        let local = MemRefType::try_from(shared.r#type())
            .map_err(|_| emit_error(location, "serialize-launches: a workgroup attribution must be a memref"))?;
        let shape = static_shape(local)
            .ok_or_else(|| emit_error(location, "serialize-launches: workgroup memory must have a static shape"))?;
        let plain = MemRefType::new(local.element(), &shape, None, None);
        replace_uses(shared, builder.value(memref::alloca(context, plain, &[], &[], None, location)));
    }
    // Arguments: block ids, thread ids, grid sizes, block sizes.
    let (blocks, anchor) = nest(context, builder, &sizes[..3])?;
    let argument = |n: usize| -> Result<Value<'c, 'c>, PassFailed> {
        Ok(detach(body.argument(n).map_err(|_| emit_error(location, "launch without ids"))?.into()))
    };
    for (n, &value) in blocks.iter().chain(&sizes).enumerate() {
        let n = if n < 3 { n } else { n + 3 };
        replace_uses(argument(n)?, value);
    }
    let block_sizes = [sizes[3], sizes[4], sizes[5]];
    let (threads, anchor, fissioned) = if rows_suffice(launch, block_sizes[0]) {
        // Rows of threads: loops over z and y around the body, which is
        // split over x only.
        let (rows, inner) = nest(
            context,
            Builder::before(context, anchor).ok_or_else(|| emit_error(location, "internal"))?.at(location),
            &[block_sizes[2], block_sizes[1]],
        )?;
        replace_uses(argument(4)?, rows[1]);
        replace_uses(argument(5)?, rows[0]);
        ([argument(3)?, rows[1], rows[0]], inner, 1)
    } else {
        ([argument(3)?, argument(4)?, argument(5)?], anchor, 3)
    };
    // Scratch memory goes in front of the loops over the blocks.
    let mut start = anchor;
    while let Some(parent) = start.parent_operation().filter(|_| start.block() != launch.block()) {
        start = unsafe { OperationRef::from_raw(parent.to_raw()) };
    }
    let mut fission = Fission {
        context,
        start,
        threads,
        fissioned,
        sizes: block_sizes,
        inside: Vec::new(),
        nests: Vec::new(),
        row_values: Vec::new(),
        written: crate::ir_query::written_memrefs(launch),
        guards: Vec::new(),
    };
    fission.demote_carried_values(&body)?;
    fission.place(block_ops(&body), anchor)?;
    fission.spill_across_barriers()?;
    erase(launch);
    Ok(())
}

/// Whether the threads of a row can run apart from the other rows: the
/// launch has a `gpu.subgroup_reduce` or a row barrier, and no other
/// `gpu.barrier`; each reduction adds up clusters whose size divides the
/// block's x size, a constant, and each row barrier is for rows of that
/// size.
fn rows_suffice(launch: OperationRef<'_, '_>, x_size: Value<'_, '_>) -> bool {
    let Some(x_size) = constant_index(x_size) else { return false };
    let (mut meet, mut suffice) = (false, true);
    launch.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        match op_name(&op).as_str() {
            "gpu.barrier" => {
                meet = true;
                let row = op.attribute(ROW_BARRIER).ok().and_then(|a| IntegerAttribute::try_from(a).ok());
                suffice &= row.is_some_and(|row| row.value() == x_size);
            }
            "gpu.subgroup_reduce" => {
                meet = true;
                suffice &= lane_cluster_reduction(op).is_some_and(|(cluster, _)| x_size % cluster == 0);
            }
            _ => {}
        }
        WalkResult::Advance
    });
    meet && suffice
}

/// Inserts loops over `0..sizes[i]`, nested, before the builder's anchor;
/// returns their positions and the innermost body's terminator.
fn nest<'c>(
    context: &'c Context,
    mut builder: Builder<'c>,
    sizes: &[Value<'c, 'c>],
) -> Result<(Vec<Value<'c, 'c>>, OperationRef<'c, 'c>), PassFailed> {
    let location = builder.location;
    let zero = builder.index(0);
    let one = builder.index(1);
    let mut ids = Vec::new();
    let mut end = None;
    for &size in sizes {
        let block = Block::new(&[(Type::index(context), location)]);
        let terminator = block.append_operation(scf::r#yield(&[], location));
        let terminator: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(terminator.to_raw()) };
        ids.push(detach(block.argument(0).map_err(|_| emit_error(location, "internal"))?.into()));
        let region = Region::new();
        region.append_block(block);
        builder.insert(scf::r#for(zero, size, one, region, location));
        builder = Builder::before(context, terminator).ok_or_else(|| emit_error(location, "internal"))?.at(location);
        end = Some(terminator);
    }
    Ok((ids, end.ok_or_else(|| emit_error(location, "internal: no loops"))?))
}

/// The ops before `op` in its block.
fn ops_before<'c>(op: OperationRef<'c, 'c>) -> Result<Vec<OperationRef<'c, 'c>>, PassFailed> {
    let block = op.block().ok_or_else(|| emit_error(op.location(), "internal: op without block"))?;
    let mut ops = Vec::new();
    let mut next = block.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(current) = next.filter(|&current| current != op) {
        ops.push(current);
        next = current.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
    }
    Ok(ops)
}

struct Fission<'c> {
    context: &'c Context,
    /// The outermost loop over the blocks.
    start: OperationRef<'c, 'c>,
    /// The thread ids: the launch body's, or for x only when rows suffice,
    /// the loops over y and z around the body.
    threads: [Value<'c, 'c>; 3],
    /// How many of `threads` (x first) the loop nests split: 3 or 1.
    fissioned: usize,
    /// In the x-only mode, the values computed so far from the row ids.
    row_values: Vec<Value<'c, 'c>>,
    /// The memrefs (`root_memref` keys) the launch writes.
    written: Vec<usize>,
    sizes: [Value<'c, 'c>; 3],
    /// Every op placed inside a loop nest over the threads, with its nest.
    inside: Vec<(OperationRef<'c, 'c>, usize)>,
    /// The thread ids of each nest.
    nests: Vec<[Value<'c, 'c>; 3]>,
    /// The per-thread branches around the ops being placed: condition, and
    /// whether the ops are in its then-region.
    guards: Vec<(Value<'c, 'c>, bool)>,
}

impl<'c> Fission<'c> {
    /// Scratch memory before the launch with a slot of type `element` for
    /// each thread of a block.
    fn scratch(&self, element: Type<'c>) -> Result<Value<'c, 'c>, PassFailed> {
        let location = self.start.location();
        let builder =
            Builder::before(self.context, self.start).ok_or_else(|| emit_error(location, "internal"))?.at(location);
        let count = self.thread_count(&builder);
        let r#type = MemRefType::new(element, &[i64::MIN], None, None);
        Ok(builder.value(memref::alloca(self.context, r#type, &[count], &[], None, location)))
    }

    /// The number of threads of a block, computed before the builder's
    /// anchor.
    fn thread_count(&self, builder: &Builder<'c>) -> Value<'c, 'c> {
        builder.mul(builder.mul(self.sizes[0], self.sizes[1]), self.sizes[2])
    }

    /// The slot of thread `ids` (x fastest), computed before the builder's
    /// anchor.
    fn slot(&self, builder: &Builder<'c>, ids: [Value<'c, 'c>; 3]) -> Value<'c, 'c> {
        let yz = builder.add(ids[1], builder.mul(self.sizes[1], ids[2]));
        builder.add(ids[0], builder.mul(self.sizes[0], yz))
    }

    /// Rewrites each loop that holds a barrier and carries values into one
    /// that keeps them in scratch memory: stored before the loop and at the
    /// end of each iteration, loaded at its start and after it. The loads
    /// are per-thread values like any other.
    fn demote_carried_values(&self, body: &BlockRef<'c, 'c>) -> Result<(), PassFailed> {
        let mut loops = Vec::new();
        for op in block_ops(body) {
            op.walk(WalkOrder::PostOrder, |inner| {
                let inner = unsafe { OperationRef::<'c, 'c>::from_raw(inner.to_raw()) };
                if op_name(&inner) == "scf.for" && inner.result_count() > 0 && holds_sync(inner) {
                    loops.push(inner);
                }
                WalkResult::Advance
            });
        }
        for op in loops {
            self.demote(op)?;
        }
        Ok(())
    }

    fn demote(&self, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let location = op.location();
        let internal = || emit_error(location, "internal: malformed scf.for");
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        let old = op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(internal)?;
        let before = Builder::before(self.context, op).ok_or_else(internal)?.at(location);
        let mut scratch = Vec::new();
        for &initial in &operands[3..] {
            let memory = self.scratch(initial.r#type())?;
            before.insert(memref::store(initial, memory, &[self.slot(&before, self.threads)], location));
            scratch.push(memory);
        }

        let (region, inside) =
            region_with_block(self.context, location, &[Type::index(self.context)], scf::r#yield(&[], location));
        let new_loop = before.insert(scf::r#for(operands[0], operands[1], operands[2], region, location));
        let new_body = new_loop.region(0).ok().and_then(|r| r.first_block()).ok_or_else(internal)?;
        replace_uses(
            detach(old.argument(0).map_err(|_| internal())?.into()),
            detach(new_body.argument(0).map_err(|_| internal())?.into()),
        );
        for (n, &memory) in scratch.iter().enumerate() {
            let carried = detach(old.argument(n + 1).map_err(|_| internal())?.into());
            replace_uses(carried, inside.value(memref::load(memory, &[self.slot(&inside, self.threads)], location)));
        }
        // Read after the replacements: a yield may pass a carried value on.
        let yielded: Vec<Value<'c, 'c>> = old.terminator().ok_or_else(internal)?.operands().map(detach).collect();
        let end = new_body.terminator().ok_or_else(internal)?;
        let end: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(end.to_raw()) };
        move_until_terminator(old.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), end);
        let at_end = Builder::before(self.context, end).ok_or_else(internal)?.at(location);
        for (&value, &memory) in yielded.iter().zip(&scratch) {
            at_end.insert(memref::store(value, memory, &[self.slot(&at_end, self.threads)], location));
        }
        let mut new_loop_mut = unsafe { OperationRefMut::from_raw(new_loop.to_raw()) };
        for (name, attribute) in op.attributes() {
            if let Ok(name) = name.as_string_ref().as_str() {
                new_loop_mut.set_discardable_attribute(name, attribute);
            }
        }

        let after = Builder::before(self.context, op).ok_or_else(internal)?.at(location);
        for (n, &memory) in scratch.iter().enumerate() {
            let result = detach(op.result(n).map_err(|_| internal())?.into());
            replace_uses(result, after.value(memref::load(memory, &[self.slot(&after, self.threads)], location)));
        }
        erase(op);
        Ok(())
    }

    /// Places `ops` before `anchor`: runs between barriers each in their
    /// own loops over the threads; ops holding a barrier stay outside, and
    /// their bodies are placed the same way.
    fn place(&mut self, ops: Vec<OperationRef<'c, 'c>>, anchor: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let mut pending = Vec::new();
        for op in ops {
            if op_name(&op) == "gpu.barrier" {
                if !self.guards.is_empty() {
                    return Err(emit_error(
                        op.location(),
                        "serialize-launches: this barrier is under a branch that threads may take differently, so not every thread of the block may reach it",
                    ));
                }
                self.run(std::mem::take(&mut pending), anchor)?;
                erase(op);
            } else if op_name(&op) == "gpu.subgroup_reduce" {
                let stored = self.store_for_cluster(op, &pending)?;
                pending.extend(stored);
                self.run(std::mem::take(&mut pending), anchor)?;
                pending = self.add_up_cluster(op)?;
            } else if holds_sync(op) {
                self.run(std::mem::take(&mut pending), anchor)?;
                if op_name(&op) == "scf.if" && op.result_count() == 0 && self.per_thread(op, &[]) {
                    self.place_guarded(op, anchor)?;
                    continue;
                }
                self.uniform(op)?;
                unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(anchor);
                for region in op.regions() {
                    let mut block = region.first_block();
                    while let Some(current) = block {
                        let terminator = current
                            .terminator()
                            .map(|t| unsafe { OperationRef::<'c, 'c>::from_raw(t.to_raw()) })
                            .ok_or_else(|| emit_error(op.location(), "block without terminator"))?;
                        self.place(block_ops(&current), terminator)?;
                        block = current.next_in_region();
                    }
                }
            } else {
                pending.push(op);
            }
        }
        self.run(pending, anchor)
    }

    /// Places the branches of `op`, an `scf.if` without results whose
    /// condition is per thread, each under the condition, then erases it.
    fn place_guarded(&mut self, op: OperationRef<'c, 'c>, anchor: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let condition = detach(op.operand(0).map_err(|_| emit_error(op.location(), "malformed scf.if"))?);
        for (n, region) in op.regions().enumerate() {
            let Some(block) = region.first_block() else { continue };
            self.guards.push((condition, n == 0));
            self.place(block_ops(&block), anchor)?;
            self.guards.pop();
        }
        erase(op);
        Ok(())
    }

    /// Before the reduction `op`: the store of the thread's value into a
    /// fresh scratch slot (left as the op's operand for `add_up_cluster`);
    /// returns the new ops, which join the `pending` run.
    fn store_for_cluster(
        &self,
        op: OperationRef<'c, 'c>,
        pending: &[OperationRef<'c, 'c>],
    ) -> Result<Vec<OperationRef<'c, 'c>>, PassFailed> {
        let location = op.location();
        let value = detach(op.operand(0).map_err(|_| emit_error(location, "malformed gpu.subgroup_reduce"))?);
        let identity = lane_cluster_reduction(op).and_then(|(_, r)| r.identity(self.context, value.r#type()));
        if identity.is_none() || value.r#type().is_vector() {
            return Err(emit_error(
                location,
                "serialize-launches: only sums, maxima and minima of scalars over contiguous clusters of 1 to 32 lanes can be emulated",
            ));
        }
        let memory = self.scratch(value.r#type())?;
        let builder = Builder::before(self.context, op).ok_or_else(|| emit_error(location, "internal"))?.at(location);
        builder.insert(memref::store(value, memory, &[self.slot(&builder, self.threads)], location));
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_operand(0, memory);
        Ok(ops_before(op)?.into_iter().filter(|o| !pending.contains(o)).collect())
    }

    /// Replaces the reduction `op` by the sum of its cluster's slots; returns
    /// the new ops, which the next run over the threads takes.
    fn add_up_cluster(&self, op: OperationRef<'c, 'c>) -> Result<Vec<OperationRef<'c, 'c>>, PassFailed> {
        let location = op.location();
        let internal = || emit_error(location, "internal: malformed gpu.subgroup_reduce");
        let memory = detach(op.operand(0).map_err(|_| internal())?);
        let result: Value<'c, 'c> = detach(op.result(0).map_err(|_| internal())?.into());
        let (cluster, reduction) = lane_cluster_reduction(op).ok_or_else(internal)?;
        let builder = Builder::before(self.context, op).ok_or_else(internal)?.at(location);
        // Lanes are consecutive thread slots; a cluster starts at a multiple
        // of its size, and holds only the lanes that exist (a block of fewer
        // threads than a cluster, or a last partial warp).
        let slot = self.slot(&builder, self.threads);
        let size = builder.index(cluster);
        let first = builder.sub(slot, builder.rem(slot, size));
        let left = builder.sub(self.thread_count(&builder), first);
        let size = builder.value(melior::dialect::arith::minui(size, left, location));
        let identity = builder.value(melior::dialect::arith::constant(
            self.context,
            reduction.identity(self.context, result.r#type()).ok_or_else(internal)?,
            location,
        ));
        let body = Block::new(&[(Type::index(self.context), location), (result.r#type(), location)]);
        let (lane, partial) = (
            detach(body.argument(0).map_err(|_| internal())?.into()),
            detach(body.argument(1).map_err(|_| internal())?.into()),
        );
        let inside = Builder::at_end(self.context, location, &body);
        let term = inside.value(memref::load(memory, &[inside.add(first, lane)], location));
        let sum = inside.value(reduction.combine(partial, term, location));
        body.append_operation(scf::r#yield(&[sum], location));
        let region = Region::new();
        region.append_block(body);
        let total = builder.insert(
            melior::ir::operation::OperationBuilder::new("scf.for", location)
                .add_operands(&[builder.index(0), size, builder.index(1), identity])
                .add_results(&[result.r#type()])
                .add_regions([region])
                .build()
                .map_err(|_| internal())?,
        );
        replace_uses(result, detach(total.result(0).map_err(|_| internal())?.into()));
        // Everything before the reduction in its block is new: what came
        // before has been placed already.
        let new_ops = ops_before(op)?;
        erase(op);
        Ok(new_ops)
    }

    /// Whether an operand of `op` is a thread id, or a result of an op
    /// already in a loop nest over the threads or in `pending`.
    fn per_thread(&self, op: OperationRef<'c, 'c>, pending: &[OperationRef<'c, 'c>]) -> bool {
        op.operands().any(|v| {
            let v = detach(v);
            self.threads[..self.fissioned].contains(&v)
                || pending
                    .iter()
                    .chain(self.inside.iter().map(|(o, _)| o))
                    .any(|o| o.results().any(|r| Value::from(r) == v))
        })
    }

    /// An op around a barrier must be one all threads run alike: a loop or
    /// branch without results whose operands do not depend on the thread.
    fn uniform(&self, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let name = op_name(&op);
        if !matches!(name.as_str(), "scf.for" | "scf.if") || op.result_count() > 0 || self.per_thread(op, &[]) {
            return Err(emit_error(
                op.location(),
                format!("serialize-launches: a barrier or subgroup reduction inside this {name} cannot be emulated: threads may not all reach it alike, or it carries per-thread values"),
            ));
        }
        Ok(())
    }

    /// Moves `ops` into a fresh nest of loops over the block's threads.
    fn run(&mut self, ops: Vec<OperationRef<'c, 'c>>, anchor: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        // What every thread computes alike stays outside, where later runs
        // can use it too. That includes loads at the same address for all
        // threads: in race-free code no other thread in the same run
        // writes what they read (that needs a barrier), but the thread
        // itself may have, earlier in the run; such a load stays.
        let mut threaded: Vec<OperationRef<'c, 'c>> = Vec::new();
        let mut written_before: Vec<usize> = Vec::new();
        for op in ops {
            let name = op_name(&op);
            // Under a guard only what cannot trap leaves it.
            let pure = if !self.guards.is_empty() {
                speculatable(&op)
            } else {
                op.region_count() == 0
                    && (name.starts_with("arith.")
                        || name.starts_with("index.")
                        || matches!(
                            name.as_str(),
                            "memref.dim" | "memref.load" | "memref.extract_aligned_pointer_as_index"
                        ))
            };
            // In the x-only mode, a load of memory the launch writes, at an
            // address computed from the row ids (y, z), stays in the loop
            // over x, after the stores of its own row that come before it.
            let from_rows = self.fissioned < 3
                && op.operands().any(|v| {
                    let v = detach(v);
                    self.threads[self.fissioned..].contains(&v) || self.row_values.contains(&v)
                });
            if from_rows {
                self.row_values.extend(op.results().map(|r| detach(r.into())));
            }
            let row_load = name == "memref.load"
                && from_rows
                && op.operand(0).is_ok_and(|m| self.written.contains(&root_memref(m)));
            let reads_own_write =
                name == "memref.load" && op.operand(0).is_ok_and(|m| written_before.contains(&root_memref(m)));
            if pure && !self.per_thread(op, &threaded) && !row_load && !reads_own_write {
                unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(anchor);
            } else {
                written_before.extend(crate::ir_query::written_memrefs(op));
                threaded.push(op);
            }
        }
        let ops = threaded;
        if ops.is_empty() {
            return Ok(());
        }
        let location = ops[0].location();
        let builder =
            Builder::before(self.context, anchor).ok_or_else(|| emit_error(location, "internal"))?.at(location);
        let ids = if self.fissioned == 3 {
            let (ids, end) = nest(self.context, builder, &[self.sizes[2], self.sizes[1], self.sizes[0]])?;
            ([ids[2], ids[1], ids[0]], end)
        } else {
            let (ids, end) = nest(self.context, builder, &[self.sizes[0]])?;
            ([ids[0], self.threads[1], self.threads[2]], end)
        };
        let (ids, mut end) = ids;
        self.nests.push(ids);
        let nest = self.nests.len() - 1;
        for (n, &(condition, then)) in self.guards.iter().enumerate() {
            let builder =
                Builder::before(self.context, end).ok_or_else(|| emit_error(location, "internal"))?.at(location);
            let branch = || region_with_block(self.context, location, &[], scf::r#yield(&[], location)).0;
            let guard = builder.insert(scf::r#if(condition, &[], branch(), branch(), location));
            if n == 0 {
                self.inside.push((guard, nest));
            }
            let block = guard
                .region(if then { 0 } else { 1 })
                .ok()
                .and_then(|r| r.first_block())
                .and_then(|b| b.terminator())
                .ok_or_else(|| emit_error(location, "internal"))?;
            end = unsafe { OperationRef::from_raw(block.to_raw()) };
        }
        for &op in &ops {
            unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(end);
            op.walk(WalkOrder::PreOrder, |inner| {
                let mut inner = unsafe { OperationRefMut::from_raw(inner.to_raw()) };
                for (thread, id) in self.threads.iter().zip(&ids) {
                    inner.replace_uses_of_with(*thread, *id);
                }
                WalkResult::Advance
            });
            self.inside.push((op, nest));
        }
        Ok(())
    }

    /// A thread's value used outside its loop nest (after a barrier) goes
    /// through scratch memory: stored where it is computed, loaded where it
    /// is used. A use outside every nest (a loop bound around a barrier)
    /// cannot be emulated.
    fn spill_across_barriers(&self) -> Result<(), PassFailed> {
        for &(op, nest) in &self.inside {
            let around = op.parent_operation();
            for result in op.results() {
                let value = detach(Value::from(result));
                let far: Vec<OperationRef<'c, 'c>> = users(value)
                    .into_iter()
                    .filter(|&user| !around.is_some_and(|around| encloses(around, user)))
                    .collect();
                if far.is_empty() {
                    continue;
                }
                if value.r#type().is_mem_ref() {
                    return Err(emit_error(
                        op.location(),
                        "serialize-launches: this per-thread memref is used across a barrier, which cannot be emulated",
                    ));
                }
                let memory = self.scratch(value.r#type())?;
                let next = op.next_in_block().ok_or_else(|| emit_error(op.location(), "internal"))?;
                let at = Builder::before(self.context, next).ok_or_else(|| emit_error(op.location(), "internal"))?;
                at.insert(memref::store(value, memory, &[self.slot(&at, self.nests[nest])], op.location()));
                for user in far {
                    let Some(&(_, user_nest)) = self.inside.iter().find(|(o, _)| *o == user || encloses(*o, user))
                    else {
                        return Err(emit_error(
                            op.location(),
                            "serialize-launches: this per-thread value is used across a barrier by code that every thread runs alike, which cannot be emulated",
                        ));
                    };
                    let at =
                        Builder::before(self.context, user).ok_or_else(|| emit_error(user.location(), "internal"))?;
                    let reloaded =
                        at.value(memref::load(memory, &[self.slot(&at, self.nests[user_nest])], user.location()));
                    unsafe { OperationRefMut::from_raw(user.to_raw()) }.replace_uses_of_with(value, reloaded);
                }
            }
        }
        Ok(())
    }
}
