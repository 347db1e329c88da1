//! `sink-host-reads`: once loops are launches (`lower-loop-bindings`), a
//! read outside every bound loop is host code, and the host cannot read
//! GPU memory. Where only kernels use what the read computes (a scale
//! read once before the iteration that uses it, `y[i] = alpha * x[i]`),
//! the read belongs in those kernels: this pass moves it there, with the
//! arithmetic between it and the kernels, a copy at the start of each
//! launch that uses it. Each thread then reads the same element, which the
//! caches serve once.
//!
//! A read moves only where its value is the same in the kernel: nothing
//! from the read to the last launch that uses it, those launches
//! included, writes the memory it reads. What stays (a read whose value
//! the host needs, for a loop bound, say, or one a kernel overwrites) is
//! left to `place-device-memory`, which names it.

use crate::{
    ir_builder::{erase, Builder},
    ir_query::{enclosing, op_name, root_memref, speculatable, users, written_memrefs},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    r#type::TypeLike,
    BlockRef, RegionLike, Value, ValueLike,
};
use std::collections::HashSet;

pub const PASS: PassDef = PassDef {
    name: "SinkHostReads",
    argument: "sink-host-reads",
    description:
        "Move host reads of GPU memory (and the arithmetic on them) that only kernels use into those gpu.launch bodies",
    options: &[],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // The host blocks that launch kernels; a read and the launches that
    // use it are in one of them or nested in it.
    let mut blocks: Vec<BlockRef> = Vec::new();
    for launch in crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| op_name(&op) == "gpu.launch") {
        let mut op = launch;
        while let Some(block) = op.block() {
            let block = unsafe { BlockRef::from_raw(block.to_raw()) };
            if !blocks.contains(&block) {
                blocks.push(block);
            }
            let Some(parent) = op.parent_operation() else { break };
            op = unsafe { OperationRef::from_raw(parent.to_raw()) };
        }
    }
    for block in blocks {
        sink_in_block(context, block)?;
    }
    Ok(())
}

/// Moves the reads of `block` that only launches use into them.
fn sink_in_block<'c>(context: &'c melior::Context, block: BlockRef<'c, 'c>) -> Result<(), PassFailed> {
    let ops = crate::ir_query::block_ops(&block);
    // The movable ops that read memory or compute on what one read: only
    // those move; host arithmetic on arguments stays as it is.
    let mut reading: Vec<OperationRef<'c, 'c>> = Vec::new();
    for &op in &ops {
        if movable(op) && (reads_memory(op) || op.operands().any(|v| defined_by(v, &reading))) {
            reading.push(op);
        }
    }
    // From the last op back, so that a read's users are decided first;
    // with each, the last op of the block that holds a use of it, directly
    // or through sunk ops.
    let mut sunk: Vec<(OperationRef<'c, 'c>, usize)> = Vec::new();
    for (at, &op) in ops.iter().enumerate().rev() {
        if !reading.contains(&op) {
            continue;
        }
        let users: Vec<OperationRef> = op.results().flat_map(|r| users(r.into())).collect();
        let mut last = at;
        let mut all_moved = !users.is_empty();
        for user in users {
            let ancestor = ancestor_in(user, block);
            if let Some(&(_, user_last)) = sunk.iter().find(|(s, _)| Some(*s) == ancestor) {
                last = last.max(user_last);
            } else if enclosing(user, &["gpu.launch"]).is_some() {
                let position = ancestor.and_then(|a| ops.iter().position(|&o| o == a));
                last = last.max(position.unwrap_or(ops.len().saturating_sub(1)));
            } else {
                all_moved = false;
            }
        }
        if !all_moved {
            continue;
        }
        let read: HashSet<usize> = read_memrefs(op).into_iter().collect();
        let overwritten = ops[at + 1..=last].iter().any(|&between| {
            // A sunk op travels with this one and writes nothing.
            !sunk.iter().any(|(s, _)| *s == between)
                && written_memrefs(between).iter().any(|memory| read.contains(memory))
        });
        if !overwritten {
            sunk.push((op, last));
        }
    }
    let mut sunk: Vec<OperationRef<'c, 'c>> = sunk.into_iter().map(|(op, _)| op).collect();
    if sunk.is_empty() {
        return Ok(());
    }
    sunk.reverse();
    // Into each launch of this block, or nested in one of its ops, that
    // uses a sunk value: the sunk ops it needs, in program order.
    let launches =
        ops.iter().flat_map(|&op| crate::ir_query::ops_where(op, WalkOrder::PreOrder, |o| op_name(&o) == "gpu.launch"));
    for launch in launches {
        let needed = needed_by(launch, &sunk);
        if needed.is_empty() {
            continue;
        }
        let location = launch.location();
        let body = launch
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .and_then(|b| b.first_operation())
            .ok_or_else(|| emit_error(location, "sink-host-reads: a gpu.launch without a body"))?;
        let builder = Builder::before(context, body)
            .ok_or_else(|| emit_error(location, "sink-host-reads: a gpu.launch without a body"))?;
        // All the copies first: a copy's operands from other sunk ops are
        // then replaced with the rest of the launch's uses.
        let copies: Vec<_> = needed.iter().map(|&op| (op, builder.insert_clone(op))).collect();
        for (op, copy) in copies {
            for (original, copy) in op.results().zip(copy.results()) {
                crate::ir_builder::replace_uses_where(original.into(), copy.into(), |user| {
                    enclosing(user, &["gpu.launch"]) == Some(launch)
                });
            }
        }
    }
    for op in sunk.into_iter().rev() {
        if op.results().all(|r| users(r.into()).is_empty()) {
            erase(op);
        }
    }
    Ok(())
}

/// Whether `op` may run in a kernel instead of on the host: it and the
/// ops in it only read memory and compute (loads, `memref.dim`, `scf.if`,
/// ops that may run unconditionally, math functions), and it has results.
fn movable(op: OperationRef<'_, '_>) -> bool {
    if op.result_count() == 0 {
        return false;
    }
    let mut movable = true;
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::from_raw(inner.to_raw()) };
        let name = op_name(&inner);
        movable &= matches!(name.as_str(), "memref.load" | "vector.load" | "memref.dim" | "scf.if" | "scf.yield")
            || name.starts_with("math.")
            || speculatable(&inner);
        if movable {
            WalkResult::Advance
        } else {
            WalkResult::Interrupt
        }
    });
    movable
}

/// Whether `op` or an op in it loads from memory.
fn reads_memory(op: OperationRef<'_, '_>) -> bool {
    !read_memrefs(op).is_empty()
}

/// The memories (`root_memref` keys) that loads in `op` read.
fn read_memrefs(op: OperationRef<'_, '_>) -> Vec<usize> {
    let mut read = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        if matches!(inner.name().as_string_ref().as_str(), Ok("memref.load" | "vector.load")) {
            read.extend(inner.operand(0).ok().filter(|v| v.r#type().is_mem_ref()).map(root_memref));
        }
        WalkResult::Advance
    });
    read
}

fn defined_by(value: Value<'_, '_>, ops: &[OperationRef<'_, '_>]) -> bool {
    crate::ir_query::op_result(value).is_ok_and(|r| ops.iter().any(|op| op.to_raw().ptr == r.owner().to_raw().ptr))
}

/// The op of `block` that is or holds `op`.
fn ancestor_in<'c>(op: OperationRef<'c, 'c>, block: BlockRef<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    let mut op = op;
    loop {
        if op.block().is_some_and(|b| b == block) {
            return Some(op);
        }
        let parent = op.parent_operation()?;
        op = unsafe { OperationRef::from_raw(parent.to_raw()) };
    }
}

/// The ops of `sunk` whose values `launch` uses, directly or through
/// other ops of `sunk`, in the order of `sunk`.
fn needed_by<'c>(launch: OperationRef<'c, 'c>, sunk: &[OperationRef<'c, 'c>]) -> Vec<OperationRef<'c, 'c>> {
    let mut needed: Vec<bool> = sunk
        .iter()
        .map(|op| op.results().any(|r| users(r.into()).iter().any(|&u| enclosing(u, &["gpu.launch"]) == Some(launch))))
        .collect();
    // A sunk op's operands come from earlier sunk ops: walk back once.
    for at in (0..sunk.len()).rev() {
        if needed[at] {
            for (before, op) in sunk[..at].iter().enumerate() {
                let feeds = op.results().any(|r| users(r.into()).iter().any(|&u| ancestor_or_self(u, sunk[at])));
                needed[before] |= feeds;
            }
        }
    }
    sunk.iter().zip(needed).filter(|(_, n)| *n).map(|(&op, _)| op).collect()
}

/// Whether `op` is `ancestor` or nested in it.
fn ancestor_or_self(op: OperationRef<'_, '_>, ancestor: OperationRef<'_, '_>) -> bool {
    op == ancestor || crate::ir_query::encloses(ancestor, op)
}
