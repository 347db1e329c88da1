//! `fuse-launches`: horizontal fusion (SparseTIR section 3.3). Consecutive
//! `gpu.launch` ops with the same block shape become one launch whose grid
//! is their grids laid end to end along x: block `b` runs the launch whose
//! range of x ids holds it, with its x id and grid size shifted back. A
//! decomposed format's kernels (one per hyb bucket) then cost one launch.
//!
//! Fusing runs launches concurrently that ran one after the other, so it is
//! done only where order cannot matter: a memref that two of the launches
//! use is only read by both, or only updated by both with atomic additions
//! (which commute). Launches are fused greedily in program order; only
//! side-effect-free index arithmetic may sit between them (it moves in
//! front of the fused launch).

use crate::{
    axis::detach,
    ir_builder::{erase, region_with_block, replace_uses, Builder},
    ir_query::{atomic_add_kind, constant_index, op_name, root_memref, VIEWS},
    lower_loop_bindings::insert_launch,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{arith, scf},
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::TypeLike,
        BlockRef, Region, RegionLike, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

pub const PASS: PassDef = PassDef {
    name: "FuseLaunches",
    argument: "fuse-launches",
    description: "Horizontal fusion: consecutive independent gpu.launch ops of one block shape become one launch",
    options: &[],
    dependent_dialects: "arith,gpu,scf",
    run,
};

/// How a launch uses a memref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    AtomicAdd,
    Other,
}

type Accesses = HashMap<usize, Vec<Access>>;

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut blocks: Vec<BlockRef> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("gpu.launch") {
            if let Some(block) = op.block() {
                if !blocks.iter().any(|b| b.to_raw().ptr == block.to_raw().ptr) {
                    blocks.push(unsafe { BlockRef::from_raw(block.to_raw()) });
                }
            }
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    for block in blocks {
        for (group, moved) in groups(block) {
            fuse(context, &group, &moved);
        }
    }
    Ok(())
}

/// The runs of launches in `block` that can be fused, each with the pure
/// ops between its launches.
fn groups<'c>(block: BlockRef<'c, '_>) -> Vec<(Vec<OperationRef<'c, 'c>>, Vec<OperationRef<'c, 'c>>)> {
    let mut result = Vec::new();
    let mut group: Vec<OperationRef<'c, 'c>> = Vec::new();
    let mut accesses = Accesses::new();
    let mut moved = Vec::new();
    let mut pending = Vec::new();
    let mut flush = |group: &mut Vec<OperationRef<'c, 'c>>, moved: &mut Vec<OperationRef<'c, 'c>>| {
        if group.len() > 1 {
            result.push((std::mem::take(group), std::mem::take(moved)));
        }
        group.clear();
        moved.clear();
    };
    let mut next = block.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(op) = next {
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        let name = op_name(&op);
        if name == "gpu.launch" {
            let fusible = simple(op);
            let own = fusible.then(|| accesses_of(op));
            match own {
                Some(own) if !group.is_empty() && same_shape(group[0], op) && !conflict(&accesses, &own) => {
                    moved.append(&mut pending);
                    for (key, kinds) in own {
                        accesses.entry(key).or_default().extend(kinds);
                    }
                    group.push(op);
                }
                own => {
                    flush(&mut group, &mut moved);
                    pending.clear();
                    accesses = own.unwrap_or_default();
                    if fusible {
                        group.push(op);
                    }
                }
            }
        } else if !group.is_empty() && pure(&name) {
            pending.push(op);
        } else {
            flush(&mut group, &mut moved);
            pending.clear();
        }
    }
    flush(&mut group, &mut moved);
    result
}

/// Arithmetic that can move before a launch without changing what
/// anything computes: it reads no memory, and it ran unconditionally
/// anyway.
fn pure(name: &str) -> bool {
    name.starts_with("arith.") || name == "memref.dim"
}

/// A launch of six sizes, a one-block body and nothing else.
fn simple(launch: OperationRef<'_, '_>) -> bool {
    launch.operand_count() == 6
        && launch.region_count() == 1
        && launch
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_some_and(|b| b.argument_count() == 12 && b.next_in_region().is_none())
}

/// Same block sizes and the same grid y and z.
fn same_shape(a: OperationRef<'_, '_>, b: OperationRef<'_, '_>) -> bool {
    (1..6).all(|n| match (a.operand(n), b.operand(n)) {
        (Ok(x), Ok(y)) => {
            let (x, y) = (detach(x), detach(y));
            x == y || constant_index(x).is_some_and(|c| constant_index(y) == Some(c))
        }
        _ => false,
    })
}

fn is_memref(value: Value<'_, '_>) -> bool {
    value.r#type().is_mem_ref()
}

fn accesses_of(launch: OperationRef<'_, '_>) -> Accesses {
    let mut accesses = Accesses::new();
    launch.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        let kind = match name {
            "memref.load" | "vector.load" => Access::Read,
            // Shapes and addresses, not contents.
            "memref.dim" | "memref.extract_aligned_pointer_as_index" => return WalkResult::Advance,
            "memref.atomic_rmw" => {
                let op = unsafe { OperationRef::from_raw(op.to_raw()) };
                if atomic_add_kind(op).is_some() {
                    Access::AtomicAdd
                } else {
                    Access::Other
                }
            }
            _ if VIEWS.contains(&name) => return WalkResult::Advance,
            _ => Access::Other,
        };
        for operand in op.operands().filter(|&v| is_memref(v)) {
            accesses.entry(root_memref(operand)).or_default().push(kind);
        }
        WalkResult::Advance
    });
    accesses
}

/// Whether running `b` beside the launches of `a` could change a result.
fn conflict(a: &Accesses, b: &Accesses) -> bool {
    b.iter().any(|(key, kinds)| {
        let Some(others) = a.get(key) else { return false };
        let all: Vec<Access> = kinds.iter().chain(others).copied().collect();
        all.contains(&Access::Other) || (all.contains(&Access::Read) && all.contains(&Access::AtomicAdd))
    })
}

fn fuse<'c>(context: &'c Context, group: &[OperationRef<'c, 'c>], moved: &[OperationRef<'c, 'c>]) {
    let first = group[0];
    for &op in moved {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.move_before(first);
    }
    let location = first.location();
    let builder = Builder::before(context, first).expect("a launch is in a block").at(location);
    let size = |launch: OperationRef<'c, 'c>, n: usize| detach(launch.operand(n).expect("six sizes"));
    // Launch k owns the x ids [offsets[k], offsets[k] + grid_x(k)).
    let mut offsets = vec![builder.index(0)];
    for &launch in group {
        let end = builder.add(*offsets.last().expect("starts at zero"), size(launch, 0));
        offsets.push(end);
    }
    let total = *offsets.last().expect("one per launch");
    let (ids, terminator) = insert_launch(
        context,
        &builder,
        [total, size(first, 1), size(first, 2), size(first, 3), size(first, 4), size(first, 5)],
    );
    let inside = Builder::before(context, terminator).expect("a launch body").at(location);
    for (k, &launch) in group.iter().enumerate() {
        let grid_x = size(launch, 0);
        let local = inside.sub(ids[0], offsets[k]);
        let mine = inside.cmp(arith::CmpiPredicate::Ult, local, grid_x);
        let (then_region, then_builder) = region_with_block(context, location, &[], scf::r#yield(&[], location));
        inside.insert(scf::r#if(mine, &[], then_region, Region::new(), location));
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("checked one-block body");
        for n in 0..12 {
            let argument: Value = body.argument(n).expect("checked twelve arguments").into();
            let value = match n {
                0 => local,
                6 => grid_x,
                _ => ids[n],
            };
            replace_uses(argument, value);
        }
        let mut next = body.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
        while let Some(op) = next {
            next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
            if next.is_none() {
                break; // gpu.terminator
            }
            then_builder.insert_existing(op);
        }
        erase(launch);
    }
}
