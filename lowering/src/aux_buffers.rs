//! Auxiliary buffers (SparseTIR section 3.3.1, step 1): the indptr and
//! indices arrays of an axis, materialized as sparse buffers over the axis's
//! ancestors, with their value domains. Created once per axis, right after
//! the axis definition so they dominate every loop that reads them.

use crate::{
    axis::{detach, key, Axis, AxisKind},
    ir_builder::Builder,
    pass_registry::{emit_error, PassFailed},
};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::OperationLike,
    r#type::ShapedTypeLike,
    r#type::{IntegerType, MemRefType},
    Type, Value, ValueLike,
};
use melior::Context;
use sptir_dialects::{axis_type, buffer_type, sparse_iter, sparse_pos};
use std::collections::HashMap;

pub struct AuxBuffers<'c> {
    context: &'c Context,
    indptr: HashMap<usize, Value<'c, 'c>>,
    indices: HashMap<usize, Value<'c, 'c>>,
}

fn element_type<'c>(memref: Value<'c, '_>) -> Type<'c> {
    MemRefType::try_from(memref.r#type()).map(|t| t.element()).unwrap_or(memref.r#type())
}

/// Builds right after the axis definition.
fn after_definition<'c>(context: &'c Context, axis: &Axis<'c>) -> Result<Builder<'c>, PassFailed> {
    axis.op
        .next_in_block()
        .and_then(|next| Builder::before(context, next))
        .map(|builder| builder.at(axis.op.location()))
        .ok_or_else(|| emit_error(axis.op.location(), "axis definition has no successor to insert after"))
}

impl<'c> AuxBuffers<'c> {
    pub fn new(context: &'c Context) -> Self {
        Self { context, indptr: HashMap::new(), indices: HashMap::new() }
    }

    /// `indptr` of a variable axis as a buffer over its ancestors, `extra 1`.
    pub fn indptr(&mut self, axis: &Axis<'c>) -> Result<Value<'c, 'c>, PassFailed> {
        if let Some(&buffer) = self.indptr.get(&key(axis.value)) {
            return Ok(buffer);
        }
        let (Some(indptr), Some(nnz)) = (axis.indptr, axis.nnz) else {
            return Err(emit_error(axis.op.location(), "internal: indptr requested for a fixed axis"));
        };
        let builder = after_definition(self.context, axis)?;
        let ancestors: Vec<Value> = axis.ancestors().iter().map(|a| a.value).collect();
        let element = element_type(indptr);
        let buffer = builder.value(
            sparse_iter::MatchBufferOperation::builder(builder.context, builder.location)
                .buffer(buffer_type(builder.context, ancestors.len() as u32, element))
                .values(indptr)
                .axes(&ancestors)
                .extra(IntegerAttribute::new(IntegerType::new(builder.context, 64).into(), 1).into())
                .build(),
        );
        assume_domain(&builder, buffer, nnz);
        self.indptr.insert(key(axis.value), buffer);
        Ok(buffer)
    }

    /// `indices` of a sparse axis as a buffer over its ancestors and a dense
    /// view of the axis itself.
    pub fn indices(&mut self, axis: &Axis<'c>) -> Result<Value<'c, 'c>, PassFailed> {
        if let Some(&buffer) = self.indices.get(&key(axis.value)) {
            return Ok(buffer);
        }
        let Some(indices) = axis.indices else {
            return Err(emit_error(axis.op.location(), "internal: indices requested for a dense axis"));
        };
        let builder = after_definition(self.context, axis)?;
        let context = builder.context;
        let view = match (axis.kind, axis.parent, axis.indptr, axis.nnz, axis.nnz_cols) {
            (AxisKind::SparseVariable, Some(parent), Some(indptr), Some(nnz), _) => builder.value(
                sparse_iter::DenseVariableOperation::builder(context, builder.location)
                    .axis(axis_type(context))
                    .parent(parent)
                    .indptr(indptr)
                    .length(axis.length)
                    .nnz(nnz)
                    .build(),
            ),
            (AxisKind::SparseFixed, _, _, _, Some(nnz_cols)) => {
                builder.value(sparse_iter::dense_fixed(context, axis_type(context), nnz_cols, builder.location))
            }
            _ => return Err(emit_error(axis.op.location(), "internal: malformed sparse axis")),
        };
        let mut axes: Vec<Value> = axis.ancestors().iter().map(|a| a.value).collect();
        axes.push(view);
        let buffer = builder.value(
            sparse_iter::MatchBufferOperation::builder(context, builder.location)
                .buffer(buffer_type(context, axes.len() as u32, element_type(indices)))
                .values(indices)
                .axes(&axes)
                .build(),
        );
        // Coordinates lie in [0, length - 1].
        let one = builder.index(1);
        assume_domain(&builder, buffer, builder.sub(axis.length, one));
        self.indices.insert(key(axis.value), buffer);
        Ok(detach(buffer))
    }
}

/// Every value of `buffer` lies in `[0, hi]`.
fn assume_domain<'c>(builder: &Builder<'c>, buffer: Value<'c, '_>, hi: Value<'c, '_>) {
    let zero = builder.index(0);
    builder.insert(
        sparse_pos::AssumeDomainOperation::builder(builder.context, builder.location)
            .buffer(buffer)
            .lo(zero)
            .hi(hi)
            .build(),
    );
}
