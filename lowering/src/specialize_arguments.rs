//! `specialize-arguments`: compiles a function for known values of some of
//! its `index` arguments, such as a feature size, an ELL or bucket width or
//! a block size. SparseTIR builds each kernel for its feature size; here the
//! function keeps its signature (callers bind the same parameters) and
//! every use of a specialized argument reads an `arith.constant` instead.
//! The axes built from it get static lengths, so loop trip counts become
//! constants that schedules can unroll, and tail guards and vector
//! alignment checks fold away. A caller must then pass exactly that value:
//! the function asserts it (`cf.assert`), as a wrong one would compute
//! with the other silently.

use crate::{
    ir_builder::{replace_uses, Builder},
    ir_query::symbol_name,
    pass_registry::{emit_error, OptionKind, PassDef, PassFailed, PassOption, PassOptions},
};
use melior::{
    dialect::{arith, ods::cf},
    ir::{
        attribute::StringAttribute,
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        r#type::TypeLike,
        RegionLike, ValueLike,
    },
};

pub const PASS: PassDef = PassDef {
    name: "SpecializeArguments",
    argument: "specialize-arguments",
    description: "Compile a function for known values of index arguments (function=NAME args=I,J values=V,W)",
    options: &[
        PassOption {
            name: "function",
            help: "symbol name of the func.func to specialize",
            required: true,
            kind: OptionKind::Text,
        },
        PassOption {
            name: "args",
            help: "comma-separated positions of its index arguments",
            required: true,
            kind: OptionKind::Indices,
        },
        PassOption {
            name: "values",
            help: "comma-separated values, one for each of args",
            required: true,
            kind: OptionKind::Integers,
        },
    ],
    dependent_dialects: "arith,cf",
    run,
};

fn run(root: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let fail = |message: String| {
        emit_error(crate::pass_registry::options_location(root), format!("specialize-arguments: {message}"))
    };
    let name = options.get("function").unwrap_or_default();
    let (args, values) = (options.indices("args"), options.integers("values"));
    if args.len() != values.len() {
        return Err(fail(format!("{} args but {} values", args.len(), values.len())));
    }
    if let Some(repeated) = args.iter().enumerate().find_map(|(i, a)| args[..i].contains(a).then_some(a)) {
        return Err(fail(format!("argument {repeated} is named twice")));
    }
    let is_named = |op: &OperationRef| {
        op.name().as_string_ref().as_str() == Ok("func.func") && symbol_name(op).as_deref() == Some(name)
    };
    // Scheduled on a function (`func.func(specialize-arguments{...})`), the
    // pass touches only the one named; on a module, the function of that
    // name in its symbol table (not those of nested modules).
    let function = if root.name().as_string_ref().as_str() == Ok("func.func") {
        if !is_named(&root) {
            return Ok(());
        }
        root
    } else {
        let mut next = root.region(0).ok().and_then(|body| body.first_block()).and_then(|b| b.first_operation());
        let mut found = None;
        while let Some(op) = next {
            next = op.next_in_block();
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
            if is_named(&op) {
                found = Some(op);
                break;
            }
        }
        found.ok_or_else(|| fail(format!("no func.func @{name}")))?
    };
    let location = function.location();
    let Some(entry) = function.region(0).ok().and_then(|body| body.first_block()) else {
        return Err(emit_error(location, format!("specialize-arguments: @{name} has no body")));
    };
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    let builder = entry
        .first_operation()
        .and_then(|first| Builder::before(context, first))
        .ok_or_else(|| emit_error(location, format!("specialize-arguments: @{name} has an empty body")))?;
    for (position, &value) in args.iter().zip(&values) {
        let argument = entry.argument(*position).map_err(|_| {
            emit_error(
                location,
                format!(
                    "specialize-arguments: @{name} has {} arguments, so it has no argument {position}",
                    entry.argument_count()
                ),
            )
        })?;
        if !argument.r#type().is_index() {
            return Err(emit_error(
                location,
                format!("specialize-arguments: argument {position} of @{name} is {}, not index", argument.r#type()),
            ));
        }
        let constant = builder.index(value);
        replace_uses(argument.into(), constant);
        // A caller that passes another value would get a wrong result
        // silently: the function stops it, naming the argument.
        let passed = builder.cmp(arith::CmpiPredicate::Eq, argument.into(), constant);
        builder.insert(
            cf::AssertOperation::builder(context, location)
                .arg(passed)
                .msg(StringAttribute::new(
                    context,
                    &format!(
                        "specialize-arguments: @{name} was compiled for argument {position} = {value}, and is called with another value"
                    ),
                ))
                .build(),
        );
    }
    Ok(())
}
