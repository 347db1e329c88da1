//! Questions passes ask of the IR: an op's name, where a value is defined,
//! which op encloses which.

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    RegionLike, Value, ValueLike,
};

/// The attribute of the `arith.constant` that defines `value`, if one does.
pub fn constant_of<'c>(value: Value<'c, '_>) -> Option<melior::ir::Attribute<'c>> {
    let result = melior::ir::operation::OperationResult::try_from(value).ok()?;
    let owner = result.owner();
    (owner.name().as_string_ref().as_str() == Ok("arith.constant")).then(|| owner.attribute("value").ok()).flatten()
}

/// The integer `value` is, if an `arith.constant` defines it.
pub fn constant_index(value: Value<'_, '_>) -> Option<i64> {
    constant_of(value).and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok()).map(|i| i.value())
}

/// The op's name, e.g. `scf.for`.
pub fn op_name(op: &OperationRef<'_, '_>) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// Whether `value` is defined outside `op` (by an op or block before it),
/// so that it is known before `op` runs.
pub fn defined_outside(value: Value<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    let mut inside = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        let defines = inner.results().any(|r| Value::from(r) == value)
            || inner.regions().any(|region| {
                let mut block = region.first_block();
                while let Some(current) = block {
                    if (0..current.argument_count()).any(|i| current.argument(i).is_ok_and(|a| Value::from(a) == value))
                    {
                        return true;
                    }
                    block = current.next_in_region();
                }
                false
            });
        if defines {
            inside = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    !inside
}

/// Whether `inner` is nested in `outer`.
pub fn encloses(outer: OperationRef<'_, '_>, inner: OperationRef<'_, '_>) -> bool {
    let mut current = inner.parent_operation();
    while let Some(parent) = current {
        if parent == outer {
            return true;
        }
        current = parent.parent_operation();
    }
    false
}

/// The ops under `root` that satisfy `wanted` and are not nested in
/// another such op, in order.
pub fn outermost<'c, 'a>(
    root: OperationRef<'c, 'a>,
    wanted: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if wanted(&op) {
            found.push(op);
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    found
}

/// How many operands use `value`.
pub fn use_count(value: Value<'_, '_>) -> usize {
    let mut count = 0;
    let mut operand = unsafe { mlir_sys::mlirValueGetFirstUse(value.to_raw()) };
    while !unsafe { mlir_sys::mlirOpOperandIsNull(operand) } {
        count += 1;
        operand = unsafe { mlir_sys::mlirOpOperandGetNextUse(operand) };
    }
    count
}
