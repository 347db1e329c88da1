//! `lower-row-barriers`: a row barrier (`gpu.barrier {sptir.row = N}`,
//! which `synchronize-thread-loops` places and `lower-loop-bindings`
//! sizes) becomes a barrier of the row's threads alone, for NVIDIA GPUs.
//! A row is the N threads of one threadIdx.y and z, numbered x first.
//! - N dividing 32: they are N consecutive lanes of one warp, starting at
//!   a multiple of N, and `nvvm.bar.warp.sync` on their lanes orders their
//!   memory accesses, as `bar.sync` does a block's; the other rows of the
//!   warp need not reach it. A row of one thread needs no barrier.
//! - N a multiple of 32: the row is N / 32 whole warps, and meets at named
//!   barrier 1 + its row index (`bar.sync id, N`; barrier 0 is the
//!   block's). The hardware has 16, so the kernel's block size
//!   (`known_block_size` of its `gpu.func`) must have x size N and at most
//!   `MAX_NAMED_ROWS` rows.

use crate::{
    ir_builder::{erase, Builder},
    ir_query::{enclosing, marked_ops, op_name},
    lower_subgroup_reductions::cluster_mask,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    synchronize_thread_loops::ROW_BARRIER,
};
use melior::{
    dialect::arith,
    ir::{
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        r#type::IntegerType,
        Type, Value,
    },
};
use sptir_dialects::nvvm;

pub const PASS: PassDef = PassDef {
    name: "LowerRowBarriers",
    argument: "lower-row-barriers",
    description: "Lower row barriers (gpu.barrier {sptir.row = N}) to nvvm.bar.warp.sync on the row's lanes (N dividing 32) or to a named barrier of the row's warps (N a multiple of 32)",
    options: &[],
    dependent_dialects: "arith,nvvm",
    run,
};

/// The most rows of whole warps a block may have: named barriers 1 to 15.
pub const MAX_NAMED_ROWS: i64 = 15;

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for barrier in marked_ops(root, ROW_BARRIER).into_iter().filter(|op| op_name(op) == "gpu.barrier") {
        let location = barrier.location();
        let size = barrier.attribute(ROW_BARRIER).ok().and_then(|a| IntegerAttribute::try_from(a).ok());
        let Some(size) = size.map(|s| s.value()).filter(|&s| s > 0 && (32 % s == 0 || s % 32 == 0)) else {
            return Err(emit_error(
                location,
                "lower-row-barriers: a row barrier needs its row's thread count (sptir.row = N, N dividing 32 or a multiple of 32); run lower-loop-bindings on the bound loops",
            ));
        };
        let builder = Builder::before(context, barrier)
            .ok_or_else(|| emit_error(location, "barrier is not in a block"))?
            .at(location);
        if 32 % size == 0 {
            if size > 1 {
                let members = cluster_mask(context, &builder, size);
                builder.insert(nvvm::SyncWarpOperation::builder(context, location).mask(members).build());
            }
        } else {
            let rows_y = named_rows(barrier, size)?;
            let i32_type: Type = IntegerType::new(context, 32).into();
            let constant =
                |v: i64| builder.value(arith::constant(context, IntegerAttribute::new(i32_type, v).into(), location));
            let y = builder.value(nvvm::ThreadIdYOperation::builder(context, location).res(i32_type).build());
            let z = builder.value(nvvm::ThreadIdZOperation::builder(context, location).res(i32_type).build());
            let row =
                builder.value(arith::addi(y, builder.value(arith::muli(z, constant(rows_y), location)), location));
            let id: Value = builder.value(arith::addi(row, constant(1), location));
            let named = builder.insert(
                nvvm::BarrierOperation::builder(context, location)
                    .barrier_id(id)
                    .number_of_threads(constant(size))
                    .build(),
            );
            // melior's builder leaves the optional operands' segment sizes
            // at zero: an id, a count and no reduction predicate.
            unsafe { OperationRefMut::from_raw(named.to_raw()) }
                .set_inherent_attribute("operandSegmentSizes", DenseI32ArrayAttribute::new(context, &[1, 1, 0]).into());
        }
        erase(barrier);
    }
    Ok(())
}

/// The block's y size, after checking that `barrier`'s kernel runs blocks
/// of x size `size` and at most `MAX_NAMED_ROWS` rows, so that each row
/// has a named barrier of its own.
fn named_rows(barrier: OperationRef<'_, '_>, size: i64) -> Result<i64, PassFailed> {
    let block = enclosing(barrier, &["gpu.func"])
        .and_then(|f| f.attribute("known_block_size").ok())
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .filter(|a| a.len() == 3)
        .map(|a| (0..3).filter_map(|i| a.element(i).ok()).map(i64::from).collect::<Vec<_>>());
    match block.as_deref() {
        Some(&[x, y, z]) if x == size && y * z <= MAX_NAMED_ROWS => Ok(y),
        _ => Err(emit_error(
            barrier.location(),
            format!("lower-row-barriers: a row of {size} threads (whole warps) takes a named barrier of its own, so its gpu.func needs a known_block_size of x size {size} and at most {MAX_NAMED_ROWS} rows (y * z), got {}", block.map_or("none".to_string(), |b| format!("{b:?}"))),
        )),
    }
}
