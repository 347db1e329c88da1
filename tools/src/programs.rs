//! Stage I programs built from Rust with the typed op builders that melior
//! generates from our ODS files: the same IR a user would write by hand.

use melior::{
    dialect::{arith, func},
    ir::{
        attribute::{Attribute, FloatAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        r#type::{FunctionType, IntegerType, MemRefType},
        Block, Location, Module, Region, RegionLike, Type, Value,
    },
    Context,
};
use sptir_dialects::{axis_type, buffer_type, sparse_iter};

/// Ops can only be built in dialects the context has loaded.
fn load_dialects(context: &Context) {
    for name in ["builtin", "func", "arith", "memref", "sparse_iter"] {
        context.get_or_load_dialect(name);
    }
}

/// Appends `op` to `block` and returns its single result.
fn push<'c, 'a>(block: &'a Block<'c>, op: impl Into<melior::ir::Operation<'c>>) -> Value<'c, 'a> {
    let op = block.append_operation(op.into());
    // Every op pushed this way has exactly one result by its ODS definition.
    op.result(0).map(Into::into).expect("op with one result")
}

/// CSR SpMM, `C[i, k] = sum_j A[i, j] * B[j, k]`, as the function
/// `@csr_spmm(indptr, indices, a, b, c, m, n, nnz, feat)`.
pub fn csr_spmm<'c>(context: &'c Context) -> Module<'c> {
    load_dialects(context);
    let location = Location::unknown(context);
    let index = Type::index(context);
    let i32_type: Type = IntegerType::new(context, 32).into();
    let f32_type = Type::float32(context);
    let ids: Type = MemRefType::new(i32_type, &[i64::MIN], None, None).into();
    let values: Type = MemRefType::new(f32_type, &[i64::MIN], None, None).into();
    let inputs = [ids, ids, values, values, values, index, index, index, index];
    let axis = axis_type(context);
    let buffer2 = buffer_type(context, 2, f32_type);

    let body = Block::new(&inputs.map(|t| (t, location)));
    let arg = |n: usize| -> Value { body.argument(n).map(Into::into).expect("declared argument") };
    let (indptr, indices, a, b, c) = (arg(0), arg(1), arg(2), arg(3), arg(4));
    let (m, n, nnz, feat) = (arg(5), arg(6), arg(7), arg(8));

    let row = push(&body, sparse_iter::dense_fixed(context, axis, m, location));
    let col = push(
        &body,
        sparse_iter::SparseVariableOperation::builder(context, location)
            .axis(axis)
            .parent(row)
            .indptr(indptr)
            .indices(indices)
            .length(n)
            .nnz(nnz)
            .sorted(Attribute::unit(context))
            .build(),
    );
    let col_detached = push(&body, sparse_iter::dense_fixed(context, axis, n, location));
    let feature = push(&body, sparse_iter::dense_fixed(context, axis, feat, location));
    let matrix = |values: Value<'c, '_>, axes: &[Value<'c, '_>]| {
        sparse_iter::MatchBufferOperation::builder(context, location)
            .buffer(buffer2)
            .values(values)
            .axes(axes)
            .build()
    };
    let a_buf = push(&body, matrix(a, &[row, col]));
    let b_buf = push(&body, matrix(b, &[col_detached, feature]));
    let c_buf = push(&body, matrix(c, &[row, feature]));

    let init = Block::new(&[(index, location), (index, location)]);
    let (i, k): (Value, Value) = (
        init.argument(0).map(Into::into).expect("declared argument"),
        init.argument(1).map(Into::into).expect("declared argument"),
    );
    let zero = push(&init, arith::constant(context, FloatAttribute::new(context, f32_type, 0.0).into(), location));
    init.append_operation(
        sparse_iter::StoreOperation::builder(context, location)
            .value(zero)
            .buffer(c_buf)
            .coords(&[i, k])
            .build()
            .into(),
    );
    init.append_operation(sparse_iter::r#yield(context, location).into());

    let step = Block::new(&[(index, location), (index, location), (index, location)]);
    let coord = |n: usize| -> Value { step.argument(n).map(Into::into).expect("declared argument") };
    let (i, j, k) = (coord(0), coord(1), coord(2));
    let load = |buffer: Value<'c, '_>, coords: &[Value<'c, '_>]| {
        sparse_iter::LoadOperation::builder(context, location)
            .result(f32_type)
            .buffer(buffer)
            .coords(coords)
            .build()
    };
    let acc = push(&step, load(c_buf, &[i, k]));
    let a_val = push(&step, load(a_buf, &[i, j]));
    let b_val = push(&step, load(b_buf, &[j, k]));
    let product = push(&step, arith::mulf(a_val, b_val, location));
    let sum = push(&step, arith::addf(acc, product, location));
    step.append_operation(
        sparse_iter::StoreOperation::builder(context, location)
            .value(sum)
            .buffer(c_buf)
            .coords(&[i, k])
            .build()
            .into(),
    );
    step.append_operation(sparse_iter::r#yield(context, location).into());

    let region = |block: Block<'_>| {
        let region = Region::new();
        region.append_block(block);
        region
    };
    body.append_operation(
        sparse_iter::IterateOperation::builder(context, location)
            .label(StringAttribute::new(context, "csrmm"))
            .axes(&[row, col, feature])
            .kinds(StringAttribute::new(context, "SRS"))
            .init(region(init))
            .body(region(step))
            .build()
            .into(),
    );
    body.append_operation(func::r#return(&[], location));

    let module = Module::new(location);
    module.body().append_operation(func::func(
        context,
        StringAttribute::new(context, "csr_spmm"),
        TypeAttribute::new(FunctionType::new(context, &inputs, &[]).into()),
        region(body),
        &[],
        location,
    ));
    module
}
