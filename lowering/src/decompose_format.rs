//! `decompose-format`: format decomposition, the stage I schedule of
//! SparseTIR section 3.2.1, driven by `sparse_iter.format_rewrite` rules.
//!
//! For every rule `source -> target` it emits a copy iteration (marked
//! `preprocess`) over the target's axes that fills each target slot from
//! the source at the inverse-mapped coordinate, or with zero where that
//! coordinate is out of the source's range (padding). Every iteration that
//! reads the source (for a built-in rule, the named iteration alone) is
//! replaced by one iteration per rule: the source's
//! axes give way to the target's (a target axis is a reduction when its
//! map result depends on a reduction axis), the body sees the source
//! coordinates through the inverse map, reads the target instead of the
//! source, and runs only where those coordinates are in range. An `init`
//! region becomes its own iteration over the original spatial axes, so
//! each output point is initialized once before any rule accumulates.

use crate::{
    axis::{detach, key, Axis},
    buffer::BufferDef,
    format_rules::{emit_rules, BuiltinRule},
    ir_builder::{erase, if_else, move_until_terminator, replace_uses, zero_attribute, Builder},
    ir_query::{accumulation, encloses, op_name},
    pass_registry::{emit_error, options_location, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
    sparse_iter_ops::{body_ops, is_iteration, IterationInfo},
};
use melior::{
    dialect::arith,
    ir::{
        attribute::{Attribute, AttributeLike, DenseI64ArrayAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        Block, Location, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use mlir_sys::{
    mlirAffineBinaryOpExprGetLHS, mlirAffineBinaryOpExprGetRHS, mlirAffineConstantExprGetValue,
    mlirAffineDimExprGetPosition, mlirAffineExprIsAAdd, mlirAffineExprIsACeilDiv, mlirAffineExprIsAConstant,
    mlirAffineExprIsADim, mlirAffineExprIsAFloorDiv, mlirAffineExprIsAMod, mlirAffineExprIsAMul,
    mlirAffineMapAttrGetValue, mlirAffineMapGetNumResults, mlirAffineMapGetResult, mlirBlockEraseArgument,
    mlirRegionTakeBody, MlirAffineExpr, MlirAffineMap,
};
use sptir_dialects::sparse_iter;

pub const PASS: PassDef = PassDef {
    name: "DecomposeFormat",
    argument: "decompose-format",
    description: "Apply sparse_iter.format_rewrite rules (or a built-in rule=bsr:B|ell:K|hyb:C:W0,W1,..): copy iterations plus one compute iteration per rule",
    options: &[
        PassOption {
            name: "rule",
            help: "built-in rule for the CSR buffer of `iteration`: bsr:B, ell:K or hyb:C:W0,W1,... (appends the new format's arrays as function parameters)",
            required: false, kind: OptionKind::Text,
        },
        PassOption { name: "iteration", help: "label of the iteration whose CSR buffer a built-in rule decomposes", required: false, kind: OptionKind::Text},
    ],
    dependent_dialects: "arith,scf",
    run,
};

/// One `format_rewrite` rule.
struct Rule<'c> {
    op: OperationRef<'c, 'c>,
    source: Value<'c, 'c>,
    target: Value<'c, 'c>,
    map: MlirAffineMap,
    inverse: MlirAffineMap,
}

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // A built-in rule is for the named iteration alone; written rules, for
    // every iteration that reads their source.
    let mut named: Option<(OperationRef, Vec<OperationRef>)> = None;
    if let Some(rule) = options.get("rule") {
        let rule = BuiltinRule::parse(rule)
            .map_err(|message| emit_error(options_location(root), format!("decompose-format: {message}")))?;
        let label = options.get("iteration").ok_or_else(|| {
            emit_error(options_location(root), "decompose-format: a built-in rule needs option 'iteration'")
        })?;
        let written: Vec<OperationRef> = find_rules(root).iter().map(|rule| rule.op).collect();
        named = Some((builtin(context, root, label, &rule)?, written));
    } else if options.get("iteration").is_some() {
        return Err(emit_error(
            options_location(root),
            "decompose-format: option 'iteration' names the iteration of a built-in rule; give the rule with 'rule' (written format_rewrite rules apply to every iteration that reads their source)",
        ));
    }
    let rules = find_rules(root);
    let applies = |rule: &Rule, iteration: OperationRef| match &named {
        Some((only, written)) if !written.contains(&rule.op) => *only == iteration,
        _ => true,
    };
    // The outermost iterations that read a decomposed buffer after its
    // rule (in the rule's block, or nested in an op after it there),
    // except one that holds the rule itself, or one that does not walk the
    // buffer's axes but holds an iteration that reads it: the rule is for
    // an iteration nested in them. One before the rule or outside its
    // block keeps reading the source as it is.
    let mut iterations: Vec<(OperationRef, Vec<&Rule>)> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if !is_iteration(&op) {
            return WalkResult::Advance;
        }
        let reads: Vec<&Rule> = rules.iter().filter(|rule| loads_from(op, rule.source)).collect();
        if reads.iter().any(|rule| encloses(op, rule.op)) {
            return WalkResult::Advance;
        }
        let reads: Vec<&Rule> = reads.into_iter().filter(|rule| applies(rule, op) && follows(rule.op, op)).collect();
        let Some(first) = reads.first() else { return WalkResult::Skip };
        if !walks_axes(op, first.source)
            && nested_iterations(op).into_iter().any(|inner| loads_from(inner, first.source))
        {
            return WalkResult::Advance;
        }
        iterations.push((op, reads));
        WalkResult::Skip
    });
    // A rule's target is filled from its source: a target that another
    // rule decomposes in turn would be read before it is filled.
    if let Some(rule) = rules.iter().find(|rule| rules.iter().any(|other| key(other.target) == key(rule.source))) {
        return Err(emit_error(
            rule.op.location(),
            "decompose-format: this format_rewrite decomposes a buffer that another format_rewrite fills; decompose the original buffer into both formats instead",
        ));
    }
    // A rule changes how iterations read its source; one that none reads
    // would vanish without effect, most likely written for another buffer.
    let used: Vec<usize> =
        iterations.iter().flat_map(|(_, reads)| reads.iter().map(|rule| rule.op.to_raw().ptr as usize)).collect();
    if let Some(rule) = rules.iter().find(|rule| !used.contains(&(rule.op.to_raw().ptr as usize))) {
        return Err(emit_error(
            rule.op.location(),
            "decompose-format: no iteration reads the buffer this format_rewrite decomposes (after it, in the same block), so it would do nothing",
        ));
    }
    for (iteration, reads) in iterations {
        let first = reads[0];
        // Rules of one source together hold each of its non-zeros once
        // (the written ones, or a built-in rule's): an iteration between
        // them would read only those before it, and one after rules in
        // two blocks (outside and inside a loop) would read it twice.
        let written = |rule: &Rule| named.as_ref().is_none_or(|(_, written)| written.contains(&rule.op));
        if let Some(other) = reads.iter().find(|rule| rule.op.block() != first.op.block()) {
            return Err(emit_error(
                iteration.location(),
                format!("decompose-format: this iteration comes after format_rewrite rules of the buffer it reads in two blocks ({}), which would each hold its non-zeros; put the rules of one buffer in one block", crate::ir_query::describe_pair((first.op, other.op))),
            ));
        }
        if let Some(later) = rules.iter().find(|rule| {
            key(rule.source) == key(first.source)
                && written(rule) == written(first)
                && applies(rule, iteration)
                && after_in_block(rule.op, iteration) == Some(false)
        }) {
            return Err(emit_error(
                iteration.location(),
                format!("decompose-format: this iteration comes after some format_rewrite rules of the buffer it reads and before another ({}), so it would read only part of it; put the rules together before the iterations they rewrite", crate::ir_query::describe_pair((later.op, later.op))),
            ));
        }
        // Each set of rules holds every non-zero of the source once: a
        // built-in set and a written one together would hold it twice.
        if let Some((_, written)) = &named {
            let built = reads.iter().any(|rule| !written.contains(&rule.op));
            if let Some(other) = reads.iter().find(|rule| written.contains(&rule.op)).filter(|_| built) {
                return Err(emit_error(
                    iteration.location(),
                    format!("decompose-format: the buffer that the built-in rule decomposes here already has a written format_rewrite ({}); both formats would hold each of its non-zeros, and the iteration would count it twice", crate::ir_query::describe_pair((other.op, other.op))),
                ));
            }
        }
        let sources: Vec<usize> = reads.iter().map(|rule| key(rule.source)).collect();
        if sources.iter().any(|&source| source != sources[0]) {
            return Err(emit_error(
                iteration.location(),
                "decompose-format: an iteration may read only one decomposed buffer",
            ));
        }
        for rule in &reads {
            if stores_to(iteration, rule.source) {
                return Err(emit_error(
                    iteration.location(),
                    "decompose-format: the iteration writes the buffer that a format_rewrite decomposes; only a buffer it reads can be stored in another format",
                ));
            }
        }
        if let Some(store) = reads
            .iter()
            .find(|rule| !rule.op.has_attribute(EXACT))
            .and_then(|rule| effect_beyond_source(iteration, rule.source))
        {
            return Err(emit_error(
                store.location(),
                "decompose-format: the new format also holds zeros where the source stores nothing (a block's other slots), and the iteration would run its body there: this store does not add a product with the source's value to its own element; only rules marked `sptir.exact` (every slot in range holds a stored element, as the built-in ell and hyb rules) take other bodies",
            ));
        }
        let source = BufferDef::read(first.source)
            .ok_or_else(|| emit_error(iteration.location(), "decomposed buffer is not defined by a buffer op"))?;
        if reads.iter().any(|rule| !rule.op.has_attribute(EXACT)) {
            // The copy reads the source at every slot in range, and an
            // unstored one reads the default: the body would add its
            // product where the source stores nothing.
            // -0.0 is a zero too: a product with it vanishes as well.
            let zero = |d: Attribute| {
                zero_attribute(context, source.element) == Some(d)
                    || melior::ir::attribute::FloatAttribute::try_from(d).is_ok_and(|f| f.value() == 0.0)
            };
            if let Some(default) = source.default_value.filter(|&d| !zero(d)) {
                return Err(emit_error(
                    source.op.location(),
                    format!("decompose-format: the decomposed buffer's default_value {default} would fill the new format's slots that the source does not store (a block's other slots), where the body also runs; only a zero or absent default_value, or a rule marked `sptir.exact`, keeps the result"),
                ));
            }
        }
        // A copy right before each iteration it rewrites: whatever runs
        // between the rule and the iteration (a loop around it, a store
        // to the source's memory through another buffer) may change the
        // source, and the copy must see it.
        let builder = Builder::before(context, iteration)
            .ok_or_else(|| emit_error(iteration.location(), "iteration is not in a block"))?;
        for rule in &reads {
            copy_iteration(context, &builder, rule, &source, &fresh_copy_label(root))?;
        }
        rewrite(context, iteration, &reads, &source)?;
    }
    for rule in rules {
        erase(rule.op);
    }
    Ok(())
}

/// The `format_rewrite` rules under `root`.
fn find_rules<'c>(root: OperationRef<'c, '_>) -> Vec<Rule<'c>> {
    let mut rules = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if op.name().as_string_ref().as_str() == Ok("sparse_iter.format_rewrite") {
            let operand = |n| op.operand(n).map(detach);
            let map = |name| op.attribute(name).map(|a| unsafe { mlirAffineMapAttrGetValue(a.to_raw()) });
            if let (Ok(source), Ok(target), Ok(map), Ok(inverse)) = (operand(0), operand(1), map("map"), map("inverse"))
            {
                rules.push(Rule { op, source, target, map, inverse });
            }
        }
        WalkResult::Advance
    });
    rules
}

/// Writes the rules of a built-in decomposition of the one sparse buffer
/// that the iteration labelled `label` reads, and returns that iteration.
fn builtin<'c>(
    context: &'c Context,
    root: OperationRef<'_, '_>,
    label: &str,
    rule: &BuiltinRule,
) -> Result<OperationRef<'c, 'c>, PassFailed> {
    let iterations = crate::sparse_iter_ops::named_iterations("decompose-format", root, label)?;
    let [iteration] = iterations.as_slice() else {
        return Err(emit_error(
            options_location(root),
            format!("decompose-format: expected one sparse iteration labelled \"{label}\", found {}", iterations.len()),
        ));
    };
    let iteration: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(iteration.to_raw()) };
    // The input: a sparse buffer the iteration reads and never writes.
    let (mut read, mut written): (Vec<Value<'c, 'c>>, Vec<Value<'c, 'c>>) = (Vec::new(), Vec::new());
    iteration.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let (list, operand) = match name.as_string_ref().as_str() {
            Ok("sparse_iter.load") => (&mut read, 0),
            Ok("sparse_iter.store") => (&mut written, 1),
            _ => return WalkResult::Advance,
        };
        if let Ok(buffer) = op.operand(operand) {
            let buffer = unsafe { Value::<'c, 'c>::from_raw(buffer.to_raw()) };
            if !list.contains(&buffer) {
                list.push(buffer);
            }
        }
        WalkResult::Advance
    });
    let sparse: Vec<Value<'c, 'c>> = read
        .into_iter()
        .filter(|buffer| !written.contains(buffer))
        .filter(|&buffer| {
            BufferDef::read(buffer)
                .is_some_and(|def| def.axes.iter().any(|&a| Axis::read(a).is_some_and(|a| a.kind.is_sparse())))
        })
        .collect();
    let [buffer] = sparse.as_slice() else {
        return Err(emit_error(iteration.location(), format!("decompose-format: a built-in rule needs exactly one sparse input buffer (read, never written) in the iteration, found {}", sparse.len())));
    };
    let source = BufferDef::read(*buffer)
        .ok_or_else(|| emit_error(iteration.location(), "buffer is not defined by a buffer op"))?;
    emit_rules(context, iteration, *buffer, &source, rule)?;
    Ok(iteration)
}

/// The marker of a `format_rewrite` whose target slots in the source's
/// range all hold elements the source stores (its other slots are padding
/// out of range): the rewritten iteration runs its body on the same
/// elements as before.
pub const EXACT: &str = "sptir.exact";

/// The first store in `iteration`'s body whose effect would change were
/// the body also run where `source` holds a zero it does not store: any
/// but one that adds a product with `source`'s value to what its own
/// element held (a product alone would overwrite the element with zero).
/// A subtraction of such a product, or a fused multiply-add of its
/// factors onto the element, leaves the element as it was too.
fn effect_beyond_source<'c>(iteration: OperationRef<'c, 'c>, source: Value<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    body_ops(iteration).into_iter().find(|&op| {
        op_name(&op) == "sparse_iter.store"
            && !accumulation(op).is_some_and(|(_, term)| vanishes(term, source, 0))
            && !subtracts_or_fuses(op, source)
    })
}

/// Whether `store` writes `old - t` with `t` vanishing, or
/// `fma(a, b, old)` with `a * b` vanishing, `old` its element's value read
/// in the body and neither `t` nor `a`, `b` reading that element.
fn subtracts_or_fuses(store: OperationRef<'_, '_>, source: Value<'_, '_>) -> bool {
    let Some(value) = store.operand(0).ok().map(detach) else { return false };
    let Ok(op) = crate::ir_query::op_result(value).map(|r| r.owner()) else { return false };
    let reads_element = |v: Value<'_, '_>| crate::ir_query::reads_stored_element(store, v);
    let old = |v: Value<'_, '_>| crate::ir_query::load_of_stored_element(store, v).is_some();
    let operands: Vec<Value> = op.operands().map(detach).collect();
    match (op_name(&op).as_str(), &operands[..]) {
        ("arith.subf" | "arith.subi", &[x, t]) => old(x) && !reads_element(t) && vanishes(t, source, 0),
        ("math.fma", &[a, b, x]) => {
            old(x) && !reads_element(a) && !reads_element(b) && product_vanishes(a, b, source, 0)
        }
        _ => false,
    }
}

/// Whether `value` is zero wherever `source`'s value read in the body is:
/// that value, or a product with it whose other factor does not read it
/// otherwise (`A * (B * A / A)` is NaN there, as `A * log(A)` would be)
/// or vanishes too (`A * A`).
fn vanishes(value: Value<'_, '_>, source: Value<'_, '_>, depth: usize) -> bool {
    let Ok(op) = crate::ir_query::op_result(value).map(|r| r.owner()) else { return false };
    match (op_name(&op).as_str(), op.operand(0), op.operand(1)) {
        ("sparse_iter.load", Ok(buffer), _) => buffer == source,
        ("arith.mulf" | "arith.muli", Ok(a), Ok(b)) if depth < 64 => product_vanishes(a, b, source, depth + 1),
        _ => false,
    }
}

/// Whether `a * b` is zero wherever the source's value read is, by
/// `vanishes`' rule.
fn product_vanishes(a: Value<'_, '_>, b: Value<'_, '_>, source: Value<'_, '_>, depth: usize) -> bool {
    let reads_source = |v: Value<'_, '_>| {
        crate::ir_query::computed_through(detach(v), |op| {
            op_name(&op) == "sparse_iter.load" && op.operand(0).is_ok_and(|buffer| buffer == source)
        })
    };
    let zero = |v| vanishes(v, source, depth);
    (zero(a) && (zero(b) || !reads_source(b))) || (zero(b) && (zero(a) || !reads_source(a)))
}

/// Whether `op` comes after `rule` in the rule's block, or is nested in an
/// op that does.
fn follows(rule: OperationRef<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    after_in_block(rule, op) == Some(true)
}

/// Where `op` is, in the block of `rule`, or nested in an op of it: after
/// the rule (true) or before it (false); `None` when the rule's block
/// holds neither.
fn after_in_block(rule: OperationRef<'_, '_>, op: OperationRef<'_, '_>) -> Option<bool> {
    let block = rule.block()?;
    let mut current = Some(op);
    while let Some(candidate) = current {
        if candidate.block() == Some(block) {
            return Some(rule.is_before_in_block(candidate));
        }
        current = candidate.parent_operation();
    }
    None
}

/// Whether `iteration` walks every axis of `buffer`.
fn walks_axes(iteration: OperationRef<'_, '_>, buffer: Value<'_, '_>) -> bool {
    let walked = IterationInfo::read(iteration).axes;
    BufferDef::read(buffer).is_some_and(|def| def.axes.iter().all(|axis| walked.contains(axis)))
}

/// The iterations nested in `iteration`'s regions.
fn nested_iterations<'c>(iteration: OperationRef<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    crate::ir_query::ops_where(iteration, WalkOrder::PreOrder, |op| op != iteration && is_iteration(&op))
}

/// Whether the body of `iteration` loads `buffer` (an iteration that only
/// stores to it has nothing to read in another format).
fn loads_from(iteration: OperationRef<'_, '_>, buffer: Value<'_, '_>) -> bool {
    touches(iteration, buffer, "sparse_iter.load", 0)
}

/// Whether `iteration` stores to `buffer`.
fn stores_to(iteration: OperationRef<'_, '_>, buffer: Value<'_, '_>) -> bool {
    touches(iteration, buffer, "sparse_iter.store", 1)
}

/// Whether an op `name` under `iteration` has `buffer` as operand `index`.
fn touches(iteration: OperationRef<'_, '_>, buffer: Value<'_, '_>, name: &str, index: usize) -> bool {
    let mut found = false;
    iteration.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok(name) && op.operand(index).is_ok_and(|operand| operand == buffer) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

fn affine_results(map: MlirAffineMap) -> Vec<MlirAffineExpr> {
    let count = unsafe { mlirAffineMapGetNumResults(map) } as isize;
    (0..count).map(|index| unsafe { mlirAffineMapGetResult(map, index) }).collect()
}

/// The dims an affine expression reads.
fn dims_of(expr: MlirAffineExpr, into: &mut Vec<usize>) {
    unsafe {
        if mlirAffineExprIsADim(expr) {
            into.push(mlirAffineDimExprGetPosition(expr) as usize);
        } else if !mlirAffineExprIsAConstant(expr) {
            dims_of(mlirAffineBinaryOpExprGetLHS(expr), into);
            dims_of(mlirAffineBinaryOpExprGetRHS(expr), into);
        }
    }
}

/// Emits `expr` over `dims` as index arithmetic.
fn expand<'c>(
    builder: &Builder<'c>,
    expr: MlirAffineExpr,
    dims: &[Value<'c, 'c>],
) -> Result<Value<'c, 'c>, PassFailed> {
    let location = builder.location;
    unsafe {
        if mlirAffineExprIsADim(expr) {
            let position = mlirAffineDimExprGetPosition(expr) as usize;
            return dims
                .get(position)
                .copied()
                .ok_or_else(|| emit_error(location, "affine map dimension out of range"));
        }
        if mlirAffineExprIsAConstant(expr) {
            return Ok(builder.index(mlirAffineConstantExprGetValue(expr)));
        }
        let lhs = expand(builder, mlirAffineBinaryOpExprGetLHS(expr), dims)?;
        let rhs = expand(builder, mlirAffineBinaryOpExprGetRHS(expr), dims)?;
        if mlirAffineExprIsAAdd(expr) {
            Ok(builder.add(lhs, rhs))
        } else if mlirAffineExprIsAMul(expr) {
            Ok(builder.mul(lhs, rhs))
        } else if mlirAffineExprIsAFloorDiv(expr) {
            Ok(builder.value(arith::floordivsi(lhs, rhs, location)))
        } else if mlirAffineExprIsACeilDiv(expr) {
            Ok(builder.value(arith::ceildivsi(lhs, rhs, location)))
        } else if mlirAffineExprIsAMod(expr) {
            // Affine `mod` is never negative: x - floordiv(x, c) * c.
            let quotient = builder.value(arith::floordivsi(lhs, rhs, location));
            Ok(builder.sub(lhs, builder.mul(quotient, rhs)))
        } else {
            Err(emit_error(location, "unsupported affine expression"))
        }
    }
}

/// Source coordinates of `target` coordinates, and whether all of them lie
/// inside the source's axes.
fn source_coordinates<'c>(
    builder: &Builder<'c>,
    rule: &Rule<'c>,
    source: &BufferDef<'c>,
    target_coordinates: &[Value<'c, 'c>],
) -> Result<(Vec<Value<'c, 'c>>, Value<'c, 'c>), PassFailed> {
    let location = builder.location;
    let mut coordinates = Vec::new();
    let mut inside: Option<Value<'c, 'c>> = None;
    for (expr, &axis) in affine_results(rule.inverse).into_iter().zip(&source.axes) {
        let coordinate = expand(builder, expr, target_coordinates)?;
        let length = Axis::read(axis).ok_or_else(|| emit_error(location, "source axis is not an axis op"))?.length;
        // Unsigned: a negative coordinate is out of range too.
        let fits = builder.cmp(arith::CmpiPredicate::Ult, coordinate, length);
        inside = Some(match inside {
            Some(all) => builder.and(all, fits),
            None => fits,
        });
        coordinates.push(coordinate);
    }
    let inside = inside.ok_or_else(|| emit_error(location, "decomposed buffer has no axes"))?;
    Ok((coordinates, inside))
}

fn element_zero<'c>(builder: &Builder<'c>, element: Type<'c>) -> Result<Value<'c, 'c>, PassFailed> {
    let attribute = zero_attribute(builder.context, element)
        .ok_or_else(|| emit_error(builder.location, format!("no zero for element type {element}")))?;
    Ok(builder.value(arith::constant(builder.context, attribute, builder.location)))
}

fn load<'c>(
    builder: &Builder<'c>,
    element: Type<'c>,
    buffer: Value<'c, 'c>,
    coordinates: &[Value<'c, 'c>],
) -> Value<'c, 'c> {
    builder.value(
        sparse_iter::LoadOperation::builder(builder.context, builder.location)
            .result(element)
            .buffer(buffer)
            .coords(coordinates)
            .build(),
    )
}

/// A one-block region whose block takes `count` index arguments.
fn coordinate_block<'c>(context: &'c Context, location: Location<'c>, count: usize) -> Block<'c> {
    Block::new(&vec![(Type::index(context), location); count])
}

/// `copyN` with the first N that labels no iteration under `root`, so
/// that a schedule names one copy (two sources, or a second run).
fn fresh_copy_label(root: OperationRef<'_, '_>) -> String {
    free_label(root, (0..).map(|n| format!("copy{n}")))
}

/// The first of `candidates` that no iteration under `root` is labelled:
/// a label taken twice would make loops of one label, which schedules
/// act on together (lower-sparse-iter refuses them).
fn free_label(root: OperationRef<'_, '_>, mut candidates: impl Iterator<Item = String>) -> String {
    let taken = crate::sparse_iter_ops::iteration_labels(root);
    candidates.find(|label| !taken.contains(label)).unwrap_or_default()
}

/// `preferred` (the label schedules expect), or where an iteration has it
/// already, `preferred_1`, `preferred_2`, ...
fn label_like(root: OperationRef<'_, '_>, preferred: String) -> String {
    free_label(root, std::iter::once(preferred.clone()).chain((1..).map(|n| format!("{preferred}_{n}"))))
}

/// `target[t] = inside(inverse(t)) ? source[inverse(t)] : 0` over the
/// target's axes.
fn copy_iteration<'c>(
    context: &'c Context,
    builder: &Builder<'c>,
    rule: &Rule<'c>,
    source: &BufferDef<'c>,
    label: &str,
) -> Result<(), PassFailed> {
    // Named, so that a later pass's error about the copy (a search in an
    // unsorted source) says it is about the copy, not the user's code.
    let location = Location::name(context, &format!("{label}, the copy decompose-format made"), builder.location);
    let builder = &builder.at(location);
    let target = BufferDef::read(rule.target).ok_or_else(|| emit_error(location, "rule target is not a buffer op"))?;
    let block = coordinate_block(context, location, target.axes.len());
    let coordinates: Vec<Value<'c, 'c>> =
        (0..target.axes.len()).filter_map(|n| block.argument(n).ok().map(|a| detach(a.into()))).collect();
    let inner = Builder::at_end(context, location, &block);
    let (old, inside) = source_coordinates(&inner, rule, source, &coordinates)?;
    // A slot holds the element that `map` sends there, and only it: one
    // the inverse sends to an element that `map` sends elsewhere (a slot
    // along an axis the inverse ignores, or that it folds away) is padding.
    // Built-in rules (`sptir.exact`) send each slot in range back to itself.
    let inside = match rule.op.has_attribute(EXACT) {
        true => inside,
        false => affine_results(rule.map).into_iter().zip(&coordinates).try_fold(inside, |all, (expr, &slot)| {
            let image = expand(&inner, expr, &old)?;
            Ok::<_, PassFailed>(inner.and(all, inner.cmp(arith::CmpiPredicate::Eq, image, slot)))
        })?,
    };
    let element = source.element;
    let value = if_else(
        &inner,
        inside,
        &[element],
        |b| vec![load(b, element, rule.source, &old)],
        |b| element_zero(b, element).map(|zero| vec![zero]).unwrap_or_default(),
    );
    inner.insert(
        sparse_iter::StoreOperation::builder(context, location)
            .value(value[0])
            .buffer(rule.target)
            .coords(&coordinates)
            .build(),
    );
    block.append_operation(sparse_iter::r#yield(context, location).into());
    let body = Region::new();
    body.append_block(block);
    let op = builder.insert(
        sparse_iter::IterateOperation::builder(context, location)
            .label(StringAttribute::new(context, &label))
            .axes(&target.axes)
            .kinds(StringAttribute::new(context, &"S".repeat(target.axes.len())))
            .init(Region::new())
            .body(body)
            .build(),
    );
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_discardable_attribute("preprocess", Attribute::unit(context));
    Ok(())
}

/// A copy of `iteration` placed before it.
fn clone_before<'c>(context: &'c Context, iteration: OperationRef<'c, 'c>) -> Result<OperationRef<'c, 'c>, PassFailed> {
    let builder = Builder::before(context, iteration)
        .ok_or_else(|| emit_error(iteration.location(), "iteration is not in a block"))?;
    Ok(builder.insert_clone(iteration))
}

fn region_block<'c>(op: OperationRef<'c, 'c>, index: usize) -> Option<melior::ir::BlockRef<'c, 'c>> {
    op.region(index).ok().and_then(|r| r.first_block()).map(|b| unsafe { melior::ir::BlockRef::from_raw(b.to_raw()) })
}

/// Empties region `index` of `op`.
fn clear_region(op: OperationRef<'_, '_>, index: usize) {
    if let Ok(region) = op.region(index) {
        let scratch = Region::new();
        unsafe { mlirRegionTakeBody(scratch.to_raw(), region.to_raw()) };
    }
}

fn set_iteration<'c>(context: &'c Context, op: OperationRef<'c, 'c>, label: &str, axes: &[Value<'c, 'c>], kinds: &str) {
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_operands(axes);
    op.set_inherent_attribute("label", StringAttribute::new(context, label).into());
    op.set_inherent_attribute("kinds", StringAttribute::new(context, kinds).into());
}

fn rewrite<'c>(
    context: &'c Context,
    iteration: OperationRef<'c, 'c>,
    rules: &[&Rule<'c>],
    source: &BufferDef<'c>,
) -> Result<(), PassFailed> {
    let location = iteration.location();
    let info = IterationInfo::read(iteration);
    if info.fused {
        return Err(emit_error(location, "decompose-format: apply sparse-fuse after decomposing, not before"));
    }
    // Labels are a function's own (lower-sparse-iter).
    let root = crate::ir_query::enclosing_function(iteration).unwrap_or(iteration);
    // Where each source axis sits in the iteration.
    let positions: Vec<usize> =
        source.axes.iter().map(|axis| info.axes.iter().position(|a| a == axis)).collect::<Option<_>>().ok_or_else(
            || emit_error(location, "decompose-format: the iteration must walk every axis of the decomposed buffer"),
        )?;
    let others: Vec<usize> = (0..info.axes.len()).filter(|a| !positions.contains(a)).collect();
    // The new format has axes of its own: an axis under one of the
    // source's (a level of a CSF output below the decomposed columns)
    // would lose its parent.
    for &other in &others {
        let parent = Axis::read(info.axes[other]).and_then(|axis| axis.parent);
        if let Some(under) = parent.and_then(|parent| source.axes.iter().position(|&axis| axis == parent)) {
            return Err(emit_error(
                location,
                format!("decompose-format: the iteration walks axis #{other}, whose parent is axis #{} of the decomposed buffer; the new format replaces that axis, so nothing would be left for it to hang from", positions[under]),
            ));
        }
    }

    // The init region becomes its own iteration over the spatial axes.
    if region_block(iteration, 0).is_some() {
        let init = clone_before(context, iteration)?;
        let spatial: Vec<Value> =
            (0..info.axes.len()).filter(|&a| info.kinds[a] == b'S').map(|a| info.axes[a]).collect();
        let label = label_like(root, format!("{}.init", info.label));
        set_iteration(context, init, &label, &spatial, &"S".repeat(spatial.len()));
        if let (Ok(init_region), Ok(body_region)) = (init.region(0), init.region(1)) {
            let scratch = Region::new();
            unsafe {
                mlirRegionTakeBody(scratch.to_raw(), body_region.to_raw());
                mlirRegionTakeBody(body_region.to_raw(), init_region.to_raw());
            }
        }
    }

    for (index, rule) in rules.iter().enumerate() {
        let target =
            BufferDef::read(rule.target).ok_or_else(|| emit_error(location, "rule target is not a buffer op"))?;
        // The rewritten iteration walks the target's axes beside the others:
        // one of those would be walked twice (a target over the output's
        // axes, say).
        if let Some(shared) = others.iter().find(|&&other| target.axes.contains(&info.axes[other])) {
            return Err(emit_error(
                rule.op.location(),
                format!("decompose-format: this format_rewrite's target is over axis #{shared} of iteration \"{}\", which the iteration walks beside the decomposed buffer's axes; the rewritten iteration walks the target's axes in place of the source's, so the target needs axes of its own", info.label),
            ));
        }
        let compute = clone_before(context, iteration)?;
        clear_region(compute, 0);
        let mut axes = target.axes.clone();
        axes.extend(others.iter().map(|&a| info.axes[a]));
        // Target axes the rule says may map several slots to one source
        // coordinate (a long row split over bucket rows) accumulate.
        let repeated: Vec<i64> = rule
            .op
            .attribute("repeats")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
            .unwrap_or_default();
        // Repeated slots only collide where a write does not name every
        // source coordinate (SpMM's C[i, k], not SDDMM's out[i, j]).
        let collide = !repeated.is_empty() && !writes_name_all(iteration, &positions);
        let mut kinds = String::new();
        for (position, expr) in affine_results(rule.map).into_iter().enumerate() {
            let mut dims = Vec::new();
            dims_of(expr, &mut dims);
            let reduction = dims.iter().any(|&d| positions.get(d).is_some_and(|&p| info.kinds[p] == b'R'))
                || (collide && repeated.contains(&(position as i64)));
            kinds.push(if reduction { 'R' } else { 'S' });
        }
        kinds.extend(others.iter().map(|&a| info.kinds[a] as char));
        let label = label_like(root, format!("{}.{index}", info.label));
        set_iteration(context, compute, &label, &axes, &kinds);
        rebind_body(context, compute, rule, source, &target, &positions, &others, info.axes.len())?;
    }
    erase(iteration);
    Ok(())
}

/// Whether every store in the body of `iteration` names, among its
/// coordinates, the coordinates of the axes at `positions`.
fn writes_name_all(iteration: OperationRef<'_, '_>, positions: &[usize]) -> bool {
    let Some(body) = region_block(iteration, 1) else { return false };
    let walked: Vec<Value> = positions.iter().filter_map(|&p| body.argument(p).ok().map(Into::into)).collect();
    // The body only: the init region has coordinates of its own.
    let mut all = true;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        op.walk(WalkOrder::PreOrder, |inner| {
            if inner.name().as_string_ref().as_str() == Ok("sparse_iter.store") {
                let coordinates: Vec<Value> = inner.operands().skip(2).collect();
                if !walked.iter().all(|w| coordinates.contains(w)) {
                    all = false;
                    return WalkResult::Interrupt;
                }
            }
            WalkResult::Advance
        });
    }
    all
}

/// Gives the cloned body one argument per new axis: source coordinates
/// come from the inverse map, other axes keep theirs; reads of the source
/// become reads of the target; the body runs only inside the source's range.
#[allow(clippy::too_many_arguments)]
fn rebind_body<'c>(
    context: &'c Context,
    compute: OperationRef<'c, 'c>,
    rule: &Rule<'c>,
    source: &BufferDef<'c>,
    target: &BufferDef<'c>,
    positions: &[usize],
    others: &[usize],
    old_count: usize,
) -> Result<(), PassFailed> {
    let location = compute.location();
    let block = region_block(compute, 1).ok_or_else(|| emit_error(location, "iteration has no body"))?;
    let index = Type::index(context);
    let target_args: Vec<Value<'c, 'c>> =
        (0..target.axes.len()).map(|_| detach(block.add_argument(index, location))).collect();
    let other_args: Vec<Value<'c, 'c>> = others.iter().map(|_| detach(block.add_argument(index, location))).collect();
    let old_args: Vec<Value<'c, 'c>> =
        (0..old_count).filter_map(|n| block.argument(n).ok().map(|a| detach(a.into()))).collect();

    let first = block.first_operation().ok_or_else(|| emit_error(location, "empty body"))?;
    let builder = Builder::before(context, first).ok_or_else(|| emit_error(location, "body is not a block"))?;
    let (old, inside) = source_coordinates(&builder, rule, source, &target_args)?;
    for (&position, &coordinate) in positions.iter().zip(&old) {
        replace_uses(old_args[position], coordinate);
    }
    for (&position, &argument) in others.iter().zip(&other_args) {
        replace_uses(old_args[position], argument);
    }
    for _ in 0..old_count {
        unsafe { mlirBlockEraseArgument(block.to_raw(), 0) };
    }

    // Reads and writes of the source at exactly the walked coordinates
    // move to the target.
    let mut accesses = Vec::new();
    compute.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        let buffer_operand = match name {
            "sparse_iter.load" => 0,
            "sparse_iter.store" => 1,
            _ => return WalkResult::Advance,
        };
        if op.operand(buffer_operand).is_ok_and(|b| b == rule.source) {
            accesses.push((unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) }, buffer_operand));
        }
        WalkResult::Advance
    });
    for (op, buffer_operand) in accesses {
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        if operands[buffer_operand + 1..] != old[..] {
            return Err(emit_error(
                op.location(),
                "decompose-format: the decomposed buffer must be accessed at the coordinates its axes walk",
            ));
        }
        let mut new_operands = operands[..buffer_operand].to_vec();
        new_operands.push(rule.target);
        new_operands.extend(&target_args);
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.set_operands(&new_operands);
    }

    // Guard everything after the coordinate computation.
    let (guard, end) = builder.guard(inside);
    move_until_terminator(guard.next_in_block().map(|op| unsafe { OperationRef::from_raw(op.to_raw()) }), end);
    Ok(())
}
