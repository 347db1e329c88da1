//! `relax-atomic-updates`: `memref.atomic_rmw` promises atomicity, not
//! ordering, but its lowering to the LLVM dialect asks for `acq_rel` at
//! system scope. NVPTX emits the updates it has instructions for (add, the
//! integer max and min) relaxed anyway; the ones it expands into a
//! compare-and-swap loop (a float maximum or minimum) it emitted as
//! `atom.acq_rel.sys.cas`, each a fence with the host. sptir's atomic
//! updates are reductions that need only atomicity, and what must see
//! them waits at a barrier or the kernel's end, so this pass makes every
//! `llvm.atomicrmw` of GPU code monotonic at device scope
//! (`atom.relaxed.gpu`), as the add instructions already behave.

use crate::{
    ir_query::op_name,
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder},
    r#type::IntegerType,
};

pub const PASS: PassDef = PassDef {
    name: "RelaxAtomicUpdates",
    argument: "relax-atomic-updates",
    description:
        "Make llvm.atomicrmw of GPU code monotonic at device scope (sptir's atomic reductions need no ordering)",
    options: &[],
    dependent_dialects: "",
    run,
};

/// LLVM's AtomicOrdering: `monotonic` (relaxed).
const MONOTONIC: i64 = 2;

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let updates = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| op_name(&op) == "llvm.atomicrmw");
    for update in updates {
        let mut update = unsafe { OperationRefMut::from_raw(update.to_raw()) };
        update.set_attribute("ordering", IntegerAttribute::new(IntegerType::new(context, 64).into(), MONOTONIC).into());
        update.set_attribute("syncscope", StringAttribute::new(context, "device").into());
    }
    Ok(())
}
