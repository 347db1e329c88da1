//! `align-workgroup-memory`: every workgroup attribution of a `gpu.func`
//! gets a 16-byte alignment (`llvm.align`), which `convert-gpu-to-nvvm`
//! puts on the shared-memory global it makes. Without one, LLVM assumes
//! the global's preferred alignment and reads a tile with 8- and 16-byte
//! vector loads (`ld.shared.v4.b32`), while the PTX declares only the
//! element's alignment (`.shared .align 4`): a second tile of 9 floats
//! would start at byte 36 and its vector loads would fault.
//!
//! 16 bytes is the widest access sptir makes (four 32-bit lanes); an
//! alignment already given stays.

use crate::{
    ir_query::op_name,
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, WalkOrder},
};

pub const PASS: PassDef = PassDef {
    name: "AlignWorkgroupMemory",
    argument: "align-workgroup-memory",
    description: "Give every workgroup attribution of a gpu.func a 16-byte alignment (llvm.align)",
    options: &[],
    dependent_dialects: "gpu,llvm",
    run,
};

const ALIGN: &str = "llvm.align";
const ATTRIBUTES: &str = "workgroup_attrib_attrs";

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let functions = crate::ir_query::ops_where(root, WalkOrder::PreOrder, |op| op_name(&op) == "gpu.func");
    for function in functions {
        let count = function
            .attribute("workgroup_attributions")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |a| a.value().max(0) as usize);
        if count == 0 {
            continue;
        }
        // Each attribution's dictionary, as text, with the alignment added
        // where it has none.
        let existing: Vec<String> = match function.attribute(ATTRIBUTES) {
            Ok(array) => {
                let array = melior::ir::attribute::ArrayAttribute::try_from(array)
                    .map_err(|_| emit_error(function.location(), format!("'{ATTRIBUTES}' must be an array")))?;
                (0..array.len()).filter_map(|index| array.element(index).ok()).map(|a| a.to_string()).collect()
            }
            Err(_) => Vec::new(),
        };
        let dictionaries: Vec<String> = (0..count)
            .map(|index| {
                let text = existing.get(index).map_or("{}", String::as_str);
                match text.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                    Some(_) if text.contains(ALIGN) => text.to_string(),
                    Some(entries) if entries.trim().is_empty() => format!("{{{ALIGN} = 16 : i64}}"),
                    Some(entries) => format!("{{{entries}, {ALIGN} = 16 : i64}}"),
                    None => text.to_string(),
                }
            })
            .collect();
        let text = format!("[{}]", dictionaries.join(", "));
        let attribute = Attribute::parse(context, &text).ok_or_else(|| {
            emit_error(function.location(), format!("align-workgroup-memory: cannot build the attributes {text}"))
        })?;
        unsafe { OperationRefMut::from_raw(function.to_raw()) }.set_attribute(ATTRIBUTES, attribute);
    }
    Ok(())
}
