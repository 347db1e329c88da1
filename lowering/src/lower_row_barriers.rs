//! `lower-row-barriers`: a row barrier (`gpu.barrier {sptir.row = N}`,
//! which `synchronize-thread-loops` places and `lower-loop-bindings`
//! sizes) becomes `nvvm.bar.warp.sync` on the row's lanes, for NVIDIA
//! GPUs. A row is the N threads of one threadIdx.y and z; with threads
//! numbered x first and N dividing 32, they are N consecutive lanes of one
//! warp, starting at a multiple of N. `bar.warp.sync` orders their memory
//! accesses, as `bar.sync` does a block's, and the other rows of the
//! warp need not reach it. A row of one thread needs no barrier.

use crate::{
    ir_builder::{erase, Builder},
    ir_query::{marked_ops, op_name},
    lower_subgroup_reductions::cluster_mask,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    synchronize_thread_loops::ROW_BARRIER,
};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};
use sptir_dialects::nvvm;

pub const PASS: PassDef = PassDef {
    name: "LowerRowBarriers",
    argument: "lower-row-barriers",
    description: "Lower row barriers (gpu.barrier {sptir.row = N}) to nvvm.bar.warp.sync on the row's lanes",
    options: &[],
    dependent_dialects: "arith,nvvm",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for barrier in marked_ops(root, ROW_BARRIER).into_iter().filter(|op| op_name(op) == "gpu.barrier") {
        let location = barrier.location();
        let size = barrier.attribute(ROW_BARRIER).ok().and_then(|a| IntegerAttribute::try_from(a).ok());
        let Some(size) = size.map(|s| s.value()).filter(|&s| s > 0 && 32 % s == 0) else {
            return Err(emit_error(
                location,
                "lower-row-barriers: a row barrier needs its row's thread count (sptir.row = N, N dividing 32); run lower-loop-bindings on the bound loops",
            ));
        };
        if size > 1 {
            let builder = Builder::before(context, barrier)
                .ok_or_else(|| emit_error(location, "barrier is not in a block"))?
                .at(location);
            let members = cluster_mask(context, &builder, size);
            builder.insert(nvvm::SyncWarpOperation::builder(context, location).mask(members).build());
        }
        erase(barrier);
    }
    Ok(())
}
