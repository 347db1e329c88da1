//! Reading sparse buffer definitions (`match_buffer`, `alloc_buffer`).

use crate::axis::detach;
use melior::ir::{
    operation::{OperationLike, OperationRef},
    Attribute, Type, Value, ValueLike,
};

/// The array under `buffer`, as an identity to compare: its
/// `match_buffer`'s memref through any view, or the buffer itself where
/// it has none (an `alloc_buffer`, an argument). Two buffers over one
/// array alias whatever their axes.
pub fn array(buffer: Value<'_, '_>) -> usize {
    crate::ir_query::root_memref(BufferDef::read(buffer).and_then(|def| def.values).unwrap_or(buffer))
}

pub struct BufferDef<'c> {
    /// The value array of a `match_buffer`; `None` for `alloc_buffer`.
    pub values: Option<Value<'c, 'c>>,
    pub axes: Vec<Value<'c, 'c>>,
    pub element: Type<'c>,
    /// What a load of a coordinate that is not stored reads.
    pub default_value: Option<Attribute<'c>>,
    pub op: OperationRef<'c, 'c>,
}

impl<'c> BufferDef<'c> {
    /// `None` when `buffer` is not defined by a buffer op.
    pub fn read(buffer: Value<'c, '_>) -> Option<Self> {
        let op = crate::ir_query::op_result(buffer).ok()?.owner();
        let op: OperationRef<'c, 'c> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let (element_rank, element) = sptir_dialects::buffer_type_info(buffer.r#type())?;
        let _ = element_rank;
        let operands: Vec<Value<'c, 'c>> = op.operands().map(detach).collect();
        let name = op.name();
        match name.as_string_ref().as_str().ok()? {
            "sparse_iter.match_buffer" => Some(Self {
                values: operands.first().copied(),
                axes: operands[1..].to_vec(),
                element,
                default_value: op.attribute("default_value").ok(),
                op,
            }),
            "sparse_iter.alloc_buffer" => Some(Self { values: None, axes: operands, element, default_value: None, op }),
            _ => None,
        }
    }

    /// The memory an `alloc_buffer` is placed in: its `scope`, `global`
    /// when absent (and for a `match_buffer`).
    pub fn scope(&self) -> String {
        self.op
            .attribute("scope")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map_or_else(|| "global".to_string(), |s| s.value().to_string())
    }
}
