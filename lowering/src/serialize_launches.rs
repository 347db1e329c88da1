//! `serialize-launches`: runs each `gpu.launch` as plain nested loops over
//! its blocks and threads, one after the other. A test instrument: the GPU
//! path's index arithmetic, guards, atomics and register accumulation can
//! then be checked on the CPU JIT. Sequential order hides races, which is
//! why `lower-loop-bindings` rejects the shapes that would race.
//!
//! A `gpu.barrier` splits the block's work: every thread runs the code
//! before it, then every thread the code after it (loop fission, as the
//! CPU backends of CUDA compilers do). The barrier may sit in code every
//! thread runs alike, also inside `scf.for` and `scf.if` without results;
//! a thread's value that lives across a barrier is not supported.

use crate::{
    axis::detach,
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{encloses, op_name, outermost},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::scf,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        Block, Region, RegionLike, Type, Value, ValueLike,
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
    // Arguments: block ids, thread ids, grid sizes, block sizes.
    let (blocks, anchor) = nest(context, builder, &sizes[..3])?;
    let argument = |n: usize| -> Result<Value<'c, 'c>, PassFailed> {
        Ok(detach(body.argument(n).map_err(|_| emit_error(location, "launch without ids"))?.into()))
    };
    for (n, &value) in blocks.iter().chain(&sizes).enumerate() {
        let n = if n < 3 { n } else { n + 3 };
        replace_uses(argument(n)?, value);
    }
    let threads = [argument(3)?, argument(4)?, argument(5)?];
    let ops = block_ops(&body);
    let block_sizes = [sizes[3], sizes[4], sizes[5]];
    let mut fission = Fission { context, threads, sizes: block_sizes, inside: Vec::new() };
    fission.place(ops, anchor)?;
    fission.check_uses()?;
    erase(launch);
    Ok(())
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

/// The ops of a block but its terminator.
fn block_ops<'c>(block: &impl BlockLike<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(op) = next {
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        if next.is_some() {
            ops.push(op);
        }
    }
    ops
}

fn has_barrier(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        found |= inner.name().as_string_ref().as_str() == Ok("gpu.barrier");
        if found {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

struct Fission<'c> {
    context: &'c Context,
    /// The launch body's thread ids.
    threads: [Value<'c, 'c>; 3],
    sizes: [Value<'c, 'c>; 3],
    /// Every op placed inside a loop nest over the threads.
    inside: Vec<OperationRef<'c, 'c>>,
}

impl<'c> Fission<'c> {
    /// Places `ops` before `anchor`: runs between barriers each in their
    /// own loops over the threads; ops holding a barrier stay outside, and
    /// their bodies are placed the same way.
    fn place(&mut self, ops: Vec<OperationRef<'c, 'c>>, anchor: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let mut pending = Vec::new();
        for op in ops {
            if op_name(&op) == "gpu.barrier" {
                self.run(std::mem::take(&mut pending), anchor)?;
                erase(op);
            } else if has_barrier(op) {
                self.run(std::mem::take(&mut pending), anchor)?;
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

    /// Whether an operand of `op` is a thread id, or a result of an op
    /// already in a loop nest over the threads or in `pending`.
    fn per_thread(&self, op: OperationRef<'c, 'c>, pending: &[OperationRef<'c, 'c>]) -> bool {
        op.operands().any(|v| {
            let v = detach(v);
            self.threads.contains(&v)
                || pending.iter().chain(&self.inside).any(|o| o.results().any(|r| Value::from(r) == v))
        })
    }

    /// An op around a barrier must be one all threads run alike: a loop or
    /// branch without results whose operands do not depend on the thread.
    fn uniform(&self, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        let name = op_name(&op);
        if !matches!(name.as_str(), "scf.for" | "scf.if") || op.result_count() > 0 || self.per_thread(op, &[]) {
            return Err(emit_error(
                op.location(),
                format!("serialize-launches: a barrier inside this {name} cannot be emulated: threads may not all reach it alike, or it carries per-thread values"),
            ));
        }
        Ok(())
    }

    /// Moves `ops` into a fresh nest of loops over the block's threads.
    fn run(&mut self, ops: Vec<OperationRef<'c, 'c>>, anchor: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
        // What every thread computes alike stays outside, where later runs
        // can use it too.
        let mut threaded: Vec<OperationRef<'c, 'c>> = Vec::new();
        for op in ops {
            let name = op_name(&op);
            let pure = op.region_count() == 0
                && (name.starts_with("arith.") || name.starts_with("index.") || name == "memref.dim");
            if pure && !self.per_thread(op, &threaded) {
                unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(anchor);
            } else {
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
        let (ids, end) = nest(self.context, builder, &[self.sizes[2], self.sizes[1], self.sizes[0]])?;
        let ids = [ids[2], ids[1], ids[0]];
        for &op in &ops {
            unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(end);
            op.walk(WalkOrder::PreOrder, |inner| {
                let mut inner = unsafe { OperationRefMut::from_raw(inner.to_raw()) };
                for (thread, id) in self.threads.iter().zip(&ids) {
                    inner.replace_uses_of_with(*thread, *id);
                }
                WalkResult::Advance
            });
            self.inside.push(op);
        }
        Ok(())
    }

    /// A thread's value used outside its loops over the threads (after a
    /// barrier) would need a copy per thread.
    fn check_uses(&self) -> Result<(), PassFailed> {
        for &op in &self.inside {
            let nest = op.parent_operation();
            for result in op.results() {
                let mut operand = unsafe { mlir_sys::mlirValueGetFirstUse(Value::from(result).to_raw()) };
                while !unsafe { mlir_sys::mlirOpOperandIsNull(operand) } {
                    let user = unsafe { OperationRef::<'c, 'c>::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)) };
                    if !nest.is_some_and(|nest| encloses(nest, user)) {
                        return Err(emit_error(
                            op.location(),
                            "serialize-launches: this per-thread value is used across a barrier, which cannot be emulated",
                        ));
                    }
                    operand = unsafe { mlir_sys::mlirOpOperandGetNextUse(operand) };
                }
            }
        }
        Ok(())
    }
}
