//! `sparse-fuse`: the stage I schedule that fuses consecutive loops of a
//! sparse iteration into one loop over the non-zeros of their composition
//! (SparseTIR section 3.2.2; TACO's collapse). Each fused axis must be the
//! child of the one before it; `lower-sparse-iter` then walks the flat
//! positions of the last axis and recovers the others.

use crate::pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions};
use crate::sparse_iter_ops::{scheduled_iterations, IterationInfo};
use melior::ir::{
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
};

pub const PASS: PassDef = PassDef {
    name: "SparseFuse",
    argument: "sparse-fuse",
    description: "Fuse consecutive loops of a stage I sparse iteration (iteration=LABEL loops=P0,P1,...)",
    options: &[
        PassOption { name: "iteration", help: "label of the sparse iteration", required: true, kind: OptionKind::Text },
        PassOption {
            name: "loops",
            help: "consecutive loop positions to fuse into one, e.g. 0,1",
            required: true,
            kind: OptionKind::Indices,
        },
    ],
    dependent_dialects: "",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let loops = options.indices("loops");
    for op in scheduled_iterations(root, options, "sparse-fuse")? {
        fuse(op, &loops)?;
    }
    Ok(())
}

fn fuse(op: OperationRef<'_, '_>, loops: &[usize]) -> Result<(), PassFailed> {
    let info = IterationInfo::read(op);
    let location = op.location();
    let groups = info.groups();
    let consecutive = loops.len() >= 2 && loops.windows(2).all(|pair| pair[1] == pair[0] + 1);
    let Some(&last) = loops.last().filter(|&&last| consecutive && last < groups.len()) else {
        return Err(emit_error(
            location,
            format!("sparse-fuse: loops {loops:?} must be at least two consecutive positions among the iteration's {} loops", groups.len()),
        ));
    };
    let (first, axes) = (loops[0], &info.axes);
    let fused = groups[first].start..groups[last].end;
    // Its positions count from the start of a root's space: a group below
    // a parent would need one fused space per position of the parent.
    if sptir_dialects::axis_parent(axes[fused.start]).is_some() {
        return Err(emit_error(
            location,
            format!("sparse-fuse: axis #{} has a parent axis; a fused group must start at a root axis (one without a parent)", fused.start),
        ));
    }
    for index in fused.clone().skip(1) {
        if sptir_dialects::axis_parent(axes[index]) != Some(axes[index - 1]) {
            return Err(emit_error(
                location,
                format!("sparse-fuse: axis #{index} is not the child of axis #{}, so the loops do not form one space of non-zeros", index - 1),
            ));
        }
    }
    // The init region runs once per element of the spatial axes outside
    // the reductions, which a loop over both kinds no longer has.
    if let Some(spatial) = info.spatial_fused_with_reduction(fused.clone()).filter(|_| info.has_init) {
        return Err(emit_error(
            location,
            format!("sparse-fuse: the init region runs per element of spatial axis #{spatial}, which these loops would fuse with a reduction axis; write the initialization as its own iteration"),
        ));
    }
    let mut sizes: Vec<i64> = Vec::new();
    for (position, group) in groups.iter().enumerate() {
        match position {
            p if p == first => sizes.push(fused.len() as i64),
            p if p > first && p <= last => {}
            _ => sizes.push(group.len() as i64),
        }
    }
    let context = op.context();
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_inherent_attribute("fuse_groups", DenseI64ArrayAttribute::new(unsafe { context.to_ref() }, &sizes).into());
    Ok(())
}
