//! `serialize-launches`: runs each `gpu.launch` as plain nested loops over
//! its blocks and threads, one after the other. A test instrument: the GPU
//! path's index arithmetic, guards, atomics and register accumulation can
//! then be checked on the CPU JIT. Sequential order hides races, which is
//! why `lower-loop-bindings` rejects the shapes that would race.

use crate::{
    axis::detach,
    ir_builder::{erase, replace_uses, Builder},
    ir_query::{op_name, outermost},
    pass_registry::{emit_error, PassDef, PassFailed, PassOptions},
};
use melior::{
    dialect::scf,
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        Block, Region, RegionLike, Type, Value,
    },
};

pub const PASS: PassDef = PassDef {
    name: "SerializeLaunches",
    argument: "serialize-launches",
    description: "Test instrument: run gpu.launch bodies as sequential loops over blocks and threads (for the CPU)",
    options: &[],
    dependent_dialects: "arith,scf",
    run,
};

fn run(root: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    for launch in outermost(root, |op| op_name(op) == "gpu.launch") {
        let location = launch.location();
        let sizes: Vec<Value> = launch.operands().map(detach).collect();
        if sizes.len() != 6 {
            return Err(emit_error(
                location,
                "serialize-launches: only launches with six sizes and nothing else are supported",
            ));
        }
        let body = launch
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| emit_error(location, "launch without body"))?;
        let mut builder = Builder::before(context, launch)
            .ok_or_else(|| emit_error(location, "launch is not in a block"))?
            .at(location);
        let zero = builder.index(0);
        let one = builder.index(1);
        let index = Type::index(context);
        let mut ids = Vec::new();
        for &size in &sizes {
            let block = Block::new(&[(index, location)]);
            let end = block.append_operation(scf::r#yield(&[], location));
            let end: OperationRef = unsafe { OperationRef::from_raw(end.to_raw()) };
            ids.push(detach(block.argument(0).map_err(|_| emit_error(location, "internal"))?.into()));
            let region = Region::new();
            region.append_block(block);
            builder.insert(scf::r#for(zero, size, one, region, location));
            builder = Builder::before(context, end).ok_or_else(|| emit_error(location, "internal"))?.at(location);
        }
        // Arguments: block ids, thread ids, grid sizes, block sizes.
        for (n, value) in ids.iter().chain(&sizes).enumerate() {
            if let Ok(argument) = body.argument(n) {
                let argument: Value = argument.into();
                replace_uses(argument, *value);
            }
        }
        let mut next = body.first_operation().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
        while let Some(op) = next {
            next = op.next_in_block().map(|o| unsafe { OperationRef::from_raw(o.to_raw()) });
            if next.is_none() {
                break; // gpu.terminator
            }
            let op: OperationRef = op;
            builder.insert_existing(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        erase(launch);
    }
    Ok(())
}
