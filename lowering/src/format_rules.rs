//! The built-in format decompositions of `decompose-format{rule=...}`:
//! CSR -> BSR(b), CSR -> ELL(k) and CSR -> hyb(c, widths) (SparseTIR
//! section 3.2, the RFC's hyb). Each writes the new axes, buffers and
//! `format_rewrite` rules into the function, with the new format's arrays
//! and sizes as parameters appended to the function, in this order:
//!
//! - `bsr:B`: block indptr, block indices (`memref<?xi32>`), block values
//!   (`memref<?xf32>`, B*B per block, filled by the copy), then `index`
//!   block rows, block columns, stored blocks;
//! - `ell:K`: columns (`memref<?xi32>`, K per row, padded with the column
//!   count, which is out of range), values (`memref<?xf32>`, filled);
//! - `hyb:C:W0,W1,...`: for each column partition and then each width, a
//!   bucket: row ids, columns (W per row, padded as for ELL), values
//!   (filled), then its row count (`index`). Which rows and which columns
//!   go where is the caller's choice, as long as each non-zero lands in
//!   exactly one slot.

use crate::{
    axis::{Axis, AxisKind},
    buffer::BufferDef,
    ir_builder::Builder,
    ir_query::enclosing_function,
    pass_registry::{emit_error, PassFailed},
};
use melior::{
    ir::{
        attribute::{Attribute, DenseI64ArrayAttribute},
        operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
        r#type::{IntegerType, MemRefType},
        Location, Type, Value,
    },
    Context,
};
use mlir_sys::{
    mlirAffineAddExprGet, mlirAffineConstantExprGet, mlirAffineDimExprGet, mlirAffineFloorDivExprGet,
    mlirAffineMapAttrGet, mlirAffineMapGet, mlirAffineModExprGet, mlirAffineMulExprGet, MlirAffineExpr,
};
use sptir_dialects::{axis_type, buffer_type, sparse_iter};

/// The most iterations a `hyb:` rule makes (partitions times widths), as
/// the runtime's hyb format allows.
pub const MAX_HYB_BUCKETS: usize = 256;

/// A built-in rule, parsed from the `rule` option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuiltinRule {
    Bsr(usize),
    Ell(usize),
    Hyb { partitions: usize, widths: Vec<usize> },
}

impl BuiltinRule {
    pub fn parse(text: &str) -> Result<Self, String> {
        let positive = |value: &str, what: &str| -> Result<usize, String> {
            value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&v| v > 0 && v <= i32::MAX as usize)
                .ok_or_else(|| format!("{what} must be a positive integer up to {}, got '{value}'", i32::MAX))
        };
        let parts: Vec<&str> = text.split(':').collect();
        match parts.as_slice() {
            ["bsr", block] => Ok(Self::Bsr(positive(block, "bsr block size")?)),
            ["ell", width] => Ok(Self::Ell(positive(width, "ell width")?)),
            ["hyb", partitions, widths] => {
                let partitions = positive(partitions, "hyb column partitions")?;
                let widths: Vec<usize> =
                    widths.split(',').map(|w| positive(w, "hyb bucket width")).collect::<Result<_, _>>()?;
                // Each (partition, width) is an iteration, a kernel of its
                // own: thousands take minutes and gigabytes to compile.
                let buckets = partitions.saturating_mul(widths.len());
                if buckets > MAX_HYB_BUCKETS {
                    return Err(format!(
                        "hyb makes an iteration per column partition and width: at most {MAX_HYB_BUCKETS}, got {buckets}"
                    ));
                }
                Ok(Self::Hyb { partitions, widths })
            }
            _ => Err(format!("unknown rule '{text}'; expected bsr:B, ell:K or hyb:C:W0,W1,...")),
        }
    }
}

fn dim(context: &Context, position: isize) -> MlirAffineExpr {
    unsafe { mlirAffineDimExprGet(context.to_raw(), position) }
}

fn constant(context: &Context, value: i64) -> MlirAffineExpr {
    unsafe { mlirAffineConstantExprGet(context.to_raw(), value) }
}

fn map_attribute<'c>(context: &'c Context, dims: isize, results: &[MlirAffineExpr]) -> Attribute<'c> {
    unsafe {
        let map = mlirAffineMapGet(context.to_raw(), dims, 0, results.len() as isize, results.as_ptr() as *mut _);
        Attribute::from_raw(mlirAffineMapAttrGet(map))
    }
}

struct Emitter<'c> {
    context: &'c Context,
    builder: Builder<'c>,
    source: Value<'c, 'c>,
    location: Location<'c>,
}

impl<'c> Emitter<'c> {
    fn axis(&self, op: impl Into<melior::ir::Operation<'c>>) -> Value<'c, 'c> {
        self.builder.value(op)
    }

    fn buffer(&self, values: Value<'c, 'c>, axes: &[Value<'c, 'c>], element: Type<'c>) -> Value<'c, 'c> {
        self.builder.value(
            sparse_iter::MatchBufferOperation::builder(self.context, self.location)
                .buffer(buffer_type(self.context, axes.len() as u32, element))
                .values(values)
                .axes(axes)
                .build(),
        )
    }

    fn rule(&self, target: Value<'c, 'c>, map: Attribute<'c>, inverse: Attribute<'c>) -> OperationRef<'c, 'c> {
        self.builder.insert(
            sparse_iter::FormatRewriteOperation::builder(self.context, self.location)
                .source(self.source)
                .target(target)
                .map(map)
                .inverse(inverse)
                .build(),
        )
    }

    fn sparse_fixed(
        &self,
        parent: Value<'c, 'c>,
        indices: Value<'c, 'c>,
        length: Value<'c, 'c>,
        cols: Value<'c, 'c>,
    ) -> Value<'c, 'c> {
        self.axis(
            sparse_iter::SparseFixedOperation::builder(self.context, self.location)
                .axis(axis_type(self.context))
                .parent(parent)
                .indices(indices)
                .length(length)
                .nnz_cols(cols)
                .build(),
        )
    }

    /// ELL-like bucket over `parent` (a row axis), identity-mapped. Its
    /// padding has column `n`, out of range, so it is exact.
    fn identity_rule(&self, target: Value<'c, 'c>, leading_zero: bool) {
        let context = self.context;
        let (i, j) = (dim(context, 0), dim(context, 1));
        let rule = if leading_zero {
            let rule = self.rule(
                target,
                map_attribute(context, 2, &[constant(context, 0), i, j]),
                map_attribute(context, 3, &[dim(context, 1), dim(context, 2)]),
            );
            // A hyb bucket may list a long row several times.
            unsafe { OperationRefMut::from_raw(rule.to_raw()) }
                .set_discardable_attribute("repeats", DenseI64ArrayAttribute::new(context, &[1]).into());
            rule
        } else {
            self.rule(target, map_attribute(context, 2, &[i, j]), map_attribute(context, 2, &[i, j]))
        };
        unsafe { OperationRefMut::from_raw(rule.to_raw()) }
            .set_discardable_attribute(crate::decompose_format::EXACT, Attribute::unit(context));
    }
}

/// Writes `rule` for `buffer` (defined as `source`), a CSR-like buffer over
/// a dense row axis and a sparse column axis, before `iteration`.
pub fn emit_rules<'c>(
    context: &'c Context,
    iteration: OperationRef<'c, 'c>,
    buffer: Value<'c, 'c>,
    source: &BufferDef<'c>,
    rule: &BuiltinRule,
) -> Result<(), PassFailed> {
    let location = iteration.location();
    let (rows, cols) = match source.axes.as_slice() {
        [rows, cols] => (Axis::read(*rows), Axis::read(*cols)),
        _ => (None, None),
    };
    let (Some(rows), Some(cols)) = (rows, cols) else {
        return Err(emit_error(
            location,
            "decompose-format: built-in rules decompose a buffer over a dense row axis and a sparse column axis",
        ));
    };
    if rows.kind != AxisKind::DenseFixed || !cols.kind.is_sparse() || cols.parent != Some(rows.value) {
        return Err(emit_error(
            location,
            "decompose-format: built-in rules decompose a buffer over a dense row axis and a sparse column axis (CSR)",
        ));
    }
    let function =
        enclosing_function(iteration).ok_or_else(|| emit_error(location, "iteration is not in a function"))?;
    let builder = Builder::before(context, iteration)
        .ok_or_else(|| emit_error(location, "iteration is not in a block"))?
        .at(location);
    let emitter = Emitter { context, builder, source: buffer, location };
    let ids: Type = MemRefType::new(IntegerType::new(context, 32).into(), &[i64::MIN], None, None).into();
    let values: Type = MemRefType::new(source.element, &[i64::MIN], None, None).into();
    let index = Type::index(context);
    let axis = axis_type(context);
    let append_params = |context, function, types: &[Type<'c>]| {
        crate::ir_builder::append_params(context, function, types)
            .ok_or_else(|| emit_error(location, "the enclosing function has no body or type"))
    };
    match rule {
        BuiltinRule::Bsr(block) => {
            let p = append_params(context, function, &[ids, ids, values, index, index, index])?;
            let size = emitter.builder.index(*block as i64);
            let io = emitter.axis(sparse_iter::dense_fixed(context, axis, p[3], location));
            let jo = emitter.axis(
                sparse_iter::SparseVariableOperation::builder(context, location)
                    .axis(axis)
                    .parent(io)
                    .indptr(p[0])
                    .indices(p[1])
                    .length(p[4])
                    .nnz(p[5])
                    .sorted(Attribute::unit(context))
                    .build(),
            );
            let ii = emitter.axis(sparse_iter::dense_fixed(context, axis, size, location));
            let ji = emitter.axis(sparse_iter::dense_fixed(context, axis, size, location));
            let target = emitter.buffer(p[2], &[io, jo, ii, ji], source.element);
            let b = *block as i64;
            let (i, j) = (dim(context, 0), dim(context, 1));
            let c = constant(context, b);
            let map = unsafe {
                [
                    mlirAffineFloorDivExprGet(i, c),
                    mlirAffineFloorDivExprGet(j, c),
                    mlirAffineModExprGet(i, c),
                    mlirAffineModExprGet(j, c),
                ]
            };
            let inverse = unsafe {
                [
                    mlirAffineAddExprGet(mlirAffineMulExprGet(dim(context, 0), c), dim(context, 2)),
                    mlirAffineAddExprGet(mlirAffineMulExprGet(dim(context, 1), c), dim(context, 3)),
                ]
            };
            emitter.rule(target, map_attribute(context, 2, &map), map_attribute(context, 4, &inverse));
        }
        BuiltinRule::Ell(width) => {
            let p = append_params(context, function, &[ids, values])?;
            let width = emitter.builder.index(*width as i64);
            let j = emitter.sparse_fixed(rows.value, p[0], cols.length, width);
            let target = emitter.buffer(p[1], &[rows.value, j], source.element);
            emitter.identity_rule(target, false);
        }
        BuiltinRule::Hyb { partitions, widths } => {
            let one = emitter.builder.index(1);
            for _ in 0..*partitions {
                for &width in widths {
                    let p = append_params(context, function, &[ids, ids, values, index])?;
                    let width = emitter.builder.index(width as i64);
                    let o = emitter.axis(sparse_iter::dense_fixed(context, axis, one, location));
                    let i = emitter.sparse_fixed(o, p[0], rows.length, p[3]);
                    let j = emitter.sparse_fixed(i, p[1], cols.length, width);
                    let target = emitter.buffer(p[2], &[o, i, j], source.element);
                    emitter.identity_rule(target, true);
                }
            }
        }
    }
    Ok(())
}
