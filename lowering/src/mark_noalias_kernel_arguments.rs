//! `mark-noalias-kernel-arguments`: a GPU kernel's buffers reach it as
//! plain pointers, which LLVM must assume may point into one another: a
//! store to C might change B, so each load of B stays behind every earlier
//! store, and no load may use the read-only data cache (`ld.global.nc`,
//! CUDA's `__ldg`), which is only right for memory nothing writes while
//! the kernel runs. Where every launch of a kernel passes a buffer argument
//! memory that no other argument of that launch may share (each a
//! different parameter or allocation of the host function; a global, a
//! view, a value chosen or carried at run time may share), its aligned
//! pointer becomes `noalias`, as CUDA's `__restrict__`
//! would make it: LLVM then reads the buffers the kernel does not write
//! through the read-only cache, and moves loads past stores. A buffer the
//! kernel only reads also becomes `readonly`: LLVM would find that itself,
//! but not for a pointer whose address the alignment tests of vector
//! loads take (`ptrtoint`), and without it no load of the buffer, its
//! 16-byte vector loads included, uses the read-only cache.
//!
//! The host function's buffer parameters are taken not to overlap (the
//! convention of sptir's kernels, whose callers pass distinct arrays),
//! unless a call in the module passes it memory that may.
//!
//! Runs after `convert-gpu-to-nvvm`, on the kernels' `llvm.func`s, while
//! the host still launches them with memrefs (`gpu.launch_func`): a memref
//! argument of rank r is 3 + 2r parameters, the allocated pointer, the
//! aligned pointer, the offset, the sizes and the strides.

use crate::{
    axis::key,
    ir_query::{op_name, symbol_name, users, view_root},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, Attribute, DenseI32ArrayAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
        r#type::{MemRefType, ShapedTypeLike},
        RegionLike, TypeLike, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

pub const PASS: PassDef = PassDef {
    name: "MarkNoaliasKernelArguments",
    argument: "mark-noalias-kernel-arguments",
    description: "Make the pointers of a GPU kernel's buffer arguments noalias where no launch passes two arguments that share memory (reads through the read-only cache, loads moved past stores)",
    options: &[],
    dependent_dialects: "llvm",
    run,
};

const NOALIAS: &str = "llvm.noalias";
const READONLY: &str = "llvm.readonly";

/// `gpu.launch_func`'s operand groups, in order: async dependencies, grid
/// and block sizes (3 + 3), cluster sizes (3), dynamic shared memory, the
/// kernel's operands, an async object.
const KERNEL_OPERANDS_GROUP: usize = 11;
const GROUPS: usize = 13;

/// What the launches of one kernel pass: each operand's rank if a memref,
/// and whether it had memory of its own at every launch.
struct Launches {
    ranks: Vec<Option<usize>>,
    own: Vec<bool>,
}

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let mut launches: HashMap<(String, String), Launches> = HashMap::new();
    let mut kernels = Vec::new();
    let mut callers = Callers { calls: HashMap::new(), taken: Vec::new() };
    let mut launch_ops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let op: OperationRef<'_, '_> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let name =
            |attribute: &str| op.attribute(attribute).ok().map(|a| a.to_string().trim_start_matches('@').to_string());
        match op_name(&op).as_str() {
            "func.call" => {
                if let Some(callee) = name("callee") {
                    callers.calls.entry(callee).or_default().push(op);
                }
            }
            "func.constant" => callers.taken.extend(name("value")),
            "gpu.launch_func" => launch_ops.push(op),
            "llvm.func" if op.has_attribute("gpu.kernel") => kernels.push(op),
            _ => {}
        }
        WalkResult::Advance
    });
    // Every call is known before any launch is judged.
    for (name, operands) in launch_ops.into_iter().filter_map(launch) {
        let ranks: Vec<Option<usize>> =
            operands.iter().map(|v| MemRefType::try_from(v.r#type()).ok().map(|t| t.rank())).collect();
        let memrefs: Vec<Option<Value>> = operands.iter().map(|v| v.r#type().is_mem_ref().then_some(*v)).collect();
        let own: Vec<bool> = memrefs
            .iter()
            .enumerate()
            .map(|(n, memref)| {
                memref.is_some_and(|a| {
                    memrefs
                        .iter()
                        .enumerate()
                        .all(|(m, other)| m == n || other.is_none_or(|b| !may_meet(a, b, &callers, 0)))
                })
            })
            .collect();
        let seen = launches.entry(name).or_insert_with(|| Launches { ranks: ranks.clone(), own: own.clone() });
        if seen.ranks == ranks {
            seen.own.iter_mut().zip(&own).for_each(|(all, &this)| *all &= this);
        } else {
            seen.own.iter_mut().for_each(|all| *all = false);
        }
    }
    for kernel in kernels {
        let Some(module) = kernel.parent_operation().and_then(|m| symbol_name(&m)) else { continue };
        let Some(function) = symbol_name(&kernel) else { continue };
        if let Some(launched) = launches.get(&(module, function)) {
            mark(context, kernel, launched)?;
        }
    }
    Ok(())
}

/// Where a memref's memory comes from, where that is known.
enum Origin {
    /// An allocation made here (two of them are one only as one value,
    /// which `may_meet` asks first).
    Allocation,
    /// A parameter of a function: its name and position.
    Parameter(String, usize),
}

fn origin(root: Value<'_, '_>) -> Option<Origin> {
    if let Ok(result) = crate::ir_query::op_result(root) {
        let allocation = matches!(op_name(&result.owner()).as_str(), "memref.alloc" | "memref.alloca" | "gpu.alloc");
        return allocation.then_some(Origin::Allocation);
    }
    let argument = crate::ir_query::block_argument(root).ok()?;
    let function = argument.owner().parent_operation().filter(|f| op_name(f) == "func.func")?;
    Some(Origin::Parameter(symbol_name(&function)?, argument.argument_number()))
}

/// The calls in the module to each function, and the functions whose
/// address is taken (`func.constant`), whose callers are unknown.
struct Callers<'c> {
    calls: HashMap<String, Vec<OperationRef<'c, 'c>>>,
    taken: Vec<String>,
}

/// Whether memrefs `a` and `b` may share memory. They do not only where
/// both are known apart: two allocations made here, an allocation and a
/// parameter, or two parameters of one function that no call in the
/// module passes memory that may meet (a caller outside the module
/// passes separate buffers). Anything else may: views of one memref,
/// globals, values chosen or carried at run time, a call's results.
fn may_meet(a: Value<'_, '_>, b: Value<'_, '_>, callers: &Callers<'_>, depth: usize) -> bool {
    let (a, b) = (view_root(a), view_root(b));
    if key(a) == key(b) {
        return true;
    }
    match (origin(a), origin(b)) {
        (Some(Origin::Allocation), Some(_)) | (Some(_), Some(Origin::Allocation)) => false,
        (Some(Origin::Parameter(f, i)), Some(Origin::Parameter(g, j))) if f == g => {
            depth > 8
                || callers.taken.contains(&f)
                || callers.calls.get(&f).is_some_and(|sites| {
                    sites.iter().any(|call| match (call.operand(i), call.operand(j)) {
                        (Ok(x), Ok(y)) => may_meet(x, y, callers, depth + 1),
                        _ => true,
                    })
                })
        }
        _ => true,
    }
}

/// The kernel a launch names (its module and function) and the operands
/// it passes.
fn launch<'c>(op: OperationRef<'c, '_>) -> Option<((String, String), Vec<Value<'c, 'c>>)> {
    let kernel = op.attribute("kernel").ok()?.to_string();
    // `@module::@function`
    let (module, function) = kernel.split_once("::")?;
    let name = (module.trim_start_matches('@').to_string(), function.trim_start_matches('@').to_string());
    let groups = DenseI32ArrayAttribute::try_from(op.attribute("operandSegmentSizes").ok()?).ok()?;
    if groups.len() != GROUPS {
        return None;
    }
    let sizes: Vec<usize> = (0..GROUPS).map(|g| groups.element(g).ok().map_or(0, |s| s.max(0) as usize)).collect();
    let first: usize = sizes[..KERNEL_OPERANDS_GROUP].iter().sum();
    let operands = (first..first + sizes[KERNEL_OPERANDS_GROUP])
        .map(|n| op.operand(n).map(|v| unsafe { Value::from_raw(v.to_raw()) }))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    Some((name, operands))
}

/// Puts `llvm.noalias` on the aligned pointer of each memref operand that
/// had memory of its own at every launch.
fn mark<'c>(context: &'c Context, kernel: OperationRef<'c, 'c>, launched: &Launches) -> Result<(), PassFailed> {
    let arguments: Vec<Value<'c, 'c>> = kernel
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .map(|b| (0..b.argument_count()).filter_map(|n| b.argument(n).ok().map(Into::into)).collect())
        .unwrap_or_default();
    let parameters = arguments.len();
    let mut marked = vec![false; parameters];
    let mut at = 0;
    for (rank, &own) in launched.ranks.iter().zip(&launched.own) {
        match rank {
            Some(rank) => {
                if own && at + 1 < parameters {
                    marked[at + 1] = true;
                }
                at += 3 + 2 * rank;
            }
            None => at += 1,
        }
    }
    // The launch's operands must account for every parameter.
    if at != parameters || !marked.contains(&true) {
        return Ok(());
    }
    let read_only: Vec<bool> = arguments.iter().zip(&marked).map(|(&a, &noalias)| noalias && only_read(a)).collect();
    let existing = kernel.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok());
    let dictionaries: Vec<String> = (0..parameters)
        .map(|n| {
            let old =
                existing.as_ref().and_then(|a| a.element(n).ok()).map_or_else(|| "{}".to_string(), |d| d.to_string());
            let mut added = Vec::new();
            if marked[n] && !old.contains(NOALIAS) {
                added.push(NOALIAS);
            }
            if read_only[n] && !old.contains(READONLY) {
                added.push(READONLY);
            }
            match (added.is_empty(), old.as_str()) {
                (true, _) => old,
                (false, "{}") => format!("{{{}}}", added.join(", ")),
                (false, _) => format!("{{{}, {}", added.join(", "), &old[1..]),
            }
        })
        .collect();
    let text = format!("[{}]", dictionaries.join(", "));
    let attribute = Attribute::parse(context, &text)
        .ok_or_else(|| emit_error(kernel.location(), format!("mark-noalias-kernel-arguments: malformed {text}")))?;
    unsafe { OperationRefMut::from_raw(kernel.to_raw()) }.set_inherent_attribute("arg_attrs", attribute);
    Ok(())
}

/// Whether the kernel only reads through `pointer`: its uses, through
/// address arithmetic, are loads, and address tests (`ptrtoint`, for the
/// alignment test of vector loads) whose integers make no pointer again.
fn only_read(pointer: Value<'_, '_>) -> bool {
    users(pointer).into_iter().all(|user| match op_name(&user).as_str() {
        "llvm.load" => true,
        "llvm.ptrtoint" => user.results().all(|address| only_tested(address.into())),
        "llvm.getelementptr" | "llvm.addrspacecast" | "llvm.bitcast" => {
            // Only as the base: a pointer stored as a value escapes.
            user.operand(0).is_ok_and(|base| base == pointer) && user.results().all(|derived| only_read(derived.into()))
        }
        _ => false,
    })
}

/// Integer arithmetic that an address may go through in a test.
const ARITHMETIC: [&str; 13] = [
    "llvm.add",
    "llvm.sub",
    "llvm.mul",
    "llvm.and",
    "llvm.or",
    "llvm.xor",
    "llvm.urem",
    "llvm.srem",
    "llvm.udiv",
    "llvm.sdiv",
    "llvm.shl",
    "llvm.lshr",
    "llvm.trunc",
];

/// Whether the integer `address` only reaches comparisons (through
/// arithmetic), never `inttoptr` (the red.global.add of an atomic vector
/// addition is addressed so) or anything else.
fn only_tested(address: Value<'_, '_>) -> bool {
    users(address).into_iter().all(|user| {
        let name = op_name(&user);
        name == "llvm.icmp"
            || ARITHMETIC.contains(&name.as_str()) && user.results().all(|result| only_tested(result.into()))
    })
}
