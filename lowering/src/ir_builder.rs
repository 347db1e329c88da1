//! Building IR inside passes: an insertion point (before an anchor op) and
//! the handful of index computations every lowering needs.

use crate::axis::detach;
use melior::ir::operation::OperationMutLike;
use melior::{
    dialect::{arith, scf},
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        r#type::IntegerType,
        r#type::TypeLike,
        Block, BlockRef, Location, Operation, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};

/// Inserts ops before `anchor` in `block`, or at the end of `block`.
#[derive(Clone, Copy)]
pub struct Builder<'c> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: BlockRef<'c, 'c>,
    anchor: Option<OperationRef<'c, 'c>>,
}

impl<'c> Builder<'c> {
    /// Inserts before `anchor`, which must be in a block.
    pub fn before(context: &'c Context, anchor: OperationRef<'_, '_>) -> Option<Self> {
        let anchor: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(anchor.to_raw()) };
        let block = anchor.block()?;
        Some(Self {
            context,
            location: anchor.location(),
            block: unsafe { BlockRef::from_raw(block.to_raw()) },
            anchor: Some(anchor),
        })
    }

    /// Appends to the end of `block`.
    pub fn at_end(context: &'c Context, location: Location<'c>, block: &Block<'c>) -> Self {
        Self { context, location, block: unsafe { BlockRef::from_raw(block.to_raw()) }, anchor: None }
    }

    pub fn at(self, location: Location<'c>) -> Self {
        Self { location, ..self }
    }

    /// Inserts `op` and returns it.
    pub fn insert(&self, op: impl Into<Operation<'c>>) -> OperationRef<'c, 'c> {
        let op = match self.anchor {
            Some(anchor) => self.block.insert_operation_before(anchor, op.into()),
            None => self.block.append_operation(op.into()),
        };
        unsafe { OperationRef::from_raw(op.to_raw()) }
    }

    /// Moves an op that is already in the IR to the insertion point.
    pub fn insert_existing(&self, op: OperationRef<'c, 'c>) -> OperationRef<'c, 'c> {
        let mut moving = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        match self.anchor {
            Some(anchor) => moving.move_before(anchor),
            None => {
                use melior::ir::operation::OperationMutLike;
                moving.remove_from_parent();
                self.block.append_operation(unsafe { Operation::from_raw(op.to_raw()) });
            }
        }
        op
    }

    /// Inserts a copy of `op` (regions included) and returns it.
    pub fn insert_clone(&self, op: OperationRef<'_, '_>) -> OperationRef<'c, 'c> {
        self.insert(unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) })
    }

    /// Inserts a one-result op and returns its result.
    pub fn value(&self, op: impl Into<Operation<'c>>) -> Value<'c, 'c> {
        let op = self.insert(op);
        // Callers only pass ops that have one result by definition.
        detach(op.result(0).expect("op has one result").into())
    }

    /// The op `op` is (its name and attributes) on `operands`, with one
    /// result of `r#type`; `None` where MLIR refuses to build it.
    pub fn rebuild(
        &self,
        op: OperationRef<'c, '_>,
        operands: &[Value<'c, 'c>],
        r#type: Type<'c>,
    ) -> Option<Value<'c, 'c>> {
        let name = op.name();
        let name = name.as_string_ref().as_str().ok()?;
        let attributes: Vec<_> = op.attributes().collect();
        melior::ir::operation::OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[r#type])
            .add_attributes(&attributes)
            .build()
            .ok()
            .map(|built| self.value(built))
    }

    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub fn index(&self, value: i64) -> Value<'c, 'c> {
        self.value(arith::constant(self.context, IntegerAttribute::new(self.index_type(), value).into(), self.location))
    }

    pub fn add(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::addi(lhs, rhs, self.location))
    }

    pub fn sub(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::subi(lhs, rhs, self.location))
    }

    /// How many positions `lower..upper` has: none where `upper` is not
    /// above `lower`, as a loop over it runs, instead of the wrapped-around
    /// unsigned difference that a split or fused trip count would divide.
    pub fn trip(&self, lower: Value<'c, '_>, upper: Value<'c, '_>) -> Value<'c, 'c> {
        // A count this made already (a padded grid loop's span from 0).
        let counted = crate::ir_query::op_result(upper).is_ok_and(|result| {
            let owner = result.owner();
            owner.name().as_string_ref().as_str() == Ok("arith.maxsi")
                && owner.operand(1).ok().and_then(crate::ir_query::constant_index) == Some(0)
        });
        if counted && crate::ir_query::constant_index(lower) == Some(0) {
            return crate::axis::detach(upper);
        }
        self.value(arith::maxsi(self.sub(upper, lower), self.index(0), self.location))
    }

    pub fn mul(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::muli(lhs, rhs, self.location))
    }

    pub fn div(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::divui(lhs, rhs, self.location))
    }

    pub fn rem(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::remui(lhs, rhs, self.location))
    }

    pub fn cmp(&self, predicate: arith::CmpiPredicate, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::cmpi(self.context, predicate, lhs, rhs, self.location))
    }

    pub fn and(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::andi(lhs, rhs, self.location))
    }

    pub fn or(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::ori(lhs, rhs, self.location))
    }

    pub fn select(&self, condition: Value<'c, '_>, yes: Value<'c, '_>, no: Value<'c, '_>) -> Value<'c, 'c> {
        self.value(arith::select(condition, yes, no, self.location))
    }

    /// An `scf.if` on `condition` with an empty `then` region and no
    /// `else`: the `if` and the `scf.yield` ending its `then` block, before
    /// which the guarded ops go.
    pub fn guard(&self, condition: Value<'c, '_>) -> (OperationRef<'c, 'c>, OperationRef<'c, 'c>) {
        let then = Block::new(&[]);
        let end = then.append_operation(scf::r#yield(&[], self.location));
        let end = unsafe { OperationRef::from_raw(end.to_raw()) };
        let region = Region::new();
        region.append_block(then);
        (self.insert(scf::r#if(condition, &[], region, Region::new(), self.location)), end)
    }

    /// An index-typed copy of an integer (indptr/indices element) value.
    pub fn to_index(&self, value: Value<'c, '_>) -> Value<'c, 'c> {
        if value.r#type().is_index() {
            return detach(value);
        }
        self.value(arith::index_cast(value, self.index_type(), self.location))
    }

    /// Converts an index to the integer type `to`.
    pub fn from_index(&self, value: Value<'c, '_>, to: Type<'c>) -> Value<'c, 'c> {
        if to.is_index() {
            return detach(value);
        }
        self.value(arith::index_cast(value, to, self.location))
    }

    pub fn bool_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 1).into()
    }
}

/// A region with one block taking `arguments`, ending in `terminator`;
/// returns the region and a builder that inserts before the terminator.
pub fn region_with_block<'c>(
    context: &'c Context,
    location: Location<'c>,
    arguments: &[Type<'c>],
    terminator: Operation<'c>,
) -> (Region<'c>, Builder<'c>) {
    let block = Block::new(&arguments.iter().map(|&t| (t, location)).collect::<Vec<_>>());
    let end = block.append_operation(terminator);
    let anchor: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(end.to_raw()) };
    let builder =
        Builder { context, location, block: unsafe { BlockRef::from_raw(block.to_raw()) }, anchor: Some(anchor) };
    let region = Region::new();
    region.append_block(block);
    (region, builder)
}

/// `scf.if` whose branches are filled by `then` and `otherwise`, each
/// returning the values its branch yields.
pub fn if_else<'c>(
    builder: &Builder<'c>,
    condition: Value<'c, '_>,
    result_types: &[Type<'c>],
    then: impl FnOnce(&Builder<'c>) -> Vec<Value<'c, 'c>>,
    otherwise: impl FnOnce(&Builder<'c>) -> Vec<Value<'c, 'c>>,
) -> Vec<Value<'c, 'c>> {
    let location = builder.location;
    let then_block = Block::new(&[]);
    let values = then(&Builder::at_end(builder.context, location, &then_block));
    then_block.append_operation(scf::r#yield(&values, location));
    let else_block = Block::new(&[]);
    let values = otherwise(&Builder::at_end(builder.context, location, &else_block));
    else_block.append_operation(scf::r#yield(&values, location));
    let region = |block| {
        let region = Region::new();
        region.append_block(block);
        region
    };
    let op = builder.insert(scf::r#if(condition, result_types, region(then_block), region(else_block), location));
    (0..result_types.len()).map(|index| detach(op.result(index).expect("declared result").into())).collect()
}

/// Binary search: the first `p` in `[lo, hi)` for which `go_right(p)` is
/// false, or `hi` when there is none. `go_right` must be true on a prefix.
pub fn lower_bound<'c>(
    builder: &Builder<'c>,
    lo: Value<'c, 'c>,
    hi: Value<'c, 'c>,
    go_right: impl FnOnce(&Builder<'c>, Value<'c, 'c>) -> Value<'c, 'c>,
) -> Value<'c, 'c> {
    let (context, location) = (builder.context, builder.location);
    let index = builder.index_type();
    let bounds = [(index, location), (index, location)];
    let argument =
        |block: &Block<'c>, n: usize| -> Value<'c, 'c> { detach(block.argument(n).expect("declared argument").into()) };

    let before = Block::new(&bounds);
    let (low, high) = (argument(&before, 0), argument(&before, 1));
    let inner = Builder::at_end(context, location, &before);
    let more = inner.cmp(arith::CmpiPredicate::Ult, low, high);
    before.append_operation(scf::condition(more, &[low, high], location));

    let after = Block::new(&bounds);
    let (low, high) = (argument(&after, 0), argument(&after, 1));
    let inner = Builder::at_end(context, location, &after);
    let two = inner.index(2);
    let half = inner.div(inner.sub(high, low), two);
    let mid = inner.add(low, half);
    let right = go_right(&inner, mid);
    let one = inner.index(1);
    let next_low = inner.select(right, inner.add(mid, one), low);
    let next_high = inner.select(right, high, mid);
    after.append_operation(scf::r#yield(&[next_low, next_high], location));

    let region = |block| {
        let region = Region::new();
        region.append_block(block);
        region
    };
    let op = builder.insert(scf::r#while(&[lo, hi], &[index, index], region(before), region(after), location));
    detach(op.result(0).expect("declared result").into())
}

/// Moves the ops that follow `first` (inclusive) in its block, all but the
/// block's terminator, to just before `anchor`.
pub fn move_until_terminator<'c>(first: Option<OperationRef<'c, 'c>>, anchor: OperationRef<'c, 'c>) {
    let mut next = first;
    while let Some(op) = next {
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        if next.is_none() {
            break; // the terminator stays
        }
        unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) }.move_before(anchor);
    }
}

/// Replaces `if_op` by the ops of its region `index` (none if empty).
pub fn inline_region<'c>(if_op: OperationRef<'c, 'c>, index: usize) {
    if let Some(block) = if_op.region(index).ok().and_then(|r| r.first_block()) {
        move_until_terminator(block.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) }), if_op);
    }
    erase(if_op);
}

/// Removes `op` from its block and destroys it.
pub fn erase(op: OperationRef<'_, '_>) {
    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    op.remove_from_parent();
    drop(unsafe { Operation::from_raw(op.to_raw()) });
}

/// Makes every use of `old` a use of `new`.
pub fn replace_uses(old: Value<'_, '_>, new: Value<'_, '_>) {
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) }
}

/// Replaces the one-result op `op` by `new`: its result's uses become
/// uses of `new`, and `op` is erased.
pub fn replace_op(op: OperationRef<'_, '_>, new: Value<'_, '_>) {
    if let Ok(result) = op.result(0) {
        replace_uses(result.into(), new);
    }
    erase(op);
}

/// Makes the uses of `old` by the ops `wanted` accepts uses of `new`.
pub fn replace_uses_where(
    old: Value<'_, '_>,
    new: Value<'_, '_>,
    mut wanted: impl FnMut(OperationRef<'_, '_>) -> bool,
) {
    let mut uses = Vec::new();
    let mut operand = unsafe { mlir_sys::mlirValueGetFirstUse(old.to_raw()) };
    while !unsafe { mlir_sys::mlirOpOperandIsNull(operand) } {
        let owner = unsafe { mlir_sys::mlirOpOperandGetOwner(operand) };
        if wanted(unsafe { OperationRef::from_raw(owner) }) {
            uses.push((owner, unsafe { mlir_sys::mlirOpOperandGetOperandNumber(operand) }));
        }
        operand = unsafe { mlir_sys::mlirOpOperandGetNextUse(operand) };
    }
    // Changing an operand unlinks it from the list walked above.
    for (owner, number) in uses {
        unsafe { mlir_sys::mlirOperationSetOperand(owner, number as isize, new.to_raw()) }
    }
}

pub fn is_float(r#type: Type<'_>) -> bool {
    r#type.is_f16() || r#type.is_bf16() || r#type.is_f32() || r#type.is_f64()
}

/// Zero of an integer, index or float type; `None` for other types.
pub fn zero_attribute<'c>(context: &'c Context, r#type: Type<'c>) -> Option<melior::ir::Attribute<'c>> {
    if r#type.is_integer() || r#type.is_index() {
        Some(IntegerAttribute::new(r#type, 0).into())
    } else if unsafe { mlir_sys::mlirTypeIsAFloat(r#type.to_raw()) } {
        // Every float type, f8 formats too, has an exact zero.
        Some(melior::ir::attribute::FloatAttribute::new(context, r#type, 0.0).into())
    } else {
        None
    }
}

/// The identity of addition for a scalar or vector of integers or floats:
/// 0, or -0.0 (`-0.0 + x` is `x` for every `x`, `0.0 + -0.0` is not); a
/// splat for a vector. `None` for other types.
pub fn additive_identity<'c>(context: &'c Context, r#type: Type<'c>) -> Option<melior::ir::Attribute<'c>> {
    use crate::accumulation_chain::{scalar_type, vector_lanes};
    let element = scalar_type(r#type);
    let zero: melior::ir::Attribute<'c> = if is_float(element) {
        melior::ir::attribute::FloatAttribute::new(context, element, -0.0).into()
    } else if element.is_integer() || element.is_index() {
        IntegerAttribute::new(element, 0).into()
    } else {
        return None;
    };
    match vector_lanes(r#type) {
        Some(_) => melior::ir::attribute::DenseElementsAttribute::new(r#type, &[zero]).ok().map(Into::into),
        None => Some(zero),
    }
}

/// Appends parameters of `types` to `function` (a `func.func` with a body)
/// and returns them; `None` if it has no body or type.
pub fn append_params<'c>(
    context: &'c Context,
    function: OperationRef<'c, 'c>,
    types: &[Type<'c>],
) -> Option<Vec<Value<'c, 'c>>> {
    use melior::ir::{
        attribute::{ArrayAttribute, DictionaryAttribute, TypeAttribute},
        r#type::FunctionType,
    };
    let location = function.location();
    let entry = function.region(0).ok().and_then(|r| r.first_block())?;
    let function_type = function
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())?;
    let mut inputs: Vec<Type> = (0..function_type.input_count()).filter_map(|i| function_type.input(i).ok()).collect();
    let results: Vec<Type> = (0..function_type.result_count()).filter_map(|i| function_type.result(i).ok()).collect();
    let params = types.iter().map(|&t| detach(entry.add_argument(t, location))).collect();
    inputs.extend_from_slice(types);
    let mut function = unsafe { melior::ir::operation::OperationRefMut::from_raw(function.to_raw()) };
    function.set_inherent_attribute(
        "function_type",
        TypeAttribute::new(FunctionType::new(context, &inputs, &results).into()).into(),
    );
    // The verifier wants one dictionary per parameter where there are any.
    if let Some(attrs) = function.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) {
        let mut all: Vec<melior::ir::Attribute> = (0..attrs.len()).filter_map(|i| attrs.element(i).ok()).collect();
        all.extend(types.iter().map(|_| -> melior::ir::Attribute { DictionaryAttribute::new(context, &[]).into() }));
        function.set_inherent_attribute("arg_attrs", ArrayAttribute::new(context, &all).into());
    }
    Some(params)
}

/// Moves the ops that compute `value` inside `op` to just before it,
/// operands first; `ir_query::computable_before` must hold for `value`
/// (arithmetic without side effects, which may run earlier).
pub fn hoist_before(value: Value<'_, '_>, op: OperationRef<'_, '_>) {
    if crate::ir_query::defined_outside(value, op) {
        return;
    }
    let Ok(result) = crate::ir_query::op_result(value) else { return };
    let owner = result.owner();
    for operand in owner.operands() {
        hoist_before(detach(operand), op);
    }
    unsafe { melior::ir::operation::OperationRefMut::from_raw(owner.to_raw()) }.move_before(op);
}
