//! Stage I programs built from Rust match what a user writes by hand.

use melior::ir::operation::OperationLike;
use sptir_tools::{context::create_context, programs};

#[test]
fn csr_spmm_built_from_rust_verifies_and_matches_the_example() {
    let context = create_context();
    let built = programs::csr_spmm(&context);
    assert!(built.as_operation().verify());
    let printed = built.as_operation().to_string();
    insta::assert_snapshot!(printed);

    let source = include_str!("../../examples/csr_spmm.mlir");
    let parsed = sptir_dialects::parse_module(&context, source, "csr_spmm.mlir").expect("example parses");
    assert_eq!(printed, parsed.as_operation().to_string());
}
