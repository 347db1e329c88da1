//! `sparse-pos-bind`: the stage II schedule that binds a position loop to a
//! GPU grid or block dimension (TensorIR's `bind`). The loop keeps its
//! shape; `lower-loop-bindings` later turns bound loops into `gpu.launch`.
//!
//! Binding a reduction loop means several blocks or threads update the same
//! outputs; that is accepted only with `atomic=true`, which marks the loop
//! so that its writes become atomic updates.

use crate::pass_registry::{emit_error, PassDef, PassFailed, PassOption, PassOptions};
use crate::sparse_pos_ops::{loop_kind, named_loops, LoopKind};
use melior::ir::{
    attribute::{Attribute, StringAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosBind",
    argument: "sparse-pos-bind",
    description: "Bind a stage II loop to a GPU dimension (loop=LABEL to=blockIdx.x|..|threadIdx.z [atomic=true])",
    options: &[
        PassOption { name: "loop", help: "label of the sparse_pos.for to bind", required: true },
        PassOption {
            name: "to",
            help: "blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y or threadIdx.z",
            required: true,
        },
        PassOption {
            name: "atomic",
            help: "true to allow binding a reduction loop (its writes become atomic)",
            required: false,
        },
    ],
    dependent_dialects: "",
    run,
};

pub const DIMENSIONS: [&str; 6] =
    ["blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z"];

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    let to = options.get("to").unwrap_or_default();
    if !DIMENSIONS.contains(&to) {
        return Err(emit_error(
            root.location(),
            format!("sparse-pos-bind: cannot bind to '{to}'; expected one of {}", DIMENSIONS.join(", ")),
        ));
    }
    let atomic = match options.get("atomic") {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(emit_error(
                root.location(),
                format!("sparse-pos-bind: atomic must be true or false, got '{other}'"),
            ))
        }
    };
    let loops = named_loops("sparse-pos-bind", root, label)?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        if loop_kind(op) == LoopKind::Reduction && !atomic {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-bind: loop \"{label}\" is a reduction; binding it to {to} makes threads race on its outputs (pass atomic=true to make its writes atomic)"),
            ));
        }
        if op.has_attribute("bind") {
            return Err(emit_error(op.location(), format!("sparse-pos-bind: loop \"{label}\" is already bound")));
        }
        let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        op.set_discardable_attribute("bind", StringAttribute::new(context, to).into());
        if atomic {
            op.set_discardable_attribute("atomic", Attribute::unit(context));
        }
    }
    Ok(())
}
