//! `lower-subgroup-reductions`: `gpu.subgroup_reduce` (a sum, maximum or
//! minimum: a `Reduction`) over clusters of T contiguous lanes (T a power
//! of two up to 32) becomes a butterfly of `nvvm.shfl.sync bfly` steps,
//! log2(T) of them, for NVIDIA GPUs. Each
//! cluster shuffles under its own member mask and segment, so the
//! clusters of one warp need not reach the reduction together; the lanes
//! of one cluster must. Upstream `convert-gpu-to-nvvm` does not lower the
//! op for floats, and `gpu.shuffle` only masks the first `width` lanes.
//!
//! The reduction ends with `nvvm.bar.warp.sync` on the cluster: what its
//! lanes stored before it is visible to all of them after it, as in the
//! CPU emulation (`serialize-launches`), where a reduction splits the
//! threads' work like a barrier.

use crate::{
    axis::detach,
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{is_32_bit_scalar, lane_cluster_reduction, op_name},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::{
        attribute::{Attribute, IntegerAttribute},
        operation::{OperationLike, OperationRef, WalkOrder},
        r#type::IntegerType,
        Type, Value, ValueLike,
    },
    Context,
};
use sptir_dialects::nvvm;

pub const PASS: PassDef = PassDef {
    name: "LowerSubgroupReductions",
    argument: "lower-subgroup-reductions",
    description: "Lower gpu.subgroup_reduce (sums, maxima, minima) over lane clusters to NVVM warp shuffles",
    options: &[],
    dependent_dialects: "arith,nvvm",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let reductions = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| {
        op.name().as_string_ref().as_str() == Ok("gpu.subgroup_reduce")
    });
    for reduction in reductions {
        lower(context, reduction)?;
    }
    Ok(())
}

/// The mask of the calling lane's cluster: `size` (a power of two up to
/// 32) consecutive lanes, from a multiple of `size`, as an i32.
pub fn cluster_mask<'c>(context: &'c Context, builder: &Builder<'c>, size: i64) -> Value<'c, 'c> {
    let location = builder.location;
    let i32_type: Type<'c> = IntegerType::new(context, 32).into();
    let constant =
        |v: i64| builder.value(arith::constant(context, IntegerAttribute::new(i32_type, v).into(), location));
    if size == 32 {
        return constant(-1);
    }
    let lane = builder.value(nvvm::LaneIdOperation::builder(context, location).res(i32_type).build());
    let first = builder.value(arith::andi(lane, constant(-size), location));
    builder.value(arith::shli(constant((1 << size) - 1), first, location))
}

fn lower<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let value: Value<'c, 'c> =
        detach(op.operand(0).map_err(|_| emit_error(location, "malformed gpu.subgroup_reduce"))?);
    let r#type = value.r#type();
    let found = lane_cluster_reduction(op).filter(|_| is_32_bit_scalar(r#type));
    let Some((cluster, reduction)) = found else {
        return Err(emit_error(
            location,
            format!("lower-subgroup-reductions: only sums, maxima and minima of 32-bit scalars ({}) over contiguous clusters of 1, 2, 4, 8, 16 or 32 lanes are supported", op_name(&op)),
        ));
    };
    let builder =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "op is not in a block"))?.at(location);
    let i32_type: Type<'c> = IntegerType::new(context, 32).into();
    let constant =
        |v: i64| builder.value(arith::constant(context, IntegerAttribute::new(i32_type, v).into(), location));
    let mut sum = value;
    if cluster > 1 {
        let members = cluster_mask(context, &builder, cluster);
        // Segment mask (c[12:8]) and clamp (c[4:0]) keep lanes in their cluster.
        let segment = constant(((32 - cluster) << 8) | 31);
        let bfly = Attribute::parse(context, "#nvvm<shfl_kind bfly>")
            .ok_or_else(|| emit_error(location, "lower-subgroup-reductions: no nvvm dialect"))?;
        let mut offset = cluster / 2;
        while offset > 0 {
            let other = builder.value(
                nvvm::ShflOperation::builder(context, location)
                    .res(r#type)
                    .thread_mask(members)
                    .val(sum)
                    .offset(constant(offset))
                    .mask_and_clamp(segment)
                    .kind(bfly)
                    .build(),
            );
            sum = builder.value(reduction.combine(sum, other, location));
            offset /= 2;
        }
        builder.insert(nvvm::SyncWarpOperation::builder(context, location).mask(members).build());
    }
    replace_uses(detach(op.result(0).map_err(|_| emit_error(location, "malformed gpu.subgroup_reduce"))?.into()), sum);
    erase(op);
    Ok(())
}
