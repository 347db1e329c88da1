//! An accumulation at stage III, `store (old + terms), m[i]` where `old`
//! was loaded from `m[i]` before the additions (possibly through a
//! register accumulation: loops and conditionals that only add), taken
//! apart so that the terms can be combined across threads: atomically
//! (`lower-atomic-accumulations`) or in a warp shuffle
//! (`lower-shuffle-accumulations`). A maximum or minimum (any
//! [`Reduction`]) is taken apart alike, one kind throughout the chain.

use crate::{
    axis::detach,
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{depends_on, op_name, use_count, users},
    pass_registry::{emit_error, PassFailed},
    reduction::Reduction,
};
use melior::{
    dialect::arith,
    ir::{
        block::{BlockArgument, BlockLike},
        operation::{OperationLike, OperationRef},
        r#type::TypeLike,
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};

/// A store of an accumulation whose additions now start from zero (from
/// the identity of its reduction).
pub struct Split<'c> {
    /// The terms reduced alone (of the vector type for a vector store).
    pub terms: Value<'c, 'c>,
    /// How the terms combine with one another and with the old value.
    pub reduction: Reduction,
    /// The load of the old value; nothing uses it any more.
    pub init: OperationRef<'c, 'c>,
    /// The stored memref and indices.
    pub place: Vec<Value<'c, 'c>>,
    /// The scalar element type.
    pub element_type: Type<'c>,
    /// `old + terms` when it was a single combining op, now dead.
    dead: Option<OperationRef<'c, 'c>>,
}

impl<'c> Split<'c> {
    /// Erases the store, the old value's load and what only they used.
    pub fn finish(self, store: OperationRef<'c, 'c>) {
        erase(store);
        if let Some(add) = self.dead {
            erase(add);
        }
        erase(self.init);
    }
}

/// Takes the accumulation that `store` ends apart: the load of the old
/// value is replaced by the identity of its reduction (-0.0 for a float
/// sum, -inf for a maximum) in the chain, so that the stored value is the
/// terms alone.
pub fn split_accumulation<'c>(
    context: &'c Context,
    store: OperationRef<'c, 'c>,
    pass: &str,
) -> Result<Split<'c>, PassFailed> {
    let location = store.location();
    let name = op_name(&store);
    let load_name = match name.as_str() {
        "memref.store" => "memref.load",
        "vector.store" => "vector.load",
        _ => return Err(emit_error(location, format!("{pass}: '{name}' is not an accumulation it can rewrite"))),
    };
    let operands: Vec<Value<'c, 'c>> = store.operands().map(detach).collect();
    let (sum, place) = (operands[0], &operands[1..]);
    let is_init =
        |op: &OperationRef<'_, '_>| op_name(op) == load_name && op.operands().map(detach).collect::<Vec<_>>() == place;
    let mut chain = Chain::default();
    let init = find_init(sum, &is_init)
        .filter(|init| {
            // The element stored back as loaded adds no term; rewriting it
            // would leave the store on the erased load.
            sum != result(*init) && chain.adds_once(sum, result(*init)) && chain.closed(store)
        })
        .ok_or_else(|| {
            emit_error(
                location,
                format!("{pass}: the stored value is not the element's old value plus other terms (or their maximum or minimum)"),
            )
        })?;
    let reduction = chain
        .reduction
        .ok_or_else(|| emit_error(location, format!("{pass}: internal: a chain without a reduction")))?;
    let element_type = scalar_type(sum.r#type());
    // `init + v` directly (nothing promoted) is just `v`.
    let direct = crate::ir_query::op_result(sum).ok().map(|r| unsafe { OperationRef::from_raw(r.owner().to_raw()) });
    let direct = match direct {
        Some(add) if Reduction::of(&add) == Some(reduction) && use_count(sum) == 1 => {
            match (add.operand(0).map(detach), add.operand(1).map(detach)) {
                (Ok(a), Ok(b)) if a == result(init) && b != result(init) => Some((add, b)),
                (Ok(a), Ok(b)) if b == result(init) && a != result(init) => Some((add, a)),
                _ => None,
            }
        }
        _ => None,
    };
    let (terms, dead) = match direct {
        Some((add, addend)) => (addend, Some(add)),
        None => {
            let zero = reduction.identity(context, sum.r#type()).ok_or_else(|| {
                emit_error(location, format!("{pass}: no identity of the {} for {}", reduction.noun(), sum.r#type()))
            })?;
            let builder = Builder::before(context, init)
                .ok_or_else(|| emit_error(location, format!("{pass}: op is not in a block")))?
                .at(location);
            replace_uses(result(init), builder.value(arith::constant(context, zero, location)));
            (sum, None)
        }
    };
    Ok(Split { terms, reduction, init, place: place.to_vec(), element_type, dead })
}

/// The length of a 1-D vector type (1 for a 0-D one); `None` for scalars.
pub fn vector_lanes(r#type: Type<'_>) -> Option<i64> {
    let raw = r#type.to_raw();
    unsafe {
        mlir_sys::mlirTypeIsAVector(raw).then(|| match mlir_sys::mlirShapedTypeGetRank(raw) {
            0 => 1,
            _ => mlir_sys::mlirShapedTypeGetDimSize(raw, 0),
        })
    }
}

/// A type of `like`'s shape (scalar, or a vector of its shape) whose
/// elements are `element`.
pub fn shaped_like<'c>(like: Type<'_>, element: Type<'c>) -> Type<'c> {
    match vector_shape(like) {
        Some(shape) => Type::vector(&shape.iter().map(|&n| n as u64).collect::<Vec<_>>(), element),
        None => element,
    }
}

/// A vector type's shape; `None` for scalars.
pub fn vector_shape(r#type: Type<'_>) -> Option<Vec<i64>> {
    let raw = r#type.to_raw();
    unsafe {
        mlir_sys::mlirTypeIsAVector(raw).then(|| {
            (0..mlir_sys::mlirShapedTypeGetRank(raw))
                .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
                .collect()
        })
    }
}

/// The scalar type of a vector type's elements, or the scalar type itself.
pub fn scalar_type(r#type: Type<'_>) -> Type<'_> {
    match unsafe { mlir_sys::mlirTypeIsAVector(r#type.to_raw()) } {
        true => unsafe { Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(r#type.to_raw())) },
        false => r#type,
    }
}

fn result<'c>(op: OperationRef<'c, 'c>) -> Value<'c, 'c> {
    detach(op.result(0).expect("a load has a result").into())
}

/// The load a sum of terms starts from: through additions (combining ops
/// of any reduction), loop results (to the loop's initial value) and
/// conditional results.
fn find_init<'c>(
    value: Value<'c, 'c>,
    is_init: &dyn Fn(&OperationRef<'_, '_>) -> bool,
) -> Option<OperationRef<'c, 'c>> {
    let defined = crate::ir_query::op_result(value).ok()?;
    let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(defined.owner().to_raw()) };
    match op_name(&owner).as_str() {
        _ if is_init(&owner) => Some(owner),
        _ if Reduction::of(&owner).is_some() => (0..2).find_map(|n| find_init(detach(owner.operand(n).ok()?), is_init)),
        "scf.for" => find_init(detach(owner.operand(3 + defined.result_number()).ok()?), is_init),
        "scf.if" => {
            let yielded = yielded(owner, 0, defined.result_number())?;
            find_init(yielded, is_init)
        }
        _ => None,
    }
}

/// The `index`-th value that region `region` of `op` yields.
fn yielded<'c>(op: OperationRef<'c, 'c>, region: usize, index: usize) -> Option<Value<'c, 'c>> {
    let terminator = op.region(region).ok()?.first_block()?.terminator()?;
    terminator.operand(index).ok().map(detach)
}

/// The values and ops of an accumulation chain from the old value to the
/// stored sum, and the one reduction its combining ops share.
#[derive(Default)]
struct Chain<'c> {
    values: Vec<Value<'c, 'c>>,
    ops: Vec<OperationRef<'c, 'c>>,
    reduction: Option<Reduction>,
}

impl<'c> Chain<'c> {
    /// Whether `value` is `base` plus terms that do not depend on it, once:
    /// through additions (one side), loops that only add to a carried
    /// value, and conditionals whose every branch does. "Add" is any one
    /// reduction, the same throughout: `max(old + a, b)` is no reduction.
    fn adds_once(&mut self, value: Value<'c, 'c>, base: Value<'c, 'c>) -> bool {
        self.values.push(value);
        if value == base {
            return true;
        }
        let Ok(defined) = crate::ir_query::op_result(value) else { return false };
        let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(defined.owner().to_raw()) };
        self.ops.push(owner);
        let number = defined.result_number();
        if let Some(reduction) = Reduction::of(&owner) {
            if *self.reduction.get_or_insert(reduction) != reduction {
                return false;
            }
        }
        match op_name(&owner).as_str() {
            _ if Reduction::of(&owner).is_some() => {
                let (Ok(a), Ok(b)) = (owner.operand(0), owner.operand(1)) else { return false };
                let (a, b) = (detach(a), detach(b));
                match (depends_on(a, base), depends_on(b, base)) {
                    (true, false) => self.adds_once(a, base),
                    (false, true) => self.adds_once(b, base),
                    _ => false,
                }
            }
            "scf.for" => {
                let (Ok(init), Some(body)) =
                    (owner.operand(3 + number), owner.region(0).ok().and_then(|r| r.first_block()))
                else {
                    return false;
                };
                let (Ok(carried), Some(next)) = (body.argument(1 + number), yielded(owner, 0, number)) else {
                    return false;
                };
                let carried: Value<'c, 'c> = detach(BlockArgument::from(carried).into());
                self.ops.extend(body.terminator().map(|t| unsafe { OperationRef::from_raw(t.to_raw()) }));
                self.adds_once(detach(init), base) && self.adds_once(next, carried)
            }
            "scf.if" if owner.region_count() == 2 => (0..2).all(|region| {
                let Some(terminator) =
                    owner.region(region).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator())
                else {
                    return false;
                };
                self.ops.push(unsafe { OperationRef::from_raw(terminator.to_raw()) });
                yielded(owner, region, number).is_some_and(|v| self.adds_once(v, base))
            }),
            _ => false,
        }
    }

    /// Whether the chain's values are used only by the chain and `end`:
    /// then starting it from zero changes nothing but the stored sum.
    fn closed(&self, end: OperationRef<'c, 'c>) -> bool {
        self.values.iter().all(|&value| users(value).into_iter().all(|user| user == end || self.ops.contains(&user)))
    }
}
