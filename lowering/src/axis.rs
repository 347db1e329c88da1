//! Reading axis definitions: the kind, parent and structure arrays of an
//! axis value, from the `sparse_iter` op that defines it.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Value, ValueLike,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisKind {
    DenseFixed,
    DenseVariable,
    SparseFixed,
    SparseVariable,
}

impl AxisKind {
    pub fn is_sparse(self) -> bool {
        matches!(self, Self::SparseFixed | Self::SparseVariable)
    }
    pub fn is_variable(self) -> bool {
        matches!(self, Self::DenseVariable | Self::SparseVariable)
    }
}

/// One axis definition. Values are the operands of its defining op.
#[derive(Clone, Copy)]
pub struct Axis<'c> {
    pub value: Value<'c, 'c>,
    pub kind: AxisKind,
    pub parent: Option<Value<'c, 'c>>,
    pub length: Value<'c, 'c>,
    /// Non-zeros of the space a variable axis closes.
    pub nnz: Option<Value<'c, 'c>>,
    /// Non-zeros per parent position of a sparse fixed axis.
    pub nnz_cols: Option<Value<'c, 'c>>,
    pub indptr: Option<Value<'c, 'c>>,
    pub indices: Option<Value<'c, 'c>>,
    pub sorted: bool,
    /// The defining op, after which auxiliary definitions can be placed.
    pub op: OperationRef<'c, 'c>,
}

/// Forgets the borrow a value was obtained through; IR values live as long
/// as the IR, which outlives every pass invocation.
pub fn detach<'c>(value: Value<'c, '_>) -> Value<'c, 'c> {
    unsafe { Value::from_raw(value.to_raw()) }
}

impl<'c> Axis<'c> {
    /// `None` when `value` is not defined by an axis op.
    pub fn read(value: Value<'c, '_>) -> Option<Self> {
        let op = crate::ir_query::op_result(value).ok()?.owner();
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let name = op.name();
        let kind = match name.as_string_ref().as_str().ok()? {
            "sparse_iter.dense_fixed" => AxisKind::DenseFixed,
            "sparse_iter.dense_variable" => AxisKind::DenseVariable,
            "sparse_iter.sparse_fixed" => AxisKind::SparseFixed,
            "sparse_iter.sparse_variable" => AxisKind::SparseVariable,
            _ => return None,
        };
        let operand = |index: usize| op.operand(index).ok().map(detach);
        let sorted = op.has_attribute("sorted") || !kind.is_sparse();
        let mut axis = Axis {
            value: detach(value),
            kind,
            parent: None,
            length: operand(0)?,
            nnz: None,
            nnz_cols: None,
            indptr: None,
            indices: None,
            sorted,
            op,
        };
        match kind {
            AxisKind::DenseFixed => {}
            AxisKind::DenseVariable => {
                axis.parent = operand(0);
                axis.indptr = operand(1);
                axis.length = operand(2)?;
                axis.nnz = operand(3);
            }
            AxisKind::SparseFixed => {
                axis.parent = operand(0);
                axis.indices = operand(1);
                axis.length = operand(2)?;
                axis.nnz_cols = operand(3);
            }
            AxisKind::SparseVariable => {
                axis.parent = operand(0);
                axis.indptr = operand(1);
                axis.indices = operand(2);
                axis.length = operand(3)?;
                axis.nnz = operand(4);
            }
        }
        Some(axis)
    }

    /// The ancestors of this axis from the root down.
    pub fn ancestors(&self) -> Vec<Axis<'c>> {
        let mut chain = Vec::new();
        let mut next = self.parent;
        while let Some(parent) = next.and_then(Axis::read) {
            next = parent.parent;
            chain.push(parent);
        }
        chain.reverse();
        chain
    }

    /// The block holding the definition.
    pub fn block(&self) -> Option<melior::ir::BlockRef<'c, 'c>> {
        self.op.block().map(|block| unsafe { melior::ir::BlockRef::from_raw(block.to_raw()) })
    }
}

/// A key for maps over IR values.
pub fn key(value: Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}
