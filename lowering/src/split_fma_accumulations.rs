//! `split-fma-accumulations`: `store fma(a, b, load m[i]), m[i]` becomes
//! `store (load m[i] + a * b), m[i]`. A reduction written with `math.fma`
//! is the same sum as one written with a multiply and an add, but the
//! passes that share a reduction between threads or vector lanes
//! (`lower-loop-bindings`' shuffles and atomics, `vectorize-loops`)
//! recognize an accumulation by its addition, and refused the fma.
//! `contract-float-ops` lets LLVM fuse the two again where the sum stays
//! in one thread.

use crate::{
    ir_builder::{replace_op, Builder},
    ir_query::{load_of_stored_element, op_name, op_result},
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::arith,
    ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};

pub const PASS: PassDef = PassDef {
    name: "SplitFmaAccumulations",
    argument: "split-fma-accumulations",
    description: "Write store fma(a, b, load m[i]), m[i] as an addition of a * b to the loaded element",
    options: &[],
    dependent_dialects: "arith",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut fmas = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if let Some(fma) = accumulating_fma(op) {
            fmas.push(fma);
        }
        WalkResult::Advance
    });
    for fma in fmas {
        let (Ok(a), Ok(b), Ok(sum)) = (fma.operand(0), fma.operand(1), fma.operand(2)) else { continue };
        let Some(builder) = Builder::before(context, fma) else { continue };
        let builder = builder.at(fma.location());
        let product = builder.value(arith::mulf(a, b, fma.location()));
        let added = builder.value(arith::addf(sum, product, fma.location()));
        replace_op(fma, added);
    }
    Ok(())
}

/// The `math.fma` that `store` writes, if its addend is a load of the
/// element the store writes.
fn accumulating_fma<'c>(store: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let fma = op_result(store.operand(0).ok()?).ok()?.owner();
    (op_name(&fma) == "math.fma" && load_of_stored_element(store, fma.operand(2).ok()?).is_some())
        .then(|| unsafe { OperationRef::from_raw(fma.to_raw()) })
}
