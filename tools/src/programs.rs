//! Stage I programs built from Rust with the typed op builders that melior
//! generates from our ODS files: the same IR a user would write by hand
//! (the tests compare them with `examples/`). `sptir-bench` compiles these.

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
use sptir_lowering::{axis::detach, ir_builder::Builder};

/// A kernel parameter, in the argument convention the executors bind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// `memref<?xi32>`: indptr, indices, row lists.
    Ids,
    /// `memref<?xf32>`: values.
    Values,
    /// `index`: sizes.
    Index,
}

impl Param {
    /// The parameter's MLIR type, as a kernel's signature spells it.
    pub fn text(self) -> &'static str {
        match self {
            Param::Ids => "memref<?xi32>",
            Param::Values => "memref<?xf32>",
            Param::Index => "index",
        }
    }
}

/// Builds one `func.func` of stage I ops.
pub struct KernelBuilder<'c> {
    context: &'c Context,
    location: Location<'c>,
    name: String,
    params: Vec<Type<'c>>,
    entry: Block<'c>,
}

/// The dialects a kernel is built from; ops of unloaded dialects can't be
/// created.
fn load_dialects(context: &Context) {
    for name in ["builtin", "func", "arith", "memref", "sparse_iter"] {
        context.get_or_load_dialect(name);
    }
}

impl<'c> KernelBuilder<'c> {
    pub fn new(context: &'c Context, name: &str, params: &[Param]) -> Self {
        load_dialects(context);
        let location = Location::unknown(context);
        let i32_type: Type = IntegerType::new(context, 32).into();
        let memref = |element| -> Type { MemRefType::new(element, &[i64::MIN], None, None).into() };
        let params: Vec<Type> = params
            .iter()
            .map(|param| match param {
                Param::Ids => memref(i32_type),
                Param::Values => memref(Type::float32(context)),
                Param::Index => Type::index(context),
            })
            .collect();
        let entry = Block::new(&params.iter().map(|&t| (t, location)).collect::<Vec<_>>());
        Self { context, location, name: name.to_string(), params, entry }
    }

    /// Parameter `index` of the kernel.
    pub fn arg(&self, index: usize) -> Value<'c, 'c> {
        detach(self.entry.argument(index).expect("parameter index within the declared list").into())
    }

    fn builder(&self) -> Builder<'c> {
        Builder::at_end(self.context, self.location, &self.entry)
    }

    pub fn dense_fixed(&self, length: Value<'c, 'c>) -> Value<'c, 'c> {
        self.builder().value(sparse_iter::dense_fixed(self.context, axis_type(self.context), length, self.location))
    }

    pub fn dense_variable(
        &self,
        parent: Value<'c, 'c>,
        indptr: Value<'c, 'c>,
        length: Value<'c, 'c>,
        nnz: Value<'c, 'c>,
    ) -> Value<'c, 'c> {
        self.builder().value(
            sparse_iter::DenseVariableOperation::builder(self.context, self.location)
                .axis(axis_type(self.context))
                .parent(parent)
                .indptr(indptr)
                .length(length)
                .nnz(nnz)
                .build(),
        )
    }

    pub fn sparse_fixed(
        &self,
        parent: Value<'c, 'c>,
        indices: Value<'c, 'c>,
        length: Value<'c, 'c>,
        nnz_cols: Value<'c, 'c>,
        sorted: bool,
    ) -> Value<'c, 'c> {
        let op = sparse_iter::SparseFixedOperation::builder(self.context, self.location)
            .axis(axis_type(self.context))
            .parent(parent)
            .indices(indices)
            .length(length)
            .nnz_cols(nnz_cols);
        let op = if sorted { op.sorted(Attribute::unit(self.context)).build() } else { op.build() };
        self.builder().value(op)
    }

    pub fn sparse_variable(
        &self,
        parent: Value<'c, 'c>,
        indptr: Value<'c, 'c>,
        indices: Value<'c, 'c>,
        length: Value<'c, 'c>,
        nnz: Value<'c, 'c>,
    ) -> Value<'c, 'c> {
        self.builder().value(
            sparse_iter::SparseVariableOperation::builder(self.context, self.location)
                .axis(axis_type(self.context))
                .parent(parent)
                .indptr(indptr)
                .indices(indices)
                .length(length)
                .nnz(nnz)
                .sorted(Attribute::unit(self.context))
                .build(),
        )
    }

    /// `match_buffer` of an f32 value array over `axes`.
    pub fn buffer(&self, values: Value<'c, 'c>, axes: &[Value<'c, 'c>]) -> Value<'c, 'c> {
        self.builder().value(
            sparse_iter::MatchBufferOperation::builder(self.context, self.location)
                .buffer(buffer_type(self.context, axes.len() as u32, Type::float32(self.context)))
                .values(values)
                .axes(axes)
                .build(),
        )
    }

    /// A sparse iteration; `init` (if any) receives the spatial
    /// coordinates, `body` one coordinate per axis.
    pub fn iterate(
        &self,
        label: &str,
        axes: &[Value<'c, 'c>],
        kinds: &str,
        init: Option<&dyn Fn(&Builder<'c>, &[Value<'c, 'c>])>,
        body: &dyn Fn(&Builder<'c>, &[Value<'c, 'c>]),
    ) {
        let index = Type::index(self.context);
        let region = |arguments: usize, fill: &dyn Fn(&Builder<'c>, &[Value<'c, 'c>])| {
            let block = Block::new(&vec![(index, self.location); arguments]);
            let coordinates: Vec<Value<'c, 'c>> =
                (0..arguments).map(|n| detach(block.argument(n).expect("declared argument").into())).collect();
            fill(&Builder::at_end(self.context, self.location, &block), &coordinates);
            block.append_operation(sparse_iter::r#yield(self.context, self.location).into());
            let region = Region::new();
            region.append_block(block);
            region
        };
        let op = sparse_iter::IterateOperation::builder(self.context, self.location)
            .label(StringAttribute::new(self.context, label))
            .axes(axes)
            .kinds(StringAttribute::new(self.context, kinds));
        let init = match init {
            Some(init) => region(kinds.matches('S').count(), init),
            None => Region::new(),
        };
        let op = op.init(init).body(region(axes.len(), body)).build();
        self.entry.append_operation(op.into());
    }

    pub fn finish(self) -> Module<'c> {
        self.entry.append_operation(func::r#return(&[], self.location));
        let region = Region::new();
        region.append_block(self.entry);
        let module = Module::new(self.location);
        module.body().append_operation(func::func(
            self.context,
            StringAttribute::new(self.context, &self.name),
            TypeAttribute::new(FunctionType::new(self.context, &self.params, &[]).into()),
            region,
            &[],
            self.location,
        ));
        module
    }
}

/// `sparse_iter.load` of an f32 buffer.
pub fn load<'c>(builder: &Builder<'c>, buffer: Value<'c, 'c>, coordinates: &[Value<'c, 'c>]) -> Value<'c, 'c> {
    builder.value(
        sparse_iter::LoadOperation::builder(builder.context, builder.location)
            .result(Type::float32(builder.context))
            .buffer(buffer)
            .coords(coordinates)
            .build(),
    )
}

pub fn store<'c>(builder: &Builder<'c>, value: Value<'c, 'c>, buffer: Value<'c, 'c>, coordinates: &[Value<'c, 'c>]) {
    builder.insert(
        sparse_iter::StoreOperation::builder(builder.context, builder.location)
            .value(value)
            .buffer(buffer)
            .coords(coordinates)
            .build(),
    );
}

pub fn zero<'c>(builder: &Builder<'c>) -> Value<'c, 'c> {
    let f32_type = Type::float32(builder.context);
    builder.value(arith::constant(
        builder.context,
        FloatAttribute::new(builder.context, f32_type, 0.0).into(),
        builder.location,
    ))
}

/// `buffer[out] += a * b`, with `a` and `b` computed by `operands` after
/// the accumulator is read.
pub fn accumulate<'c>(
    builder: &Builder<'c>,
    buffer: Value<'c, 'c>,
    out: &[Value<'c, 'c>],
    operands: impl FnOnce(&Builder<'c>) -> (Value<'c, 'c>, Value<'c, 'c>),
) {
    let acc = load(builder, buffer, out);
    let (a, b) = operands(builder);
    let product = builder.value(arith::mulf(a, b, builder.location));
    let sum = builder.value(arith::addf(acc, product, builder.location));
    store(builder, sum, buffer, out);
}

/// `buffer[coordinates] = 0`.
pub fn clear<'c>(builder: &Builder<'c>, buffer: Value<'c, 'c>, coordinates: &[Value<'c, 'c>]) {
    let zero = zero(builder);
    store(builder, zero, buffer, coordinates);
}

/// CSR SpMM, `C[i, k] = sum_j A[i, j] * B[j, k]`:
/// `@csr_spmm(indptr, indices, a, b, c, m, n, nnz, feat)`.
pub fn csr_spmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k = KernelBuilder::new(context, "csr_spmm", &[Ids, Ids, Values, Values, Values, Index, Index, Index, Index]);
    let (indptr, indices, a, b, c) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4));
    let (m, n, nnz, feat) = (k.arg(5), k.arg(6), k.arg(7), k.arg(8));
    let i = k.dense_fixed(m);
    let j = k.sparse_variable(i, indptr, indices, n, nnz);
    row_spmm(&k, "csrmm", [i, j], [n, feat], [a, b, c]);
    k.finish()
}

/// SpMM over rows `i` and their column axis `j` (any kind): the buffers A
/// over (i, j), B over a detached column axis of length `n` and features,
/// C over (i, features).
fn row_spmm<'c>(
    k: &KernelBuilder<'c>,
    label: &str,
    [i, j]: [Value<'c, 'c>; 2],
    [n, feat]: [Value<'c, 'c>; 2],
    [a, b, c]: [Value<'c, 'c>; 3],
) {
    let j_detach = k.dense_fixed(n);
    let f = k.dense_fixed(feat);
    let a = k.buffer(a, &[i, j]);
    let b = k.buffer(b, &[j_detach, f]);
    let c = k.buffer(c, &[i, f]);
    k.iterate(label, &[i, j, f], "SRS", Some(&|s, x| clear(s, c, &[x[0], x[1]])), &|s, x| {
        accumulate(s, c, &[x[0], x[2]], |s| (load(s, a, &[x[0], x[1]]), load(s, b, &[x[1], x[2]])))
    });
}

/// `a * b` in f32.
pub fn mul<'c>(builder: &Builder<'c>, a: Value<'c, 'c>, b: Value<'c, 'c>) -> Value<'c, 'c> {
    builder.value(arith::mulf(a, b, builder.location))
}

impl<'c> KernelBuilder<'c> {
    /// An `index` constant in the entry block (placeholder axis extents).
    pub fn constant_index(&self, value: i64) -> Value<'c, 'c> {
        self.builder().index(value)
    }
}

/// ELL SpMM: `@ell_spmm(indices, a, b, c, m, n, width, feat)`; padding
/// entries hold value 0 and a valid column.
pub fn ell_spmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k = KernelBuilder::new(context, "ell_spmm", &[Ids, Values, Values, Values, Index, Index, Index, Index]);
    let (indices, a, b, c) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3));
    let (m, n, width, feat) = (k.arg(4), k.arg(5), k.arg(6), k.arg(7));
    let i = k.dense_fixed(m);
    let j = k.sparse_fixed(i, indices, n, width, false);
    row_spmm(&k, "ellmm", [i, j], [n, feat], [a, b, c]);
    k.finish()
}

/// BSR SpMM over `blk x blk` blocks:
/// `@bsr_spmm(indptr, indices, a, b, c, nb, mb, nnzb, blk, feat)`; `b` and
/// `c` have `mb * blk` and `nb * blk` rows.
pub fn bsr_spmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k =
        KernelBuilder::new(context, "bsr_spmm", &[Ids, Ids, Values, Values, Values, Index, Index, Index, Index, Index]);
    let (indptr, indices, a, b, c) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4));
    let (nb, mb, nnzb, blk, feat) = (k.arg(5), k.arg(6), k.arg(7), k.arg(8), k.arg(9));
    let i = k.dense_fixed(nb);
    let j = k.sparse_variable(i, indptr, indices, mb, nnzb);
    let j_detach = k.dense_fixed(mb);
    let bi = k.dense_fixed(blk);
    let bj = k.dense_fixed(blk);
    let f = k.dense_fixed(feat);
    let a = k.buffer(a, &[i, j, bi, bj]);
    let b = k.buffer(b, &[j_detach, bj, f]);
    let c = k.buffer(c, &[i, bi, f]);
    k.iterate("bsrmm", &[i, j, bi, bj, f], "SRSRS", Some(&|s, x| clear(s, c, x)), &|s, x| {
        accumulate(s, c, &[x[0], x[2], x[4]], |s| {
            (load(s, a, &[x[0], x[1], x[2], x[3]]), load(s, b, &[x[1], x[3], x[4]]))
        })
    });
    k.finish()
}

/// The per-bucket parameters of a hyb kernel, after the common ones:
/// row list, column indices, values, rows in the bucket, bucket width.
pub const HYB_BUCKET_PARAMS: [Param; 5] = [Param::Ids, Param::Ids, Param::Values, Param::Index, Param::Index];

fn hyb_params(common: &[Param], buckets: usize) -> Vec<Param> {
    let mut params = common.to_vec();
    for _ in 0..buckets {
        params.extend(HYB_BUCKET_PARAMS);
    }
    params
}

/// The ELL buckets of a hyb matrix: for each, a placeholder root, its row
/// list (rows may repeat when a long row is split) and its columns.
fn hyb_buckets<'c>(
    k: &KernelBuilder<'c>,
    first: usize,
    buckets: usize,
    m: Value<'c, 'c>,
    n: Value<'c, 'c>,
) -> Vec<[Value<'c, 'c>; 4]> {
    let one = k.constant_index(1);
    (0..buckets)
        .map(|bucket| {
            let p = first + bucket * HYB_BUCKET_PARAMS.len();
            let (rows, indices, values, num_rows, width) =
                (k.arg(p), k.arg(p + 1), k.arg(p + 2), k.arg(p + 3), k.arg(p + 4));
            let o = k.dense_fixed(one);
            let i = k.sparse_fixed(o, rows, m, num_rows, false);
            let j = k.sparse_fixed(i, indices, n, width, false);
            [o, i, j, values]
        })
        .collect()
}

/// hyb SpMM, one compute iteration per ELL bucket into a zeroed `c`:
/// `@hyb_spmm(b, c, m, n, feat, [rows, indices, values, num_rows, width]...)`.
/// `repeats[b]` says whether bucket `b` lists a row more than once (a long
/// row split over several bucket rows); its row axis is then a reduction.
///
/// With `exclusive`, a bucket marked there lists each of its rows once and
/// no other bucket lists them: its rows' sums are stored whole (the
/// iteration's `init` clears each row, so that its sum starts in
/// registers), with no atomics and no zeroing beforehand, and the zeroing
/// iteration covers only the rest of the rows (empty ones, those of the
/// other buckets), listed after the common parameters:
/// `@hyb_spmm(b, c, m, n, feat, rest_rows, num_rest, [bucket]...)`.
/// Zeroing C and adding into it atomically reads and writes each row of C
/// three times where a store writes it once.
pub fn hyb_spmm<'c>(context: &'c Context, repeats: &[bool], exclusive: Option<&[bool]>) -> Module<'c> {
    use Param::*;
    let buckets = repeats.len();
    let common: &[Param] = if exclusive.is_some() {
        &[Values, Values, Index, Index, Index, Ids, Index]
    } else {
        &[Values, Values, Index, Index, Index]
    };
    let k = KernelBuilder::new(context, "hyb_spmm", &hyb_params(common, buckets));
    let (b, c, m, n, feat) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4));
    let i = k.dense_fixed(m);
    let j_detach = k.dense_fixed(n);
    let f = k.dense_fixed(feat);
    let b = k.buffer(b, &[j_detach, f]);
    let c = k.buffer(c, &[i, f]);
    if exclusive.is_some() {
        let one = k.constant_index(1);
        let o = k.dense_fixed(one);
        let rest = k.sparse_fixed(o, k.arg(5), m, k.arg(6), false);
        k.iterate("zero", &[o, rest, f], "SSS", None, &|s, x| clear(s, c, &[x[1], x[2]]));
    } else {
        k.iterate("zero", &[i, f], "SS", None, &|s, x| clear(s, c, x));
    }
    for (index, [o, bi, bj, values]) in hyb_buckets(&k, common.len(), buckets, m, n).into_iter().enumerate() {
        let a = k.buffer(values, &[o, bi, bj]);
        let kinds = if repeats[index] { "SRRS" } else { "SSRS" };
        let owned = exclusive.is_some_and(|e| e[index]);
        let init: Option<&dyn Fn(&Builder<'c>, &[Value<'c, 'c>])> =
            if owned { Some(&|s, x| clear(s, c, &[x[1], x[2]])) } else { None };
        k.iterate(&format!("hyb{index}"), &[o, bi, bj, f], kinds, init, &|s, x| {
            accumulate(s, c, &[x[1], x[3]], |s| (load(s, a, &[x[0], x[1], x[2]]), load(s, b, &[x[2], x[3]])))
        });
    }
    k.finish()
}

/// SDDMM body: `out[p] += a[p] * x[i, f] * y[j, f]`.
fn sddmm_step<'c>(
    s: &Builder<'c>,
    out: (Value<'c, 'c>, &[Value<'c, 'c>]),
    a: Value<'c, 'c>,
    x: (Value<'c, 'c>, &[Value<'c, 'c>]),
    y: (Value<'c, 'c>, &[Value<'c, 'c>]),
) {
    accumulate(s, out.0, out.1, |s| {
        let scaled = mul(s, load(s, a, out.1), load(s, x.0, x.1));
        (scaled, load(s, y.0, y.1))
    })
}

/// CSR SDDMM: `@csr_sddmm(indptr, indices, a, x, y, out, m, n, nnz, feat)`
/// with `x` m x feat, `y` n x feat, `out` in `a`'s layout.
pub fn csr_sddmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k = KernelBuilder::new(
        context,
        "csr_sddmm",
        &[Ids, Ids, Values, Values, Values, Values, Index, Index, Index, Index],
    );
    let (indptr, indices, a, x, y, out) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4), k.arg(5));
    let (m, n, nnz, feat) = (k.arg(6), k.arg(7), k.arg(8), k.arg(9));
    let i = k.dense_fixed(m);
    let j = k.sparse_variable(i, indptr, indices, n, nnz);
    row_sddmm(&k, [i, j], [n, feat], [a, x, y, out]);
    k.finish()
}

/// SDDMM over rows `i` and their column axis `j` (any kind): A and the
/// output over (i, j), X over (i, features), Y over a detached column axis
/// of length `n` and features.
fn row_sddmm<'c>(
    k: &KernelBuilder<'c>,
    [i, j]: [Value<'c, 'c>; 2],
    [n, feat]: [Value<'c, 'c>; 2],
    [a, x, y, out]: [Value<'c, 'c>; 4],
) {
    let j_detach = k.dense_fixed(n);
    let f = k.dense_fixed(feat);
    let (a, out) = (k.buffer(a, &[i, j]), k.buffer(out, &[i, j]));
    let (x, y) = (k.buffer(x, &[i, f]), k.buffer(y, &[j_detach, f]));
    k.iterate("sddmm", &[i, j, f], "SSR", Some(&|s, c| clear(s, out, c)), &|s, c| {
        sddmm_step(s, (out, &[c[0], c[1]]), a, (x, &[c[0], c[2]]), (y, &[c[1], c[2]]))
    });
}

/// ELL SDDMM: `@ell_sddmm(indices, a, x, y, out, m, n, width, feat)`.
pub fn ell_sddmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k =
        KernelBuilder::new(context, "ell_sddmm", &[Ids, Values, Values, Values, Values, Index, Index, Index, Index]);
    let (indices, a, x, y, out) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4));
    let (m, n, width, feat) = (k.arg(5), k.arg(6), k.arg(7), k.arg(8));
    let i = k.dense_fixed(m);
    let j = k.sparse_fixed(i, indices, n, width, false);
    row_sddmm(&k, [i, j], [n, feat], [a, x, y, out]);
    k.finish()
}

/// BSR SDDMM: `@bsr_sddmm(indptr, indices, a, x, y, out, nb, mb, nnzb, blk, feat)`
/// with `x` (nb*blk) x feat and `y` (mb*blk) x feat.
pub fn bsr_sddmm(context: &Context) -> Module<'_> {
    use Param::*;
    let k = KernelBuilder::new(
        context,
        "bsr_sddmm",
        &[Ids, Ids, Values, Values, Values, Values, Index, Index, Index, Index, Index],
    );
    let (indptr, indices, a, x, y, out) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4), k.arg(5));
    let (nb, mb, nnzb, blk, feat) = (k.arg(6), k.arg(7), k.arg(8), k.arg(9), k.arg(10));
    let i = k.dense_fixed(nb);
    let j = k.sparse_variable(i, indptr, indices, mb, nnzb);
    let j_detach = k.dense_fixed(mb);
    let bi = k.dense_fixed(blk);
    let bj = k.dense_fixed(blk);
    let f = k.dense_fixed(feat);
    let (a, out) = (k.buffer(a, &[i, j, bi, bj]), k.buffer(out, &[i, j, bi, bj]));
    let (x, y) = (k.buffer(x, &[i, bi, f]), k.buffer(y, &[j_detach, bj, f]));
    k.iterate("sddmm", &[i, j, bi, bj, f], "SSSSR", Some(&|s, c| clear(s, out, c)), &|s, c| {
        sddmm_step(s, (out, &[c[0], c[1], c[2], c[3]]), a, (x, &[c[0], c[2], c[4]]), (y, &[c[1], c[3], c[4]]))
    });
    k.finish()
}

/// hyb SDDMM, one iteration per bucket, each output in its bucket's layout:
/// `@hyb_sddmm(x, y, m, n, feat, [rows, indices, a, num_rows, width, out]...)`.
pub fn hyb_sddmm(context: &Context, buckets: usize) -> Module<'_> {
    use Param::*;
    let mut params = vec![Values, Values, Index, Index, Index];
    for _ in 0..buckets {
        params.extend(HYB_BUCKET_PARAMS);
        params.push(Values);
    }
    let k = KernelBuilder::new(context, "hyb_sddmm", &params);
    let (x, y, m, n, feat) = (k.arg(0), k.arg(1), k.arg(2), k.arg(3), k.arg(4));
    let i = k.dense_fixed(m);
    let j_detach = k.dense_fixed(n);
    let f = k.dense_fixed(feat);
    let (x, y) = (k.buffer(x, &[i, f]), k.buffer(y, &[j_detach, f]));
    let stride = HYB_BUCKET_PARAMS.len() + 1;
    let one = k.constant_index(1);
    for bucket in 0..buckets {
        let p = 5 + bucket * stride;
        let (rows, indices, values, num_rows, width, out) =
            (k.arg(p), k.arg(p + 1), k.arg(p + 2), k.arg(p + 3), k.arg(p + 4), k.arg(p + 5));
        let o = k.dense_fixed(one);
        let bi = k.sparse_fixed(o, rows, m, num_rows, false);
        let bj = k.sparse_fixed(bi, indices, n, width, false);
        let (a, out) = (k.buffer(values, &[o, bi, bj]), k.buffer(out, &[o, bi, bj]));
        k.iterate(&format!("sddmm{bucket}"), &[o, bi, bj, f], "SSSR", Some(&|s, c| clear(s, out, c)), &|s, c| {
            sddmm_step(s, (out, &[c[0], c[1], c[2]]), a, (x, &[c[1], c[3]]), (y, &[c[2], c[3]]))
        });
    }
    k.finish()
}
