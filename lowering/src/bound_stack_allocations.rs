//! `bound-stack-allocations`: on the CPU a `memref.alloca` takes stack,
//! which is a few MiB a thread and is not given back until the function
//! returns. A local buffer whose size the run decides (`nnz * feat`), or a
//! large one, overflows it (a segfault, not an error); and one inside a
//! loop takes its size again on every iteration, since LLVM lowers
//! `alloca` where it stands. So, outside GPU code:
//!
//! - an alloca whose size is not known when compiling, or is over
//!   `STACK_LIMIT` bytes, becomes a `memref.alloc` freed before its block's
//!   terminator (each iteration's buffer is its own, as before), unless the
//!   memref may leave its block (anything but loads, stores and views of
//!   it: a yield, a loop's carried values, a select, a call), where a free
//!   at the block's end would come too early;
//! - a smaller one inside a loop moves to the start of its function's
//!   entry block: one buffer serves every iteration, which on the CPU run
//!   one after another, and nothing reads a fresh buffer's elements before
//!   writing them; unless the memref outlives its iteration.
//!
//! Allocas in `gpu.launch` bodies are each GPU thread's local memory,
//! which the PTX backend sizes per thread: they stay.

use crate::{
    ir_builder::{replace_op, Builder},
    ir_query::{byte_size, op_name, static_shape, users, VIEWS},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::memref,
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::{DimSize, MemRefType, ShapedTypeLike},
        RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "BoundStackAllocations",
    argument: "bound-stack-allocations",
    description: "Keep the CPU's stack bounded: allocas of a size unknown when compiling or over 64 KiB become heap allocations freed where their block ends; smaller ones in loops move to the function's entry",
    options: &[],
    dependent_dialects: "memref",
    run,
};

/// The most bytes one alloca keeps on the stack.
pub const STACK_LIMIT: i64 = 64 << 10;

const LOOPS: [&str; 5] = ["scf.for", "scf.while", "scf.parallel", "scf.forall", "affine.for"];

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for function in crate::ir_query::outermost(root, |op| op_name(op) == "func.func") {
        bound(context, function)?;
    }
    Ok(())
}

/// Applies the pass to one `func.func`.
pub fn bound<'c>(context: &'c Context, function: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let Some(entry) = function.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut allocas = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| match op_name(&op).as_str() {
        "gpu.launch" | "gpu.module" | "gpu.func" => WalkResult::Skip,
        "memref.alloca" => {
            allocas.push(unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) });
            WalkResult::Advance
        }
        _ => WalkResult::Advance,
    });
    for alloca in allocas {
        let location = alloca.location();
        let result: Value<'c, 'c> = alloca.result(0).map_err(|_| emit_error(location, "alloca without result"))?.into();
        let Ok(r#type) = MemRefType::try_from(result.r#type()) else { continue };
        let elements = static_shape(r#type)
            .and_then(|shape| shape.into_iter().try_fold(1i64, |total, size| total.checked_mul(size)));
        let bytes = elements.zip(byte_size(r#type.element())).and_then(|(n, size)| n.checked_mul(size));
        match bytes {
            Some(bytes) if bytes <= STACK_LIMIT => {
                let in_loop = std::iter::successors(alloca.parent_operation(), |op| op.parent_operation())
                    .take_while(|op| *op != function)
                    .any(|op| LOOPS.contains(&op_name(&op).as_str()));
                // One buffer can serve every iteration only where each
                // iteration's is its own: it leaves no iteration (a
                // buffer rotated through a loop's carried values would
                // then be its own successor), and takes no operands
                // (layout symbols) that only the iteration defines.
                let own =
                    alloca.operand_count() == 0 && alloca.block().is_some_and(|block| stays_in_block(result, block));
                if in_loop && own {
                    let first = entry.first_operation().map(|op| unsafe { OperationRef::from_raw(op.to_raw()) });
                    if let Some(first) = first.filter(|&first| first != alloca) {
                        Builder::before(context, first)
                            .ok_or_else(|| emit_error(location, "entry op outside a block"))?
                            .insert_existing(alloca);
                    }
                }
            }
            _ => to_heap(context, alloca, result, r#type)?,
        }
    }
    Ok(())
}

/// Ops that read or write a memref's elements, or ask about its layout,
/// and hand it on to nothing.
const USES: [&str; 9] = [
    "memref.load",
    "memref.store",
    "vector.load",
    "vector.store",
    "memref.atomic_rmw",
    "memref.generic_atomic_rmw",
    "memref.dim",
    "memref.extract_aligned_pointer_as_index",
    "memref.copy",
];

/// Whether every use of `memref`, through views, is an op of `block` or
/// inside one that only touches it (a load, a store as the memory, ...):
/// nothing hands it on, through a yield, a loop's carried values, a
/// select or a call, to code after the block or to another iteration.
fn stays_in_block(memref: Value<'_, '_>, block: melior::ir::BlockRef<'_, '_>) -> bool {
    users(memref).into_iter().all(|user| {
        let name = op_name(&user);
        let inside = std::iter::successors(Some(user), |op| op.parent_operation())
            .any(|op| op.block().is_some_and(|b| b == block));
        // A store's value is its first operand: storing the memref itself
        // would hand it on.
        let touches = USES.contains(&name.as_str())
            && !(name == "memref.store" && user.operand(0).is_ok_and(|value| value == memref));
        let views = VIEWS.contains(&name.as_str()) && user.results().all(|view| stays_in_block(view.into(), block));
        inside && (touches || views)
    })
}

/// Replaces `alloca` by a heap allocation of the same type and sizes,
/// freed before its block's terminator.
fn to_heap<'c>(
    context: &'c Context,
    alloca: OperationRef<'c, 'c>,
    result: Value<'c, 'c>,
    r#type: MemRefType<'c>,
) -> Result<(), PassFailed> {
    let location = alloca.location();
    let Some(block) = alloca.block() else { return Ok(()) };
    let Some(end) = block.terminator() else { return Ok(()) };
    let dynamic = (0..r#type.rank()).filter(|&dim| !matches!(r#type.dim_size(dim), Ok(DimSize::Static(_)))).count();
    // Sizes only (no layout symbols), a memref that stays in its block.
    if alloca.operand_count() != dynamic || !stays_in_block(result, block) {
        return Ok(());
    }
    let sizes: Vec<Value<'c, 'c>> = alloca.operands().collect();
    let alignment = alloca.attribute("alignment").ok().and_then(|a| IntegerAttribute::try_from(a).ok());
    let builder = Builder::before(context, alloca).ok_or_else(|| emit_error(location, "alloca outside a block"))?;
    let heap = builder.value(memref::alloc(context, r#type, &sizes, &[], alignment, location));
    let end: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(end.to_raw()) };
    Builder::before(context, end)
        .ok_or_else(|| emit_error(location, "terminator outside a block"))?
        .at(location)
        .insert(memref::dealloc(heap, location));
    replace_op(alloca, heap);
    Ok(())
}
