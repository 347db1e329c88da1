//! `vectorize-atomic-adds`: on sm_90 and later (PTX ISA 8.1), the W scalar
//! atomic adds that `lower-atomic-accumulations` split from one aligned
//! f32 vector store (the first marked `sptir.vector_add = W`, W 2 or 4)
//! become one `red.global.add.vW.f32`: one memory transaction instead of
//! W (hyb and other schedules whose blocks share output rows).
//!
//! The marker says that the W elements start at a multiple of W, which
//! `vectorize-loops` checked before the vector store; the pass checks the
//! rest itself: W `memref.atomic_rmw addf` of f32, results unused, one
//! after the other with only arithmetic and `vector.extract` between, on
//! one 1-D global memref with the identity layout, at `i`, `i + 1`, ...
//! Anything else keeps its scalar atomics, which are equally correct. No
//! upstream op adds a vector atomically, so the reduction is inline PTX;
//! `memref.atomic_rmw` takes scalars only.

use crate::{
    axis::detach,
    ir_builder::{erase, Builder},
    ir_query::{atomic_add_kind, marked_ops, offset_form, op_name, outermost, use_count},
    pass_registry::{PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::{
        llvm::r#type::pointer,
        ods::{llvm, memref},
    },
    ir::{
        attribute::{IntegerAttribute, StringAttribute},
        operation::{OperationLike, OperationRef},
        r#type::{IntegerType, MemRefType, ShapedTypeLike, TypeLike},
        Attribute, Value, ValueLike,
    },
    Context,
};

/// Marks the first of the scalar atomic adds of one aligned vector: its
/// value is the number of lanes.
pub const VECTOR_ADD: &str = "sptir.vector_add";

pub const PASS: PassDef = PassDef {
    name: "VectorizeAtomicAdds",
    argument: "vectorize-atomic-adds",
    description: "On sm_90+, turn the scalar atomic adds of an aligned f32 vector (marked sptir.vector_add) into one red.global.add.vN.f32",
    options: &[],
    dependent_dialects: "arith,llvm,memref",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for module in outermost(root, |op| op_name(op) == "gpu.module") {
        if !has_vector_reductions(module) {
            continue;
        }
        for first in marked_ops(module, VECTOR_ADD) {
            if let Some((adds, values)) = group(first) {
                replace(context, &adds, &values);
            }
        }
    }
    Ok(())
}

/// Whether the module's NVVM target has `red.global.add.v4.f32`: sm_90 or
/// later with PTX ISA 8.1 or later.
fn has_vector_reductions(module: OperationRef<'_, '_>) -> bool {
    let Ok(targets) = module.attribute("targets") else { return false };
    let text = targets.to_string();
    let number_after = |key: &str| -> Option<u32> {
        let rest = &text[text.find(key)? + key.len()..];
        rest.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
    };
    text.starts_with("[#nvvm.target")
        && number_after("chip = \"sm_").is_some_and(|sm| sm >= 90)
        && number_after("+ptx").is_some_and(|ptx| ptx >= 81)
}

/// The W adds that start at `first` and the values they add, if they are
/// what the marker claims.
fn group<'c>(first: OperationRef<'c, 'c>) -> Option<(Vec<OperationRef<'c, 'c>>, Vec<Value<'c, 'c>>)> {
    let lanes = first.attribute(VECTOR_ADD).ok().and_then(|a| IntegerAttribute::try_from(a).ok())?.value();
    if !matches!(lanes, 2 | 4) {
        return None;
    }
    let memory = detach(first.operand(1).ok()?);
    let r#type = MemRefType::try_from(memory.r#type()).ok()?;
    let global = r#type.memory_space().is_none();
    if !global || r#type.rank() != 1 || !r#type.affine_map().is_identity() || !r#type.element().is_f32() {
        return None;
    }
    let (terms, start) = offset_form(detach(first.operand(2).ok()?));
    let mut adds = Vec::new();
    let mut next = Some(first);
    while let Some(op) = next {
        if adds.len() as i64 == lanes {
            break;
        }
        let name = op_name(&op);
        if name == "memref.atomic_rmw" {
            let lane = adds.len() as i64;
            let index = detach(op.operand(2).ok()?);
            let fits = atomic_add_kind(op) == Some(true)
                && detach(op.operand(1).ok()?) == memory
                && offset_form(index) == (terms.clone(), start + lane)
                && use_count(detach(op.result(0).ok()?.into())) == 0;
            if !fits {
                return None;
            }
            adds.push(op);
        } else if !(name.starts_with("arith.") || name == "vector.extract") || op.region_count() > 0 {
            return None;
        }
        next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
    }
    if adds.len() as i64 != lanes {
        return None;
    }
    let values = adds.iter().map(|op| op.operand(0).ok().map(detach)).collect::<Option<Vec<_>>>()?;
    Some((adds, values))
}

/// One `red.global.add.vW.f32` at the first add's element, in place of the
/// last add (where every value is defined), then the adds go.
fn replace<'c>(context: &'c Context, adds: &[OperationRef<'c, 'c>], values: &[Value<'c, 'c>]) {
    let (first, last) = (adds[0], adds[adds.len() - 1]);
    let location = first.location();
    let Some(builder) = Builder::before(context, last) else { return };
    let builder = builder.at(location);
    let (Ok(memory), Ok(index)) = (first.operand(1), first.operand(2)) else { return };
    let base = builder.value(memref::extract_aligned_pointer_as_index(
        context,
        builder.index_type(),
        detach(memory),
        location,
    ));
    let address = builder.add(base, builder.mul(detach(index), builder.index(4)));
    let address = builder.from_index(address, IntegerType::new(context, 64).into());
    let pointer = builder.value(llvm::inttoptr(context, pointer(context, 0), address, location));
    let lanes = values.len();
    let registers = (1..=lanes).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
    let code = format!("red.global.add.v{lanes}.f32 [$0], {{{registers}}};");
    let constraints = format!("l{},~{{memory}}", ",f".repeat(lanes));
    let mut operands = vec![pointer];
    operands.extend(values);
    builder.insert(
        llvm::InlineAsmOperation::builder(context, location)
            .operands(&operands)
            .asm_string(StringAttribute::new(context, &code))
            .constraints(StringAttribute::new(context, &constraints))
            .has_side_effects(Attribute::unit(context))
            .build(),
    );
    for &add in adds {
        erase(add);
    }
}
