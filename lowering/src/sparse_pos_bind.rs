//! `sparse-pos-bind`: the stage II schedule that binds a position loop to a
//! GPU grid or block dimension (TensorIR's `bind`). The loop keeps its
//! shape; `lower-loop-bindings` later turns bound loops into `gpu.launch`.
//!
//! Binding a reduction loop means several blocks or threads update the same
//! outputs; that is accepted only with `atomic=true`, which marks the loop
//! so that its writes become atomic updates, or, for `threadIdx.x`, with
//! `shuffle=true`: the threads' partial sums are added across the warp
//! (`gpu.subgroup_reduce`) and one thread writes the total, so the loop
//! must run a power of two up to 32 times (`lower-loop-bindings` checks).

use crate::pass_registry::{emit_error, options_location, OptionKind, PassDef, PassFailed, PassOption, PassOptions};
use crate::sparse_pos_ops::{
    bound_loops, carried_conflict, loop_kind, loop_label, named_loops, one_thread_mark, LoopKind, FOR,
};
use melior::ir::{
    attribute::{Attribute, StringAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
};

pub const PASS: PassDef = PassDef {
    name: "SparsePosBind",
    argument: "sparse-pos-bind",
    description:
        "Bind a stage II loop to a GPU dimension (loop=LABEL to=blockIdx.x|..|threadIdx.z [atomic=true|shuffle=true])",
    options: &[
        PassOption {
            name: "loop",
            help: "label of the sparse_pos.for to bind",
            required: true,
            kind: OptionKind::Text,
        },
        PassOption {
            name: "to",
            help: "blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y or threadIdx.z",
            required: true,
            kind: OptionKind::OneOf(&DIMENSIONS),
        },
        PassOption {
            name: "atomic",
            help: "true to allow binding a reduction loop (its writes become atomic)",
            required: false,
            kind: OptionKind::Flag,
        },
        PassOption {
            name: "shuffle",
            help: "true to allow binding a reduction loop to threadIdx.x (partial sums meet in a warp shuffle)",
            required: false,
            kind: OptionKind::Flag,
        },
    ],
    dependent_dialects: "",
    run,
};

/// The marker of a loop whose threads' sums meet in a warp shuffle.
pub const SHUFFLE_LOOP: &str = "shuffle";

pub const DIMENSIONS: [&str; 6] =
    ["blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z"];

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let label = options.get("loop").unwrap_or_default();
    // The option parser made sure `to` is one of DIMENSIONS.
    let to = options.get("to").unwrap_or_default();
    let (atomic, shuffle) = (options.flag("atomic"), options.flag("shuffle"));
    if shuffle && (atomic || to != "threadIdx.x") {
        return Err(emit_error(
            options_location(root),
            format!("sparse-pos-bind: shuffle=true combines the lanes of a warp: it binds to threadIdx.x only, without atomic=true (got to={to}{})", if atomic { " atomic=true" } else { "" }),
        ));
    }
    let loops = named_loops("sparse-pos-bind", root, label)?;
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for op in loops {
        if loop_kind(op) == LoopKind::Reduction && !atomic && !shuffle {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-bind: loop \"{label}\" is a reduction; binding it to {to} makes threads race on its outputs (pass atomic=true to make its writes atomic, or shuffle=true on threadIdx.x to add the threads' sums in a warp shuffle)"),
            ));
        }
        if shuffle && loop_kind(op) != LoopKind::Reduction {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-bind: loop \"{label}\" is not a reduction; shuffle=true adds the lanes' sums of one output"),
            ));
        }
        if shuffle {
            if let Some(store) = store_following(op) {
                return Err(emit_error(
                    op.location(),
                    format!("sparse-pos-bind: shuffle=true adds the lanes' sums of one output, but positions of loop \"{label}\" write different ones ({}: a spatial loop fused into it?); bind the spatial loop apart (to threadIdx.y, say) or pass atomic=true instead", crate::ir_query::describe_pair((store, store))),
                ));
            }
        }
        if op.has_attribute("bind") {
            return Err(emit_error(op.location(), format!("sparse-pos-bind: loop \"{label}\" is already bound")));
        }
        // A bound loop becomes one position a thread: nothing would be
        // left to vectorize or unroll (the two refuse bound loops, too).
        if let Some(mark) = one_thread_mark(op) {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-bind: loop \"{label}\" is marked to {mark}; bind a loop around it instead (split it first with sparse-pos-split)"),
            ));
        }
        // The loops bound around `op` and the loops between run in
        // `op`'s launch, so their positions vary too; loops bound inside
        // `op` now run in the same launch as the loops around it.
        let root = launch_root(op);
        if let Some((first, second)) = carried_conflict(op, root, to == "threadIdx.x") {
            return Err(emit_error(
                op.location(),
                format!("sparse-pos-bind: positions of loop \"{label}\" pass data to each other, so they cannot run at once on {to}: at two of its positions, {} may touch one element, and one of them stores it", crate::ir_query::describe_pair((first, second))),
            ));
        }
        let mut marked = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        marked.set_discardable_attribute("bind", StringAttribute::new(context, to).into());
        if atomic {
            marked.set_discardable_attribute("atomic", Attribute::unit(context));
        }
        if shuffle {
            marked.set_discardable_attribute(SHUFFLE_LOOP, Attribute::unit(context));
        }
        // Bound now, `op` answers for its own positions (the check above),
        // as it does in a bound loop's own check when it was bound first.
        for inside in bound_loops(op, |_| true).into_iter().filter(|&inside| inside != op) {
            if let Some(pair) =
                carried_conflict(inside, root, crate::sparse_pos_ops::binding(inside).as_deref() == Some("threadIdx.x"))
            {
                return Err(emit_error(
                    op.location(),
                    format!("sparse-pos-bind: binding loop \"{label}\" puts loop \"{}\", bound inside it, in one launch with it, where positions of \"{}\" at different positions of \"{label}\" pass data to each other: {} may touch one element, and one of them stores it", loop_label(inside), loop_label(inside), crate::ir_query::describe_pair(pair)),
                ));
            }
        }
    }
    Ok(())
}

/// The outermost loop bound around `op`, or `op`: the loop that becomes
/// the launch `op` runs in.
fn launch_root<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let mut root = op;
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if crate::ir_query::op_name(&parent) == FOR && parent.has_attribute("bind") {
            root = parent;
        }
        current = parent.parent_operation();
    }
    root
}

/// An accumulation inside `op` whose element depends on `op`'s position:
/// a lane of a shuffle over `op` would add to another output than its
/// neighbours. (Plain stores of a lane's own elements do not meet.)
fn store_following<'c>(op: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let position = crate::sparse_pos_ops::loop_position(op).ok()?;
    let mut found = None;
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
        let inner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(inner.to_raw()) };
        let follows = crate::ir_query::op_name(&inner) == "sparse_pos.store"
            && crate::ir_query::accumulation(inner).is_some()
            && inner.operands().skip(2).any(|v| crate::ir_query::depends_on(crate::axis::detach(v), position));
        if follows {
            found = Some(inner);
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    found
}
