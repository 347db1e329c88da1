//! `vectorize-loops`: stage III rewrite of the loops `sparse-pos-vectorize`
//! marked (`vectorize = W`, trip count W) into one vector operation of W
//! lanes: a load or store whose flat index is `base + iv` becomes a
//! `vector.load`/`vector.store` at `base`, elementwise arithmetic works on
//! vectors, and values that do not depend on the lane stay scalars
//! (broadcast where a vector needs them).
//!
//! The vector access claims an alignment of W elements, which holds only
//! if every `base` is a multiple of W and the memrefs start aligned. The
//! pass proves what it can from the index arithmetic (`k.o * 64 + tid * 4`
//! is) and checks the rest at run time (`feat % 4 == 0`, the pointers):
//! the loop becomes `scf.if aligned { vector body } else { original loop }`.
//! A constant offset that is not a multiple leaves the loop scalar.
//! A guard `base + iv < bound` (from `sparse-pos-split`) is uniform across
//! the lanes under the same conditions, so it becomes `base < bound`.

use crate::{
    axis::detach,
    ir_builder::{region_with_block, Builder},
    ir_query::{accumulation, constant_index, defined_outside, marked_loops, op_name, root_memref, use_count},
    lower_loop_bindings::{ATOMIC, SHUFFLE},
    merge_alignment_versions::VERSION,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{
        arith,
        ods::{memref, vector},
        scf,
    },
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{
            OperationBuilder, OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult,
        },
        r#type::{IntegerType, MemRefType, ShapedTypeLike, TypeLike},
        Attribute, BlockRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

pub const PASS: PassDef = PassDef {
    name: "VectorizeLoops",
    argument: "vectorize-loops",
    description:
        "Rewrite loops marked by sparse-pos-vectorize into vector loads and stores, under a run-time alignment check",
    options: &[],
    dependent_dialects: "arith,memref,scf,vector",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let marked = marked_loops(root, "vectorize");
    for op in marked {
        vectorize(context, op)?;
    }
    Ok(())
}

/// What a scalar value of the loop body becomes in the vector body.
#[derive(Clone, Copy)]
enum Lanes<'c> {
    /// The same in every lane.
    Uniform(Value<'c, 'c>),
    /// An index that is `base + lane`.
    Index(Value<'c, 'c>),
    /// A vector of W values.
    Vector(Value<'c, 'c>),
    /// A comparison of an `Index` against a uniform bound that every lane
    /// answers alike once the alignment conditions hold.
    Guard(Value<'c, 'c>),
}

struct Vectorizer<'c> {
    context: &'c Context,
    width: i64,
    values: HashMap<usize, Lanes<'c>>,
    /// Values that must be multiples of `width` for the vector body to be
    /// equivalent.
    multiples: Vec<Value<'c, 'c>>,
    /// Memrefs accessed as vectors, with the alignment in bytes claimed.
    pointers: Vec<(Value<'c, 'c>, i64)>,
    /// One of `multiples` is a constant that is not a multiple.
    never_aligned: bool,
    /// The loop's `sptir.label`, for diagnostics.
    label: String,
    /// Memory the loop stores to (`root_memref` keys), and the loads of
    /// its accumulations' old values: another load of that memory that is
    /// the same in every lane cannot run once for all of them, as a lane
    /// may read what an earlier one stored.
    written: Vec<usize>,
    accumulation_loads: Vec<usize>,
}

/// Why `op` keeps the loop from running as vectors. The op is lowered
/// code; the loop and the advice are what a schedule's author can act on.
fn refusal(label: &str, width: i64, op: &OperationRef<'_, '_>, why: &str) -> PassFailed {
    emit_error(
        op.location(),
        format!(
            "vectorize-loops: {label} cannot run as vectors of {width}: its '{}' here cannot ({why}); vectorize a loop whose position only indexes the last, dense axis of the buffers it touches (the inner loop of a split of the feature loop)",
            op_name(op)
        ),
    )
}

fn key(value: Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

fn vectorize<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), PassFailed> {
    let location = op.location();
    let operand = |n| op.operand(n).map(detach).map_err(|_| emit_error(location, "malformed scf.for"));
    let (lower, upper, step) = (operand(0)?, operand(1)?, operand(2)?);
    let width = match (constant_index(lower), constant_index(upper), constant_index(step)) {
        (Some(lo), Some(hi), Some(1)) => hi - lo,
        _ => {
            return Err(emit_error(location, "vectorize-loops: a marked loop must have constant bounds and step 1"));
        }
    };
    // sparse-pos-vectorize marks loops of 2 or 4 positions; a loop changed
    // since, or marked by hand, may run another count.
    if !matches!(width, 2 | 4) {
        return Err(emit_error(
            location,
            format!("vectorize-loops: a marked loop must run 2 or 4 positions (8- or 16-byte vectors); this one runs {width}"),
        ));
    }
    if op.result_count() != 0 {
        return Err(emit_error(location, "vectorize-loops: a marked loop must not carry values"));
    }
    let body =
        op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| emit_error(location, "loop without body"))?;
    let iv: Value<'c, 'c> =
        detach(body.argument(0).map_err(|_| emit_error(location, "loop without induction variable"))?.into());

    let mut vectorizer = Vectorizer {
        context,
        width,
        values: HashMap::new(),
        multiples: Vec::new(),
        pointers: Vec::new(),
        never_aligned: false,
        written: Vec::new(),
        accumulation_loads: Vec::new(),
        label: crate::ir_query::stage3_label(op)
            .map(|label| format!("loop \"{label}\""))
            .unwrap_or_else(|| "the marked loop".to_string()),
    };
    op.walk(WalkOrder::PreOrder, |inner| {
        let inner = unsafe { OperationRef::<'c, 'c>::from_raw(inner.to_raw()) };
        if matches!(op_name(&inner).as_str(), "memref.store" | "vector.store" | "memref.atomic_rmw") {
            vectorizer.written.extend(inner.operand(1).ok().map(root_memref));
            vectorizer.accumulation_loads.extend(accumulation(inner).map(|(load, _)| load.to_raw().ptr as usize));
        }
        WalkResult::Advance
    });
    vectorizer.values.insert(key(iv), Lanes::Index(lower));
    let (then_region, inside) = region_with_block(context, location, &[], scf::r#yield(&[], location));
    let vector_ops = then_region
        .first_block()
        .map(|b| unsafe { BlockRef::from_raw(b.to_raw()) })
        .ok_or_else(|| emit_error(location, "internal: empty region"))?;
    vectorizer.block(body, &inside)?;

    // The run-time conditions, computed before the loop.
    let outside =
        Builder::before(context, op).ok_or_else(|| emit_error(location, "loop is not in a block"))?.at(location);
    let mut leaves = Vec::new();
    for value in vectorizer.multiples.clone() {
        vectorizer.runtime_multiples(value, vector_ops, &mut leaves)?;
    }
    // A constant offset that is not a multiple of W (33 features, compiled
    // for that size) is never aligned: the loop stays scalar, as the run-time
    // check would have chosen for a kernel compiled for any size.
    if vectorizer.never_aligned {
        unsafe { OperationRefMut::from_raw(op.to_raw()) }.remove_attribute("vectorize").ok();
        return Ok(());
    }
    let width_value = outside.index(width);
    let zero = outside.index(0);
    let mut condition = outside.value(arith::constant(
        context,
        IntegerAttribute::new(IntegerType::new(context, 1).into(), 1).into(),
        location,
    ));
    let mut checked = Vec::new();
    for leaf in leaves {
        if checked.contains(&leaf) {
            continue;
        }
        checked.push(leaf);
        let remainder = outside.value(arith::remui(leaf, width_value, location));
        condition = outside.and(condition, outside.cmp(arith::CmpiPredicate::Eq, remainder, zero));
    }
    let mut pointers_checked = Vec::new();
    for &(memref_value, bytes) in &vectorizer.pointers {
        if pointers_checked.contains(&memref_value) {
            continue;
        }
        pointers_checked.push(memref_value);
        let pointer = outside.value(memref::extract_aligned_pointer_as_index(
            context,
            Type::index(context),
            memref_value,
            location,
        ));
        let remainder = outside.value(arith::remui(pointer, outside.index(bytes), location));
        condition = outside.and(condition, outside.cmp(arith::CmpiPredicate::Eq, remainder, zero));
    }

    let (else_region, scalar_builder) = region_with_block(context, location, &[], scf::r#yield(&[], location));
    let version = outside.insert(scf::r#if(condition, &[], then_region, else_region, location));
    unsafe { OperationRefMut::from_raw(version.to_raw()) }.set_discardable_attribute(VERSION, Attribute::unit(context));
    let mut scalar = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    scalar.remove_attribute("vectorize").ok();
    scalar_builder.insert_existing(op);
    Ok(())
}

impl<'c> Vectorizer<'c> {
    fn lanes(&self, value: Value<'c, 'c>) -> Lanes<'c> {
        self.values.get(&key(value)).copied().unwrap_or(Lanes::Uniform(value))
    }

    fn uniform(&self, value: Value<'c, 'c>) -> Option<Value<'c, 'c>> {
        match self.lanes(value) {
            Lanes::Uniform(v) => Some(v),
            _ => None,
        }
    }

    /// A vector of `value`'s lanes, broadcasting a uniform one.
    fn as_vector(&self, value: Value<'c, 'c>, builder: &Builder<'c>) -> Option<Value<'c, 'c>> {
        match self.lanes(value) {
            Lanes::Vector(v) => Some(v),
            Lanes::Uniform(v) => {
                let vector_type = Type::vector(&[self.width as u64], v.r#type());
                Some(builder.value(vector::broadcast(self.context, vector_type, v, builder.location)))
            }
            _ => None,
        }
    }

    /// Whether `op` is a load of memory the loop writes, other than an
    /// accumulation's load of its old value.
    fn reads_written(&self, op: OperationRef<'c, 'c>) -> bool {
        op_name(&op) == "memref.load"
            && op.operand(0).is_ok_and(|memory| self.written.contains(&root_memref(memory)))
            && !self.accumulation_loads.contains(&(op.to_raw().ptr as usize))
    }

    /// Copies the value-yielding `scf.if` `op` into the vector body as one
    /// scalar `if`, if it only computes and loads from values that are
    /// the same in every lane; its results are then uniform.
    fn uniform_guard(&mut self, op: OperationRef<'c, 'c>, builder: &Builder<'c>) -> bool {
        let nested = crate::ir_query::ops_where(op, WalkOrder::PreOrder, |_| true);
        let reads_only = |inner: &OperationRef<'c, 'c>| {
            let name = op_name(inner);
            ["arith.", "math.", "index."].iter().any(|prefix| name.starts_with(prefix))
                || matches!(name.as_str(), "memref.load" | "scf.yield" | "scf.if")
        };
        // Each value from outside the `if`, as the vector body has it.
        let mut remapped = Vec::new();
        for inner in &nested {
            if !reads_only(inner) || self.reads_written(*inner) {
                return false;
            }
            let mut operands = Vec::new();
            for value in inner.operands().map(detach) {
                if !defined_outside(value, op) {
                    operands.push(value);
                    continue;
                }
                match self.uniform(value) {
                    Some(uniform) => operands.push(uniform),
                    None => return false,
                }
            }
            remapped.push(operands);
        }
        let clone = builder.insert_clone(op);
        let cloned = crate::ir_query::ops_where(clone, WalkOrder::PreOrder, |_| true);
        // The clone's ops use the original's inner values where the
        // original did; only the values from outside change.
        for ((inner, original), operands) in cloned.iter().zip(&nested).zip(&remapped) {
            let updated: Vec<Value<'c, 'c>> = inner
                .operands()
                .map(detach)
                .zip(original.operands().map(detach))
                .zip(operands)
                .map(|((now, before), &after)| if defined_outside(before, op) { after } else { now })
                .collect();
            unsafe { OperationRefMut::from_raw(inner.to_raw()) }.set_operands(&updated);
        }
        for (old, new) in op.results().zip(clone.results()) {
            self.values.insert(key(old.into()), Lanes::Uniform(detach(new.into())));
        }
        true
    }

    fn block(&mut self, block: BlockRef<'c, '_>, builder: &Builder<'c>) -> Result<(), PassFailed> {
        let mut next = block.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
        while let Some(op) = next {
            next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
            if next.is_none() {
                break; // the terminator
            }
            self.op(op, &builder.at(op.location()))?;
        }
        Ok(())
    }

    fn op(&mut self, op: OperationRef<'c, 'c>, builder: &Builder<'c>) -> Result<(), PassFailed> {
        let location = op.location();
        let name = op_name(&op);
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        let lanes: Vec<Lanes<'c>> = operands.iter().map(|&v| self.lanes(v)).collect();
        let per_lane = lanes.iter().any(|l| !matches!(l, Lanes::Uniform(_)));
        // The op is lowered code; the loop and the advice are what the
        // schedule's author can act on.
        let (label, width) = (self.label.clone(), self.width);
        let refuse = |why: &str| refusal(&label, width, &op, why);

        if name == "scf.if" {
            let condition = match lanes[0] {
                Lanes::Uniform(c) | Lanes::Guard(c) => c,
                _ => return Err(refuse("its condition differs between lanes")),
            };
            if op.result_count() != 0 {
                // A guarded read of what does not change between lanes
                // (`s[j]` behind its range check) runs once, as scalars.
                if matches!(lanes[0], Lanes::Uniform(_)) && self.uniform_guard(op, builder) {
                    return Ok(());
                }
                return Err(refuse("it yields values that may differ between lanes"));
            }
            let mut regions = Vec::new();
            for index in 0..2 {
                let source = op.region(index).map_err(|_| refuse("malformed"))?;
                let region = match source.first_block() {
                    Some(source_block) => {
                        let (region, inner) =
                            region_with_block(self.context, location, &[], scf::r#yield(&[], location));
                        self.block(source_block, &inner)?;
                        region
                    }
                    None => Region::new(),
                };
                regions.push(region);
            }
            let else_region = regions.pop().unwrap_or_default();
            let then_region = regions.pop().unwrap_or_default();
            builder.insert(scf::r#if(condition, &[], then_region, else_region, location));
            return Ok(());
        }
        if op.region_count() != 0 {
            return Err(refuse("only straight-line code and guards can be vectorized"));
        }

        if !per_lane {
            if self.reads_written(op) {
                return Err(refuse("it reads, once for all lanes, memory that the loop writes, where a lane may read what an earlier one stored"));
            }
            // Once instead of W times: harmless for values and for stores
            // of one value to one place, not for atomic updates.
            if name == "memref.atomic_rmw"
                || !(name.starts_with("arith.")
                    || name.starts_with("math.")
                    || name.starts_with("index.")
                    || name == "memref.load"
                    || name == "memref.store")
            {
                return Err(refuse("it would run once instead of once per lane"));
            }
            let clone = builder.insert_clone(op);
            let mut clone_mut = unsafe { OperationRefMut::from_raw(clone.to_raw()) };
            clone_mut.set_operands(&operands.iter().map(|&v| self.uniform(v).unwrap_or(v)).collect::<Vec<_>>());
            for (old, new) in op.results().zip(clone.results()) {
                self.values.insert(key(old.into()), Lanes::Uniform(detach(new.into())));
            }
            return Ok(());
        }

        let result = op.result(0).ok().map(|r| detach(r.into()));
        let lanes_result = match name.as_str() {
            "arith.addi" | "arith.subi" => match (lanes[0], lanes[1]) {
                (Lanes::Index(base), Lanes::Uniform(offset)) => Lanes::Index(if name == "arith.addi" {
                    self.add(builder, base, offset)
                } else {
                    builder.sub(base, offset)
                }),
                (Lanes::Uniform(offset), Lanes::Index(base)) if name == "arith.addi" => {
                    Lanes::Index(self.add(builder, base, offset))
                }
                (Lanes::Index(_), _) | (_, Lanes::Index(_)) => {
                    return Err(refuse("the lanes' index would not be contiguous"))
                }
                _ => self.elementwise(op, builder)?,
            },
            "arith.cmpi" => {
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|a| a.value())
                    .unwrap_or(-1);
                // arith.CmpIPredicate: slt 2, sle 3, sge 5, ult 6, ule 7, uge 9;
                // with the lane index on the left: < and >=; on the right:
                // > and <= (as `bound > i`, `bound <= i`).
                let (base, bound) = match (lanes[0], lanes[1], predicate) {
                    (Lanes::Index(base), Lanes::Uniform(bound), 2 | 5 | 6 | 9) => (base, bound),
                    (Lanes::Uniform(bound), Lanes::Index(base), 3 | 4 | 7 | 8) => (base, bound),
                    _ => {
                        return Err(refuse(
                            "only `index < bound` and `index >= bound` comparisons are uniform across lanes",
                        ))
                    }
                };
                self.multiples.push(base);
                self.multiples.push(bound);
                // Lane 0 of a chunk of a split loop is always in range: the
                // guard of a split by the vector width folds away, and with
                // it the loads and accumulations it would keep in place.
                if chunk_in_range(base, bound) {
                    let below = matches!(predicate, 2 | 6 | 4 | 8);
                    let constant = builder.value(arith::constant(
                        self.context,
                        IntegerAttribute::new(IntegerType::new(self.context, 1).into(), below as i64).into(),
                        location,
                    ));
                    self.values.insert(key(result.ok_or_else(|| refuse("malformed"))?), Lanes::Guard(constant));
                    return Ok(());
                }
                let (lhs, rhs) = if matches!(lanes[0], Lanes::Index(_)) { (base, bound) } else { (bound, base) };
                let clone = builder.insert_clone(op);
                unsafe { OperationRefMut::from_raw(clone.to_raw()) }.set_operands(&[lhs, rhs]);
                Lanes::Guard(detach(clone.result(0).map_err(|_| refuse("malformed"))?.into()))
            }
            "memref.load" => {
                let base = self
                    .contiguous(&lanes[1..])
                    .ok_or_else(|| refuse("the lanes' index is not `base + lane` on a 1-D memref"))?;
                let memref_value = operands[0];
                let (element, bytes) = self.access(memref_value).ok_or_else(|| {
                    refuse("the memref is not a 1-D memref of whole-byte numbers with the identity layout")
                })?;
                self.multiples.push(base);
                self.pointers.push((memref_value, bytes));
                let load = vector::load(
                    self.context,
                    Type::vector(&[self.width as u64], element),
                    memref_value,
                    &[base],
                    location,
                );
                let load = builder.insert(load);
                let mut load_mut = unsafe { OperationRefMut::from_raw(load.to_raw()) };
                load_mut.set_inherent_attribute(
                    "alignment",
                    IntegerAttribute::new(IntegerType::new(self.context, 64).into(), bytes).into(),
                );
                Lanes::Vector(detach(load.result(0).map_err(|_| refuse("malformed"))?.into()))
            }
            "memref.store" if lanes[2..].iter().all(|l| matches!(l, Lanes::Uniform(_))) => {
                // W updates `m[i] = m[i] + w_lane` of one element: one
                // update by the sum of the lanes.
                let addend = self.lane_accumulation(op).ok_or_else(|| {
                    refuse(
                        "the lanes write one element, and not as `m[i] = m[i] + value` with nothing else reading m[i]",
                    )
                })?;
                let Lanes::Vector(lanes_value) = self.lanes(addend) else {
                    return Err(refuse("the lanes write one element"));
                };
                let element = addend.r#type();
                let kind = melior::ir::Attribute::parse(self.context, "#vector.kind<add>")
                    .ok_or_else(|| refuse("internal"))?;
                let sum = builder.value(
                    OperationBuilder::new("vector.reduction", location)
                        .add_operands(&[lanes_value])
                        .add_results(&[element])
                        .add_attributes(&[(melior::ir::Identifier::new(self.context, "kind"), kind)])
                        .build()
                        .map_err(|_| refuse("internal: vector.reduction"))?,
                );
                let indices: Vec<Value<'c, 'c>> = operands[2..].iter().map(|&v| self.uniform(v).unwrap_or(v)).collect();
                let old = builder.value(melior::dialect::memref::load(operands[1], &indices, location));
                let new = if crate::ir_builder::is_float(element) {
                    builder.value(arith::addf(old, sum, location))
                } else {
                    builder.value(arith::addi(old, sum, location))
                };
                let store = builder.insert_clone(op);
                let mut store_mut = unsafe { OperationRefMut::from_raw(store.to_raw()) };
                store_mut.set_operands(&[&[new, operands[1]], &indices[..]].concat());
                return Ok(());
            }
            "memref.store" => {
                if op.has_attribute(SHUFFLE) {
                    return Err(refuse(
                        "the lanes of a warp shuffle (shuffle=true) add what it stores, and a shuffle moves 32-bit scalars, not vectors; unroll it (sparse-pos-unroll) instead",
                    ));
                }
                let base = self
                    .contiguous(&lanes[2..])
                    .ok_or_else(|| refuse("the lanes write one element, or not `base + lane` of a 1-D memref"))?;
                let memref_value = operands[1];
                let (_, bytes) = self.access(memref_value).ok_or_else(|| {
                    refuse("the memref is not a 1-D memref of whole-byte numbers with the identity layout")
                })?;
                let value =
                    self.as_vector(operands[0], builder).ok_or_else(|| refuse("the stored value is an index"))?;
                self.multiples.push(base);
                self.pointers.push((memref_value, bytes));
                let store = builder.insert(vector::store(self.context, value, memref_value, &[base], location));
                let mut store_mut = unsafe { OperationRefMut::from_raw(store.to_raw()) };
                store_mut.set_inherent_attribute(
                    "alignment",
                    IntegerAttribute::new(IntegerType::new(self.context, 64).into(), bytes).into(),
                );
                // Accumulations shared between threads stay marked.
                if let Ok(marker) = op.attribute(ATOMIC) {
                    store_mut.set_discardable_attribute(ATOMIC, marker);
                }
                return Ok(());
            }
            _ if ELEMENTWISE.contains(&name.as_str()) || name.starts_with("math.") => self.elementwise(op, builder)?,
            _ => return Err(refuse("no vector form for this op")),
        };
        if let Some(result) = result {
            self.values.insert(key(result), lanes_result);
        }
        Ok(())
    }

    /// For `store (load m[i] + v), m[i]` where the load and the sum have no
    /// other use and nothing else in the loop touches `m`: `v`.
    fn lane_accumulation(&self, store: OperationRef<'c, 'c>) -> Option<Value<'c, 'c>> {
        let (load, addend) = accumulation(store)?;
        let (stored, memref_value) = (detach(store.operand(0).ok()?), detach(store.operand(1).ok()?));
        if use_count(stored) != 1 || use_count(detach(load.result(0).ok()?.into())) != 1 {
            return None;
        }
        // The load and the store are the loop's only uses of the memref.
        let in_loop = {
            let mut count = 0;
            let mut parent = store.parent_operation();
            while let Some(op) = parent {
                if op.has_attribute("vectorize") {
                    op.walk(WalkOrder::PreOrder, |inner| {
                        count += inner.operands().filter(|&v| v == memref_value).count();
                        WalkResult::Advance
                    });
                    break;
                }
                parent = op.parent_operation();
            }
            count
        };
        (in_loop == 2).then_some(addend)
    }

    /// `base + offset`, leaving out a constant zero base.
    fn add(&self, builder: &Builder<'c>, base: Value<'c, 'c>, offset: Value<'c, 'c>) -> Value<'c, 'c> {
        if constant_index(base) == Some(0) {
            offset
        } else {
            builder.add(base, offset)
        }
    }

    /// The op on vectors: every operand as a vector, the result a vector.
    fn elementwise(&self, op: OperationRef<'c, 'c>, builder: &Builder<'c>) -> Result<Lanes<'c>, PassFailed> {
        let location = op.location();
        let name = op_name(&op);
        let mut vectors = Vec::new();
        for operand in op.operands() {
            vectors.push(self.as_vector(detach(operand), builder).ok_or_else(|| {
                refusal(&self.label, self.width, &op, "it uses the loop index other than as `base + lane`")
            })?);
        }
        let element = op.result(0).map_err(|_| emit_error(location, "malformed op"))?.r#type();
        let attributes: Vec<_> = op.attributes().map(|(n, a)| (n, a)).collect();
        let vector_op = OperationBuilder::new(&name, location)
            .add_operands(&vectors)
            .add_results(&[Type::vector(&[self.width as u64], element)])
            .add_attributes(&attributes)
            .build()
            .map_err(|_| emit_error(location, format!("vectorize-loops: cannot build the vector form of '{name}'")))?;
        Ok(Lanes::Vector(builder.value(vector_op)))
    }

    /// The lane-0 index of a contiguous access: one index, `base + lane`.
    fn contiguous(&self, indices: &[Lanes<'c>]) -> Option<Value<'c, 'c>> {
        match indices {
            [Lanes::Index(base)] => Some(*base),
            _ => None,
        }
    }

    /// The element type and the vector's alignment in bytes, for a 1-D
    /// memref with the identity layout.
    fn access(&self, memref_value: Value<'c, 'c>) -> Option<(Type<'c>, i64)> {
        let memref_type = MemRefType::try_from(memref_value.r#type()).ok()?;
        if memref_type.rank() != 1 || !memref_type.affine_map().is_identity() {
            return None;
        }
        let element = memref_type.element();
        let bits = if element.is_index() { return None } else { element_bits(element)? };
        // Sub-byte elements (i1) are packed differently in memory and in
        // vectors; they stay scalar.
        if bits % 8 != 0 {
            return None;
        }
        Some((element, bits / 8 * self.width))
    }

    /// The values whose being multiples of W makes `value` one, checked
    /// at run time: constants are checked now, sums need every term, a
    /// product needs one factor (a constant, else the one defined farthest
    /// out, which the check can then leave the loops with).
    fn runtime_multiples(
        &mut self,
        value: Value<'c, 'c>,
        vector_ops: BlockRef<'c, 'c>,
        leaves: &mut Vec<Value<'c, 'c>>,
    ) -> Result<(), PassFailed> {
        if let Some(constant) = constant_index(value) {
            if constant % self.width != 0 {
                self.never_aligned = true;
            }
            return Ok(());
        }
        let definer = crate::ir_query::op_result(value).ok().map(|r| r.owner());
        let Some(definer) = definer else {
            leaves.push(value);
            return Ok(());
        };
        let definer: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(definer.to_raw()) };
        // Defined in the vector body, at any depth of its guards.
        let inside = {
            let mut block = definer.block();
            let mut found = false;
            while let Some(current) = block {
                if current == vector_ops {
                    found = true;
                    break;
                }
                block = current.parent_operation().and_then(|p| p.block());
            }
            found
        };
        let operands: Vec<Value<'c, 'c>> = definer.operands().map(detach).collect();
        match op_name(&definer).as_str() {
            "arith.addi" | "arith.subi" => {
                self.runtime_multiples(operands[0], vector_ops, leaves)?;
                self.runtime_multiples(operands[1], vector_ops, leaves)
            }
            "arith.muli" => {
                if operands.iter().any(|&v| constant_index(v).is_some_and(|c| c % self.width == 0)) {
                    return Ok(());
                }
                let (a, b) = (operands[0], operands[1]);
                let outer = if constant_index(a).is_some() || depth(b) < depth(a) { b } else { a };
                self.runtime_multiples(outer, vector_ops, leaves)
            }
            _ if inside => Err(emit_error(
                definer.location(),
                format!("vectorize-loops: cannot tell whether this value is a multiple of {} outside the loop; the vector access needs it to be", self.width),
            )),
            _ => {
                leaves.push(value);
                Ok(())
            }
        }
    }
}

const ELEMENTWISE: &[&str] = &[
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
    "arith.negf",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.select",
    "arith.remf",
    "arith.cmpf",
    // Conversions: f16 features read and computed in f32, and back.
    "arith.extf",
    "arith.truncf",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.bitcast",
];

/// Whether `base < bound` holds because `base` is `iv * F` (or `iv`, F = 1)
/// for the induction variable of a loop from 0 to `ceildiv(bound, F)` by 1:
/// the first position of a split's chunk.
fn chunk_in_range(base: Value<'_, '_>, bound: Value<'_, '_>) -> bool {
    let owner =
        |v: Value| crate::ir_query::op_result(v).ok().map(|r| unsafe { OperationRef::from_raw(r.owner().to_raw()) });
    let (iv, factor) = match owner(base) {
        Some(mul) if op_name(&mul) == "arith.muli" => {
            let (Ok(a), Ok(b)) = (mul.operand(0), mul.operand(1)) else { return false };
            let (a, b) = (detach(a), detach(b));
            match (constant_index(a), constant_index(b)) {
                (_, Some(f)) => (a, f),
                (Some(f), _) => (b, f),
                _ => return false,
            }
        }
        Some(_) => return false,
        None => (detach(base), 1),
    };
    let Ok(argument) = crate::ir_query::block_argument(iv) else { return false };
    let Some(parent) = argument.owner().parent_operation() else { return false };
    if argument.argument_number() != 0 || op_name(&parent) != "scf.for" {
        return false;
    }
    let operand = |n| parent.operand(n).ok().map(detach);
    let (Some(lower), Some(upper), Some(step)) = (operand(0), operand(1), operand(2)) else { return false };
    if constant_index(lower) != Some(0) || constant_index(step) != Some(1) {
        return false;
    }
    if factor == 1 {
        return upper == detach(bound);
    }
    match owner(upper) {
        Some(div) if op_name(&div) == "arith.ceildivui" => {
            div.operand(0).ok().map(detach) == Some(detach(bound))
                && div.operand(1).ok().map(detach).and_then(constant_index) == Some(factor)
        }
        _ => false,
    }
}

fn element_bits(element: Type<'_>) -> Option<i64> {
    if element.is_f32() {
        Some(32)
    } else if element.is_f64() {
        Some(64)
    } else if element.is_f16() || element.is_bf16() {
        Some(16)
    } else {
        melior::ir::r#type::IntegerType::try_from(element).ok().map(|i| i.width() as i64)
    }
}

/// How many ops enclose the definition of `value`.
fn depth(value: Value<'_, '_>) -> usize {
    let mut block = match crate::ir_query::op_result(value) {
        Ok(result) => result.owner().block(),
        Err(_) => crate::ir_query::block_argument(value)
            .ok()
            .map(|a| unsafe { melior::ir::BlockRef::from_raw(a.owner().to_raw()) }),
    };
    let mut count = 0;
    while let Some(current) = block {
        match current.parent_operation() {
            Some(parent) => {
                count += 1;
                block = parent.block();
            }
            None => break,
        }
    }
    count
}
