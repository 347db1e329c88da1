//! Questions passes ask of the IR: an op's name, where a value is defined,
//! which op encloses which.

use crate::reduction::Reduction;
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    Value, ValueLike,
};

/// The attribute of the `arith.constant` that defines `value`, if one does.
pub fn constant_of<'c>(value: Value<'c, '_>) -> Option<melior::ir::Attribute<'c>> {
    let result = op_result(value).ok()?;
    let owner = result.owner();
    (owner.name().as_string_ref().as_str() == Ok("arith.constant")).then(|| owner.attribute("value").ok()).flatten()
}

/// The integer `value` is, if an `arith.constant` defines it.
pub fn constant_index(value: Value<'_, '_>) -> Option<i64> {
    constant_of(value).and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok()).map(|i| i.value())
}

/// The integer `value` always is, where it is an `arith.constant` or
/// integer arithmetic over constants: a schedule at stage II sees a split
/// loop's trip count as `ceildivui(subi(N, 0), F)` before anything folds,
/// with N constant once `specialize-arguments` ran.
pub fn evaluate_index(value: Value<'_, '_>) -> Option<i64> {
    evaluate(value, 0)
}

fn evaluate(value: Value<'_, '_>, depth: usize) -> Option<i64> {
    if let Some(constant) = constant_index(value) {
        return Some(constant);
    }
    // Deeper trees are not what a schedule builds.
    if depth > 16 {
        return None;
    }
    let owner = op_result(value).ok()?.owner();
    let operand = |n| owner.operand(n).ok().and_then(|v| evaluate(v, depth + 1));
    let unsigned = |n| operand(n).filter(|&v| v >= 0);
    match op_name(&owner).as_str() {
        "arith.index_cast" | "arith.index_castui" => operand(0),
        "arith.addi" => operand(0)?.checked_add(operand(1)?),
        "arith.subi" => operand(0)?.checked_sub(operand(1)?),
        "arith.muli" => operand(0)?.checked_mul(operand(1)?),
        "arith.divui" => unsigned(0)?.checked_div(unsigned(1)?),
        "arith.remui" => unsigned(0)?.checked_rem(unsigned(1)?),
        "arith.ceildivui" => {
            let (n, d) = (unsigned(0)? as u64, unsigned(1)? as u64);
            (d != 0).then(|| n.div_ceil(d) as i64)
        }
        "arith.minui" => Some(unsigned(0)?.min(unsigned(1)?)),
        "arith.maxui" => Some(unsigned(0)?.max(unsigned(1)?)),
        "arith.maxsi" => Some(operand(0)?.max(operand(1)?)),
        _ => None,
    }
}

/// `value` as a linear combination of opaque terms (sorted by key, see
/// `axis::key`, each with its coefficient, none zero) plus a constant,
/// looking through `arith.addi`, `arith.subi` and `arith.muli` by a
/// constant: two indices with the same terms are a constant apart,
/// whatever the terms are at run time (`base + 128` against `base`, as an
/// unrolled feature loop addresses its chunks; `(4 i + 1) * 32 + t`
/// against `128 i + t`, as the rows of an unrolled block do).
pub fn offset_form(value: Value<'_, '_>) -> (Vec<(usize, i64)>, i64) {
    let mut terms = std::collections::BTreeMap::new();
    let constant = linear_terms(value, 1, 0, &mut terms).unwrap_or_else(|| {
        terms = [(crate::axis::key(value), 1)].into();
        0
    });
    (terms.into_iter().filter(|&(_, coefficient)| coefficient != 0).collect(), constant)
}

/// Adds `scale * value` to `terms`; returns its constant part, or `None`
/// where a coefficient or the constant would overflow.
fn linear_terms(
    value: Value<'_, '_>,
    scale: i64,
    depth: usize,
    terms: &mut std::collections::BTreeMap<usize, i64>,
) -> Option<i64> {
    if let Some(constant) = constant_index(value) {
        return constant.checked_mul(scale);
    }
    let owner = op_result(value).ok().map(|r| r.owner());
    let kind = owner.as_ref().map(op_name).unwrap_or_default();
    let operand = |n| owner.as_ref().and_then(|o| o.operand(n).ok());
    let factor = |n| operand(n).and_then(constant_index);
    match kind.as_str() {
        "arith.addi" if depth < 16 => {
            let left = linear_terms(operand(0)?, scale, depth + 1, terms)?;
            left.checked_add(linear_terms(operand(1)?, scale, depth + 1, terms)?)
        }
        "arith.subi" if depth < 16 => {
            let left = linear_terms(operand(0)?, scale, depth + 1, terms)?;
            left.checked_add(linear_terms(operand(1)?, scale.checked_neg()?, depth + 1, terms)?)
        }
        "arith.muli" if depth < 16 && (factor(0).is_some() || factor(1).is_some()) => {
            let (other, by) = match factor(1) {
                Some(by) => (operand(0)?, by),
                None => (operand(1)?, factor(0)?),
            };
            linear_terms(other, scale.checked_mul(by)?, depth + 1, terms)
        }
        _ => {
            let coefficient = terms.entry(crate::axis::key(value)).or_insert(0);
            *coefficient = coefficient.checked_add(scale)?;
            Some(0)
        }
    }
}

/// The op's name, e.g. `scf.for`.
pub fn op_name(op: &OperationRef<'_, '_>) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// Whether a symbol op (a `func.func`) is private: only its module uses it.
pub fn is_private(op: &OperationRef<'_, '_>) -> bool {
    op.attribute("sym_visibility")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .is_some_and(|v| v.value() == "private")
}

/// The symbol a symbol op (a `func.func`) defines, its `sym_name`.
pub fn symbol_name(op: &OperationRef<'_, '_>) -> Option<String> {
    let name = op.attribute("sym_name").ok()?;
    melior::ir::attribute::StringAttribute::try_from(name).ok().map(|s| s.value().to_string())
}

/// The `func.func` a `func.call` calls: the one of its callee's name in
/// the call's enclosing module. `None` for other ops and unknown callees.
pub fn callee<'c>(call: OperationRef<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    let attribute = call.attribute("callee").ok()?;
    let name = melior::ir::attribute::FlatSymbolRefAttribute::try_from(attribute).ok()?.value().to_string();
    let module = enclosing(call, &["builtin.module"])?;
    let body = melior::ir::RegionLike::first_block(&module.region(0).ok()?)?;
    block_ops(&body).into_iter().find(|op| op_name(op) == "func.func" && symbol_name(op).as_deref() == Some(&name))
}

/// The fast-math flags of an `arith` op, as printed inside
/// `#arith.fastmath<...>` (`nnan`, `contract`, `fast`); none for `none`
/// or an op without them.
pub fn fast_math_flags(op: &OperationRef<'_, '_>) -> Vec<String> {
    let printed = op.attribute("fastmath").map(|a| a.to_string()).unwrap_or_default();
    let listed = printed.trim_start_matches("#arith.fastmath<").trim_end_matches('>');
    listed.split(',').map(str::trim).filter(|f| !f.is_empty() && *f != "none").map(str::to_string).collect()
}

/// Whether `if_op` has no else branch, or an empty one.
pub fn empty_else(if_op: OperationRef<'_, '_>) -> bool {
    if_op
        .region(1)
        .ok()
        .and_then(|r| melior::ir::RegionLike::first_block(&r))
        .is_none_or(|b| b.first_operation() == b.terminator())
}

/// Whether `value` is defined outside `op` (by an op or block before it),
/// so that it is known before `op` runs: its defining op, or the op whose
/// region holds the block it is an argument of, is neither `op` nor nested
/// in it. Walks up from the definition, not through `op`.
pub fn defined_outside(value: Value<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    let definer: Option<OperationRef> = if let Ok(result) = op_result(value) {
        Some(unsafe { OperationRef::from_raw(result.owner().to_raw()) })
    } else if let Ok(argument) = block_argument(value) {
        argument.owner().parent_operation().map(|parent| unsafe { OperationRef::from_raw(parent.to_raw()) })
    } else {
        None
    };
    match definer {
        Some(definer) => definer != op && !encloses(op, definer),
        None => true,
    }
}

/// Ops that may run where the program would not have run them (before a
/// loop, outside a guard): they only compute, and cannot trap.
pub fn speculatable(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    // A division runs anywhere only by a known divisor: never 0, nor -1
    // where it is signed (INT_MIN / -1 overflows).
    let divisor = || op.operand(1).ok().and_then(constant_index);
    match name.as_str() {
        "arith.divui" | "arith.remui" | "arith.ceildivui" | "index.divu" | "index.remu" | "index.ceildivu" => {
            return divisor().is_some_and(|d| d != 0);
        }
        "arith.divsi" | "arith.remsi" | "arith.ceildivsi" | "arith.floordivsi" | "index.divs" | "index.rems"
        | "index.ceildivs" | "index.floordivs" => return divisor().is_some_and(|d| d != 0 && d != -1),
        _ => {}
    }
    op.region_count() == 0
        && (name.starts_with("arith.")
            || name.starts_with("index.")
            || name == "memref.extract_aligned_pointer_as_index")
}

/// Whether `op` or an op inside it takes `memref`, calls a function (which
/// may), or holds a point where threads meet (see `holds_sync`): what a
/// value stored to `memref` must not cross to be forwarded past it.
pub fn touches_memref_or_syncs(op: OperationRef<'_, '_>, memref: Value<'_, '_>) -> bool {
    let mut touches = holds_sync(op);
    op.walk(WalkOrder::PreOrder, |inner| {
        touches |= inner.operands().any(|v| v == memref) || op_name(&inner) == "func.call";
        if touches {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    touches
}

/// Whether `op` holds a point that threads must reach together: a
/// `gpu.barrier`, a `gpu.subgroup_reduce`, or a store that will become
/// one (marked `sptir.shuffle`), of more than one lane (a cluster of one
/// folds away).
pub fn holds_sync(op: OperationRef<'_, '_>) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        let name = inner.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        let lanes = |attribute: &str| {
            let attribute = inner.attribute(attribute).ok()?;
            melior::ir::attribute::IntegerAttribute::try_from(attribute).ok().map(|a| a.value())
        };
        found |= name == "gpu.barrier"
            || (name == "gpu.subgroup_reduce" && lanes("cluster_size") != Some(1))
            || (inner.has_attribute(crate::lower_loop_bindings::SHUFFLE)
                && lanes(crate::lower_loop_bindings::SHUFFLE) != Some(1));
        if found {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// Why `value`, used as `what` (an axis, a buffer), is not defined by
/// `expected`: a function's parameter is named as such (a helper that
/// takes axes or buffers must be inlined where they are defined).
pub fn not_defined_by(value: Value<'_, '_>, what: &str, expected: &str) -> String {
    if let Ok(argument) = block_argument(value) {
        let function = argument.owner().parent_operation().filter(|p| op_name(p) == "func.func");
        if let Some(name) = function.as_ref().and_then(symbol_name) {
            // A public function stays after inlining, for callers outside.
            let public = function.as_ref().is_some_and(|f| !is_private(f));
            let keep = if public {
                format!("; @{name} is public, so it stays after that: make it private")
            } else {
                String::new()
            };
            return format!(
                "{what} is parameter #{} of @{name}, not defined by {expected}: axes and buffers exist only where they are defined, so a function taking them must be inlined into its callers first (MLIR's `inline` pass){keep}",
                argument.argument_number()
            );
        }
    }
    format!("{what} is not defined by {expected}")
}

/// Whether `value` may differ between the threads of a `gpu.launch` block:
/// whether a thread id (launch body arguments 3 to 5, or the position of a
/// loop bound to threadIdx before `lower-loop-bindings`) reaches it, through
/// arithmetic, loads, loop bounds. Values carried by loops, yielded by
/// branches or returned by other ops (atomics) count as differing.
pub fn thread_dependent(value: Value<'_, '_>) -> bool {
    depends_on_launch_ids(value, 3..6)
}

/// Whether `value` may differ between threads whose launch body arguments
/// `ids` differ (3 to 5 are the thread ids x, y, z), as
/// [`thread_dependent`] decides it.
pub fn depends_on_launch_ids(value: Value<'_, '_>, ids: std::ops::Range<usize>) -> bool {
    let mut pending = vec![crate::axis::detach(value)];
    // Unrolled sums are chains of hundreds of values: a list would make
    // each query quadratic in them.
    let mut seen = std::collections::HashSet::new();
    while let Some(value) = pending.pop() {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        if let Ok(argument) = block_argument(value) {
            let Some(parent) = argument.owner().parent_operation() else { continue };
            let name = op_name(&parent);
            let number = argument.argument_number();
            if name == "gpu.launch" {
                if ids.contains(&number) {
                    return true;
                }
            } else if name == "scf.for" && number == 0 {
                // Before lower-loop-bindings, a loop bound to an id is that id.
                if crate::lower_loop_bindings::binding(&parent).is_some_and(|d| ids.contains(&d)) {
                    return true;
                }
                pending.extend(parent.operands().map(crate::axis::detach));
            } else if name != "func.func" {
                return true;
            }
        } else if let Ok(result) = op_result(value) {
            // Arithmetic and reads give every thread the same value for the
            // same operands; anything else (an atomic's old value, say) may
            // not.
            let owner = result.owner();
            let name = op_name(&owner);
            // Host code (a buffer allocated before the launch) gives every
            // thread the same value for the same operands, too.
            let host = !inside_device_code(owner) && !name.starts_with("gpu.");
            let same_for_same_operands = owner.region_count() == 0
                && (host
                    || name.starts_with("arith.")
                    || name.starts_with("index.")
                    || name.starts_with("math.")
                    || matches!(
                        name.as_str(),
                        "memref.load" | "memref.dim" | "vector.load" | "memref.extract_aligned_pointer_as_index"
                    ));
            if !same_for_same_operands {
                return true;
            }
            pending.extend(owner.operands().map(crate::axis::detach));
        }
    }
    false
}

/// Whether `op` lies in the body of a `gpu.launch` or a `gpu.func`.
fn inside_device_code(op: OperationRef<'_, '_>) -> bool {
    enclosing(op, &["gpu.launch", "gpu.func"]).is_some()
}

/// The function that holds `op`.
pub fn enclosing_function<'c>(op: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    enclosing(op, &["func.func"])
}

/// The innermost op around `op` named one of `names`.
pub fn enclosing<'c>(op: OperationRef<'c, '_>, names: &[&str]) -> Option<OperationRef<'c, 'c>> {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if names.contains(&op_name(&parent).as_str()) {
            return Some(unsafe { OperationRef::from_raw(parent.to_raw()) });
        }
        current = parent.parent_operation();
    }
    None
}

/// The sizes of a memref type whose every dimension is static.
pub fn static_shape(r#type: melior::ir::r#type::MemRefType<'_>) -> Option<Vec<i64>> {
    use melior::ir::r#type::{DimSize, ShapedTypeLike};
    (0..r#type.rank())
        .map(|d| match r#type.dim_size(d) {
            Ok(DimSize::Static(size)) => Some(size as i64),
            _ => None,
        })
        .collect()
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

/// For `store (load m[i] + v), m[i]` (an `arith.addf` or `arith.addi`, in
/// either order; `memref` ops, or `sparse_pos` ones at stage II): the load
/// and `v`.
pub fn accumulation<'c>(store: OperationRef<'c, '_>) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>)> {
    reduction(store).filter(|(_, _, reduction)| reduction.is_addition()).map(|(load, v, _)| (load, v))
}

/// For `store combine(load m[i], v), m[i]` with `combine` a [`Reduction`]
/// (a sum, maximum or minimum; in either order; `memref` ops, or
/// `sparse_pos` ones at stage II): the load, `v` and the reduction. The
/// updates threads can share, atomically or by shuffles.
pub fn reduction<'c>(store: OperationRef<'c, '_>) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>, Reduction)> {
    let (load, v, combined) = update(store, |op| Reduction::of(op).is_some())?;
    Some((load, v, Reduction::of(&combined)?))
}

/// `reduction`, where nothing but the combining op reads the old value:
/// positions that update the element at once (atomically, or in a warp
/// shuffle) leave no one old value for another use to see (`W += e;
/// Z += W` reads each partial W).
pub fn shared_reduction<'c>(store: OperationRef<'c, '_>) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>, Reduction)> {
    reduction(store).filter(|(load, _, _)| load.result(0).is_ok_and(|old| use_count(old.into()) == 1))
}

/// `shared_reduction` whose load `within` encloses: each position of the
/// loop reads the element afresh. One read before the loop makes each
/// position overwrite the element with that value combined with its term,
/// the last winning, which no reduction across positions reproduces.
pub fn reduction_within<'c>(
    store: OperationRef<'c, '_>,
    within: OperationRef<'_, '_>,
) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>, Reduction)> {
    shared_reduction(store).filter(|(load, _, _)| encloses(within, *load))
}

/// Whether `store` writes `combine(load m[i], v)` back to `m[i]` with a
/// `combine` whose order does not matter (a sum, a product, a maximum, a
/// minimum, a bitwise and, or, xor): positions that update one element in
/// another order leave it the same, floating-point rounding aside.
pub fn order_free_update(store: OperationRef<'_, '_>) -> bool {
    const COMMUTATIVE: [&str; 15] = [
        "arith.addf",
        "arith.addi",
        "arith.mulf",
        "arith.muli",
        "arith.maximumf",
        "arith.minimumf",
        "arith.maxnumf",
        "arith.minnumf",
        "arith.maxsi",
        "arith.minsi",
        "arith.maxui",
        "arith.minui",
        "arith.andi",
        "arith.ori",
        "arith.xori",
    ];
    update(store, |op| COMMUTATIVE.contains(&op_name(op).as_str())).is_some()
}

/// For `store combine(load m[i], v), m[i]` with `combine` an op that
/// `combines` accepts, in either order, and `v` computed without reading
/// m[i]: the load, `v` and the combining op.
#[allow(clippy::type_complexity)]
fn update<'c>(
    store: OperationRef<'c, '_>,
    combines: impl Fn(&OperationRef<'c, 'c>) -> bool,
) -> Option<(OperationRef<'c, 'c>, Value<'c, 'c>, OperationRef<'c, 'c>)> {
    load_name_of(store)?;
    let combined = op_result(crate::axis::detach(store.operand(0).ok()?)).ok()?.owner();
    let combined: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(combined.to_raw()) };
    if !combines(&combined) {
        return None;
    }
    let load_here = |v: Value<'c, 'c>| load_of_stored_element(store, v);
    let (a, b) = (crate::axis::detach(combined.operand(0).ok()?), crate::axis::detach(combined.operand(1).ok()?));
    let (load, v) = match (load_here(a), load_here(b)) {
        (Some(load), _) => (load, b),
        (None, Some(load)) => (load, a),
        _ => return None,
    };
    // `v` must not read the element itself: `Y + Y * w` combines Y with
    // what Y held, not with a term of its own.
    (!reads_stored_element(store, v)).then_some((load, v, combined))
}

/// Whether computing `value` reads the element `store` writes (`memref`,
/// `sparse_pos` or `sparse_iter` ops).
pub fn reads_stored_element(store: OperationRef<'_, '_>, value: Value<'_, '_>) -> bool {
    let Some(load_name) = load_name_of(store) else { return false };
    let place: Vec<Value> = store.operands().skip(1).map(crate::axis::detach).collect();
    computed_through(crate::axis::detach(value), |op| {
        op_name(&op) == load_name && op.operands().map(crate::axis::detach).collect::<Vec<_>>() == place
    })
}

/// The load that pairs with `store` (`memref`, `sparse_pos` or
/// `sparse_iter` ops).
fn load_name_of(store: OperationRef<'_, '_>) -> Option<&'static str> {
    match op_name(&store).as_str() {
        "memref.store" => Some("memref.load"),
        "sparse_pos.store" => Some("sparse_pos.load"),
        "sparse_iter.store" => Some("sparse_iter.load"),
        _ => None,
    }
}

/// The load that defines `value`, if it reads the element `store` writes.
pub fn load_of_stored_element<'c>(store: OperationRef<'_, '_>, value: Value<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    let load_name = load_name_of(store)?;
    let place: Vec<Value> = store.operands().skip(1).map(crate::axis::detach).collect();
    let load = op_result(value).ok()?.owner();
    let read: Vec<Value> = load.operands().map(crate::axis::detach).collect();
    (op_name(&load) == load_name && read == place).then(|| unsafe { OperationRef::from_raw(load.to_raw()) })
}

/// arith's AtomicRMWKind values: `addf` is 0, `addi` 1, `maxs` 6.
pub const ATOMIC_ADDF: i64 = 0;
pub const ATOMIC_ADDI: i64 = 1;
pub const ATOMIC_MAXS: i64 = 6;

/// For a `memref.atomic_rmw` that adds: `Some(true)` for floats (`addf`),
/// `Some(false)` for integers (`addi`); `None` for other kinds.
pub fn atomic_add_kind(op: OperationRef<'_, '_>) -> Option<bool> {
    let kind = op.attribute("kind").ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())?;
    match kind.value() {
        ATOMIC_ADDF => Some(true),
        ATOMIC_ADDI => Some(false),
        _ => None,
    }
}

/// The ops at or under `root`, in `order`, for which `wanted` holds:
/// passes collect first and rewrite after, since rewriting during a walk
/// would invalidate it.
pub fn ops_where<'c>(
    root: OperationRef<'c, '_>,
    order: WalkOrder,
    mut wanted: impl FnMut(OperationRef<'c, 'c>) -> bool,
) -> Vec<OperationRef<'c, 'c>> {
    let mut found = Vec::new();
    root.walk(order, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if wanted(op) {
            found.push(op);
        }
        WalkResult::Advance
    });
    found
}

/// Whether `op` is nested in the `then` region of `guard` (an `scf.if`).
pub fn in_then(guard: OperationRef<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    let Ok(then) = guard.region(0) else { return false };
    let mut current = unsafe { OperationRef::from_raw(op.to_raw()) };
    loop {
        let Some(parent) = current.parent_operation() else { return false };
        if parent == guard {
            return current.block().and_then(|b| b.parent_region()).is_some_and(|r| r == then);
        }
        current = unsafe { OperationRef::from_raw(parent.to_raw()) };
    }
}

/// The ops under `root` that carry the attribute `marker`, outermost
/// first.
pub fn marked_ops<'c>(root: OperationRef<'c, '_>, marker: &str) -> Vec<OperationRef<'c, 'c>> {
    ops_where(root, WalkOrder::PreOrder, |op| op.has_attribute(marker))
}

/// The lane counts a warp shuffle adds over: powers of two up to a warp.
pub const LANE_CLUSTERS: [i64; 6] = [1, 2, 4, 8, 16, 32];

/// For a `gpu.subgroup_reduce` over contiguous clusters of lanes (stride
/// 1, a size in `LANE_CLUSTERS`, a whole warp when unset) by a
/// [`Reduction`]: the cluster size and the reduction. `None` for any other
/// op or reduction.
pub fn lane_cluster_reduction(op: OperationRef<'_, '_>) -> Option<(i64, Reduction)> {
    if op_name(&op) != "gpu.subgroup_reduce" {
        return None;
    }
    let integer = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
    };
    // Of the result: emulation swaps the operand for a scratch memref.
    let element = crate::accumulation_chain::scalar_type(op.result(0).ok()?.r#type());
    // Printed `#gpu<all_reduce_op maxnumf>`.
    let printed = op.attribute("op").ok()?.to_string();
    let name = printed.strip_prefix("#gpu<all_reduce_op ")?.strip_suffix('>')?;
    let reduction = Reduction::of_subgroup_op(name, element)?;
    let cluster = integer("cluster_size").unwrap_or(32);
    (integer("cluster_stride").unwrap_or(1) == 1 && LANE_CLUSTERS.contains(&cluster)).then_some((cluster, reduction))
}

/// Whether a warp shuffle moves values of this type: `f32` or a 32-bit
/// integer.
pub fn is_32_bit_scalar(r#type: melior::ir::Type<'_>) -> bool {
    use melior::ir::r#type::TypeLike;
    r#type.is_f32() || melior::ir::r#type::IntegerType::try_from(r#type).is_ok_and(|i| i.width() == 32)
}

/// The `scf.for` ops under `root` that carry the attribute `marker`,
/// innermost first.
pub fn marked_loops<'c>(root: OperationRef<'c, '_>, marker: &str) -> Vec<OperationRef<'c, 'c>> {
    ops_where(root, WalkOrder::PostOrder, |op| op_name(&op) == "scf.for" && op.has_attribute(marker))
}

/// The ops of a block but its terminator.
pub fn block_ops<'c>(block: &impl melior::ir::block::BlockLike<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation().map(|o| unsafe { OperationRef::<'c, 'c>::from_raw(o.to_raw()) });
    while let Some(op) = next {
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        if next.is_some() {
            ops.push(op);
        }
    }
    ops
}

/// How many operands use `value`.
pub fn use_count(value: Value<'_, '_>) -> usize {
    users(value).len()
}

/// The op of each operand that uses `value` (an op using it twice is
/// listed twice).
pub fn users<'c>(value: Value<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut users = Vec::new();
    let mut operand = unsafe { mlir_sys::mlirValueGetFirstUse(value.to_raw()) };
    while !unsafe { mlir_sys::mlirOpOperandIsNull(operand) } {
        users.push(unsafe { OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)) });
        operand = unsafe { mlir_sys::mlirOpOperandGetNextUse(operand) };
    }
    users
}

/// Ops whose result memref looks into their first operand's memory.
pub const VIEWS: [&str; 6] = [
    "memref.cast",
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.view",
];

/// Whether an op inside `op` takes memory `memory` (a `root_memref` key).
pub fn touches_memory(op: OperationRef<'_, '_>, memory: usize) -> bool {
    use melior::ir::r#type::TypeLike;
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        found |= inner.operands().any(|v| v.r#type().is_mem_ref() && root_memref(v) == memory);
        if found {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// The memories (`root_memref` keys) that ops in `op` (a launch, say) take
/// other than loads, `memref.dim` and views: those it may write (a write
/// through a view takes the view, whose key is its memory's).
pub fn written_memrefs(op: OperationRef<'_, '_>) -> Vec<usize> {
    use melior::ir::r#type::TypeLike;
    let mut written = Vec::new();
    op.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if !matches!(name, "memref.load" | "vector.load" | "memref.dim") && !VIEWS.contains(&name) {
            written.extend(op.operands().filter(|v| v.r#type().is_mem_ref()).map(root_memref));
        }
        WalkResult::Advance
    });
    written
}

/// The memref a view op (or chain of them) looks into, as a key that is
/// equal for views of the same memory.
pub fn root_memref(value: Value<'_, '_>) -> usize {
    view_root(value).to_raw().ptr as usize
}

/// The view ops from `value` up to the memref they look into, nearest
/// first; empty if `value` is no view.
pub fn views<'c>(value: Value<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut views = Vec::new();
    let mut value = crate::axis::detach(value);
    while let Ok(result) = op_result(value) {
        let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(result.owner().to_raw()) };
        let view = owner.name().as_string_ref().as_str().is_ok_and(|name| VIEWS.contains(&name));
        // melior prints the whole op into the error of a missing operand:
        // asked of every access's memref, that was most of a compile.
        if !view || owner.operand_count() == 0 {
            break;
        }
        match owner.operand(0) {
            Ok(source) => value = crate::axis::detach(source),
            _ => break,
        }
        views.push(owner);
    }
    views
}

/// The memref a view op (or chain of them) looks into; `value` itself if
/// it is no view.
pub fn view_root<'c>(value: Value<'c, '_>) -> Value<'c, 'c> {
    match views(value).last().and_then(|view| view.operand(0).ok()) {
        Some(source) => crate::axis::detach(source),
        None => crate::axis::detach(value),
    }
}

/// Where an op or diagnostic points in its source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The file position a location stands for: the callee of a call site, the
/// child of a name, the first file position inside a fused location.
pub fn position(location: melior::ir::Location<'_>) -> Option<Position> {
    if location.is_file_line_col_range() {
        return Some(Position {
            file: location.file_line_col_range_filename().as_string_ref().as_str().ok()?.to_string(),
            line: location.file_line_col_range_start_line(),
            column: location.file_line_col_range_start_column(),
        });
    }
    if location.is_name() {
        return position(location.name_child_location());
    }
    if location.is_call_site() {
        return position(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations()).find_map(|index| position(location.fused_location(index)));
    }
    None
}

/// "the memref.store at line 3:5 and the memref.load at line 7:9" (the
/// module's file, which the diagnostic names).
/// An op a pass made under a name (a copy decompose-format made, which
/// shares its reader's position) says so.
pub fn describe_pair((a, b): (OperationRef<'_, '_>, OperationRef<'_, '_>)) -> String {
    let one = |op: OperationRef| {
        let made = location_name(op.location()).map_or(String::new(), |name| format!(" (in {name})"));
        match position(op.location()) {
            Some(at) => format!("the {} at line {}:{}{made}", op_name(&op), at.line, at.column),
            None => format!("a {}{made}", op_name(&op)),
        }
    };
    if a == b {
        return one(a);
    }
    format!("{} and {}", one(a), one(b))
}

/// The name a location gives what it points at (`loc("copy0, ..."(...))`,
/// a copy a pass made): the first name around its file position.
pub fn location_name(location: melior::ir::Location<'_>) -> Option<String> {
    if location.is_name() {
        return location.name_value().as_string_ref().as_str().ok().map(str::to_string);
    }
    if location.is_call_site() {
        return location_name(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations()).find_map(|index| location_name(location.fused_location(index)));
    }
    None
}

/// Ops that take a memref without touching its elements: they allocate,
/// free, describe or re-view it, or hand it on.
pub const ADDRESS_ONLY: &[&str] = &[
    "memref.alloc",
    "memref.dealloc",
    "memref.dim",
    "memref.rank",
    "memref.cast",
    "memref.subview",
    "memref.view",
    "memref.reinterpret_cast",
    "memref.extract_strided_metadata",
    "memref.extract_aligned_pointer_as_index",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.memory_space_cast",
    "memref.assume_alignment",
    "func.return",
    "func.call",
    "gpu.launch_func",
];

/// Whether `value` is known before `op` runs: defined outside it, or
/// arithmetic without side effects on such values (a split's chunk count,
/// `ceil(n / 4)`), which [`crate::ir_builder::hoist_before`] moves out.
/// Divisions only by non-zero constants: a copy runs even where `op`
/// would not have.
pub fn computable_before(value: Value<'_, '_>, op: OperationRef<'_, '_>) -> bool {
    if defined_outside(value, op) {
        return true;
    }
    let Ok(result) = op_result(value) else { return false };
    let owner = result.owner();
    let name = op_name(&owner);
    let divides = name.contains("div") || name.contains("rem");
    name.starts_with("arith.")
        && owner.region_count() == 0
        && (!divides || owner.operand(1).ok().and_then(constant_index).is_some_and(|d| d != 0))
        && owner.operands().all(|operand| computable_before(operand, op))
}

/// Whether `value` is computed from `base` (through the ops that define it
/// in the same region, conservatively: any block argument is a leaf).
pub fn depends_on<'c>(value: Value<'c, 'c>, base: Value<'c, 'c>) -> bool {
    value == base
        || computed_through(value, |owner| {
            let mut found = false;
            owner.walk(WalkOrder::PreOrder, |inner| {
                if inner.operands().any(|operand| operand == base) {
                    found = true;
                    return WalkResult::Interrupt;
                }
                WalkResult::Advance
            });
            found
        })
}

/// Whether an op that computes `value`, directly or through its operands
/// in the same region, is one `wanted` picks.
pub fn computed_through<'c>(value: Value<'c, 'c>, mut wanted: impl FnMut(OperationRef<'c, 'c>) -> bool) -> bool {
    // Each value once: a chain of `x + x` shares its operands, and walking
    // every path through it doubles at each link.
    let mut pending = vec![value];
    let mut seen = std::collections::HashSet::new();
    while let Some(value) = pending.pop() {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        let Ok(defined) = op_result(value) else { continue };
        let owner: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(defined.owner().to_raw()) };
        if wanted(owner) {
            return true;
        }
        pending.extend(owner.operands().map(crate::axis::detach));
    }
    false
}

/// The end of a "no ... labelled L" diagnostic: the labels that there are,
/// so that a misspelt one is easy to correct, or `none` when there are none.
pub fn label_choices(labels: impl IntoIterator<Item = String>, none: &str) -> String {
    let mut seen: Vec<String> = Vec::new();
    for label in labels {
        if !label.is_empty() && !seen.contains(&label) {
            seen.push(label);
        }
    }
    if seen.is_empty() {
        return format!("; {none}");
    }
    const SHOWN: usize = 16;
    let mut list: Vec<String> = seen.iter().take(SHOWN).map(|l| format!("\"{l}\"")).collect();
    if seen.len() > SHOWN {
        list.push(format!("and {} more", seen.len() - SHOWN));
    }
    format!("; the labels are {}", list.join(", "))
}

/// `OperationResult::try_from` without melior's error, which prints the
/// value (a block argument's whole op, regions and all) into its message:
/// asked of every value in a walk over unrolled kernels, that printing took
/// most of the compile time.
pub fn op_result<'c, 'a>(value: Value<'c, 'a>) -> Result<melior::ir::operation::OperationResult<'c, 'a>, ()> {
    match value.is_operation_result() {
        true => melior::ir::operation::OperationResult::try_from(value).map_err(|_| ()),
        false => Err(()),
    }
}

/// `BlockArgument::try_from` without melior's error, which prints the
/// value's defining op (an `scf.if` with both its branches, say).
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Result<melior::ir::block::BlockArgument<'c, 'a>, ()> {
    match value.is_block_argument() {
        true => melior::ir::block::BlockArgument::try_from(value).map_err(|_| ()),
        false => Err(()),
    }
}

/// The most bytes an allocation may ask for: more than any machine holds,
/// and little enough that sizes cannot wrap around when multiplied.
pub const MAX_ALLOCATION_BYTES: i64 = 1 << 47;

/// How many bytes apart a memref's elements of `r#type` lie, as LLVM lays
/// them out: integers and floats round up to a power of two bytes, an
/// index is 64 bits, a complex number is two parts, a vector its lanes
/// rounded up to a power of two.
pub fn byte_size(r#type: melior::ir::Type<'_>) -> Option<i64> {
    use melior::ir::{Type, TypeLike};
    let raw = r#type.to_raw();
    let bits = |bits: u32| Some(i64::from(bits.div_ceil(8).next_power_of_two()));
    unsafe {
        if r#type.is_index() {
            Some(8)
        } else if mlir_sys::mlirTypeIsAInteger(raw) {
            bits(mlir_sys::mlirIntegerTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            bits(mlir_sys::mlirFloatTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAComplex(raw) {
            byte_size(Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw))).map(|part| 2 * part)
        } else if mlir_sys::mlirTypeIsAVector(raw) {
            let lanes: i64 = crate::accumulation_chain::vector_shape(r#type)?.iter().product();
            let lane = byte_size(crate::accumulation_chain::scalar_type(r#type))?;
            i64::try_from(u64::try_from(lanes * lane).ok()?.max(1).next_power_of_two()).ok()
        } else {
            None
        }
    }
}

/// The stage II label a stage III loop keeps (`sptir.label`, from
/// lower-sparse-buffer), if any.
pub fn stage3_label(op: OperationRef<'_, '_>) -> Option<String> {
    op.attribute("sptir.label")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
}
