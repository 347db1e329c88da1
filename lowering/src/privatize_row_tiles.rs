//! `privatize-row-tiles`: a shared tile (`memref.alloca {sptir.shared}`,
//! from `sparse-pos-cache-read`) that is used only inside one loop bound to
//! threadIdx.y or threadIdx.z gets one copy for each of that loop's
//! positions: `memref<E>` becomes `memref<N x E>`, indexed first by the
//! loop's position. With rows on threadIdx.y and each row's work on
//! threadIdx.x, the rows of a block then cache their own non-zeros side by
//! side, and only the threads of one row pass data through a copy, which
//! `synchronize-thread-loops` orders with a barrier of the row alone.
//!
//! The loop must run positions `0..N` with step 1, N a constant of at most
//! 1024 (a block's threads), and no other thread loop may enclose every
//! use (rows of rows would need a copy for each pair). Every use must be a
//! `memref.load` or `memref.store`. A tile that does not qualify is left as
//! it is: it stays one tile for the whole block.

use crate::{
    axis::detach,
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{constant_index, encloses, marked_ops, op_name, static_shape, users},
    lower_loop_bindings::{binding, is_for},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
    sparse_pos_cache_read::SHARED,
};
use melior::{
    dialect::memref,
    ir::{
        attribute::Attribute,
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        r#type::{MemRefType, ShapedTypeLike, TypeLike},
        RegionLike, Value, ValueLike,
    },
    Context,
};

pub const PASS: PassDef = PassDef {
    name: "PrivatizeRowTiles",
    argument: "privatize-row-tiles",
    description: "Give each position of a threadIdx.y/z loop its own copy of a shared tile used only inside it",
    options: &[],
    dependent_dialects: "memref",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for tile in marked_ops(root, SHARED).into_iter().filter(|op| op_name(op) == "memref.alloca") {
        if let Some(row) = row_loop(tile) {
            privatize(context, tile, row)?;
        } else if let Some(threads) = thread_loop_around(tile) {
            // Allocated for each position of a loop whose positions are a
            // block's threads: they would all share the block's one tile.
            let label =
                crate::ir_query::stage3_label(threads).map_or("a loop".to_string(), |l| format!("loop \"{l}\""));
            let dimension = crate::sparse_pos_bind::DIMENSIONS[binding(&threads).unwrap_or(3)];
            return Err(emit_error(
                tile.location(),
                format!("privatize-row-tiles: this buffer in scope \"shared\" is made anew at each position of {label}, bound to {dimension}, whose positions are threads of one block and would share the block's one copy of it. Each row gets a copy of its own only on threadIdx.y or z, with a constant count of rows and every use inside the row loop: split the rows by the rows a block takes (sparse-pos-split) and bind the inner loop; or allocate the buffer outside the loop"),
            ));
        }
    }
    Ok(())
}

/// The innermost loop around `tile` bound to a thread dimension.
fn thread_loop_around<'c>(tile: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    std::iter::successors(tile.parent_operation(), |op| op.parent_operation())
        .map(|op| unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) })
        .find(|op| is_for(op) && binding(op).is_some_and(|d| d >= 3))
}

/// The one thread loop around every use of `tile`, when it is bound to
/// threadIdx.y or z and runs `0..N` (N constant) with step 1.
fn row_loop<'c>(tile: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let uses = users(tile.result(0).ok()?.into());
    if uses.is_empty() || !uses.iter().all(|u| matches!(op_name(u).as_str(), "memref.load" | "memref.store")) {
        return None;
    }
    // A store's value may be the tile's own element, but never the tile.
    if uses.iter().any(|u| op_name(u) == "memref.store" && u.operand(0).is_ok_and(|v| v.r#type().is_mem_ref())) {
        return None;
    }
    let mut around = Vec::new();
    let mut current = uses[0].parent_operation();
    while let Some(op) = current {
        let op = unsafe { OperationRef::<'c, 'c>::from_raw(op.to_raw()) };
        if is_for(&op) && binding(&op).is_some_and(|d| d >= 3) && uses.iter().all(|&u| encloses(op, u)) {
            around.push(op);
        }
        current = op.parent_operation();
    }
    let [row] = around[..] else { return None };
    let bound = |n| row.operand(n).ok().map(detach).and_then(constant_index);
    let rows_only = matches!(binding(&row), Some(4 | 5));
    (rows_only && bound(0) == Some(0) && bound(2) == Some(1) && bound(1).is_some_and(|n| (1..=1024).contains(&n)))
        .then_some(row)
}

fn privatize<'c>(
    context: &'c Context,
    tile: OperationRef<'c, 'c>,
    row: OperationRef<'c, 'c>,
) -> Result<(), PassFailed> {
    let location = tile.location();
    let internal = || emit_error(location, "privatize-row-tiles: internal error");
    let old: Value<'c, 'c> = detach(tile.result(0).map_err(|_| internal())?.into());
    let r#type = MemRefType::try_from(old.r#type()).map_err(|_| internal())?;
    let Some(shape) = static_shape(r#type) else { return Ok(()) };
    let rows = row.operand(1).ok().map(detach).and_then(constant_index).ok_or_else(internal)?;
    let position: Value<'c, 'c> = detach(
        row.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok()).ok_or_else(internal)?.into(),
    );
    let private_type = MemRefType::new(r#type.element(), &[&[rows], &shape[..]].concat(), None, None);
    let builder = Builder::before(context, tile).ok_or_else(internal)?.at(location);
    let private = builder.insert(memref::alloca(context, private_type, &[], &[], None, location));
    unsafe { OperationRefMut::from_raw(private.to_raw()) }.set_discardable_attribute(SHARED, Attribute::unit(context));
    let private: Value<'c, 'c> = detach(private.result(0).map_err(|_| internal())?.into());
    for user in users(old) {
        let at = Builder::before(context, user).ok_or_else(internal)?.at(user.location());
        let operands: Vec<Value<'c, 'c>> = user.operands().map(detach).collect();
        if op_name(&user) == "memref.load" {
            let indices = [&[position], &operands[1..]].concat();
            let load = at.value(memref::load(private, &indices, user.location()));
            replace_uses(detach(user.result(0).map_err(|_| internal())?.into()), load);
        } else {
            let indices = [&[position], &operands[2..]].concat();
            at.insert(memref::store(operands[0], private, &indices, user.location()));
        }
        erase(user);
    }
    erase(tile);
    Ok(())
}
