//! `guard-memory-accesses` at run time, on accesses through views: a
//! `reinterpret_cast`, `subview` or `memref.view` may claim more memory
//! than its source holds, so an index inside the view's own sizes can
//! still be outside the buffer. Each function below stores (or loads)
//! through a view of an 8-element parameter; the test runs it with
//! positions inside and outside the parameter and reads the count of
//! failed checks and what the access did. An f8 load shows that every
//! float type has a zero to read out of bounds.

use melior::{pass::PassManager, utility::parse_pass_pipeline};
use sptir_runtime::cpu::{CpuKernel, RawArg};
use sptir_tools::context::create_context;

const KERNELS: &str = r#"
func.func @reinterpret(%a: memref<?xf32>, %size: index, %offset: index, %i: index) {
  %one = arith.constant 1.0 : f32
  %v = memref.reinterpret_cast %a to offset: [%offset], sizes: [%size], strides: [1]
       : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  memref.store %one, %v[%i] : memref<?xf32, strided<[1], offset: ?>>
  return
}

func.func @subview(%a: memref<?xf32>, %offset: index, %i: index) {
  %one = arith.constant 1.0 : f32
  %v = memref.subview %a[%offset] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
  memref.store %one, %v[%i] : memref<4xf32, strided<[1], offset: ?>>
  return
}

func.func @rows(%a: memref<?xf32>, %rows: index, %columns: index, %i: index, %j: index) {
  %one = arith.constant 1.0 : f32
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [%rows, %columns], strides: [%columns, 1]
       : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
  memref.store %one, %v[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
  return
}

func.func @vector(%a: memref<?xf32>, %offset: index, %i: index) {
  %one = arith.constant dense<1.0> : vector<4xf32>
  %v = memref.subview %a[%offset] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: ?>>
  vector.store %one, %v[%i] : memref<8xf32, strided<[1], offset: ?>>, vector<4xf32>
  return
}

func.func @bytes(%a: memref<?xi8>, %shift: index, %i: index) {
  %one = arith.constant 1.0 : f32
  %v = memref.view %a[%shift][] : memref<?xi8> to memref<4xf32>
  memref.store %one, %v[%i] : memref<4xf32>
  return
}

func.func @f8(%a: memref<?xf8E4M3FN>, %i: index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%i] : memref<?xf8E4M3FN>
  memref.store %x, %a[%c0] : memref<?xf8E4M3FN>
  return
}
"#;

fn compile() -> (CpuKernel, Vec<String>) {
    let context = create_context();
    let mut module = sptir_dialects::parse_module(&context, KERNELS, "views.mlir").expect("the kernels parse");
    let manager = PassManager::new(&context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(guard-memory-accesses,sptir-stage3-to-llvm)",
    )
    .expect("the pipeline parses");
    manager.run(&mut module).expect("the kernels lower");
    let checks = sptir_lowering::guard_memory_accesses::checks(module.as_operation()).expect("the checks are listed");
    (CpuKernel::compile(&module, 2).expect("the kernels compile"), checks)
}

/// Runs `function` on an 8-element buffer of `T` (zeros) and `indices`;
/// returns the buffer and the number of failed checks.
fn run<T: Copy + Default>(kernel: &CpuKernel, function: &str, indices: &[usize]) -> (Vec<T>, i32) {
    let mut buffer = vec![T::default(); 8];
    let mut faults = [0i32; 2];
    let mut args = vec![RawArg::Memref { address: buffer.as_mut_ptr() as u64, len: buffer.len() }];
    args.extend(indices.iter().map(|&i| RawArg::Index(i as i64)));
    args.push(RawArg::Memref { address: faults.as_mut_ptr() as u64, len: 2 });
    kernel.run_raw(function, &args).unwrap_or_else(|e| panic!("@{function}: {e}"));
    (buffer, faults[0])
}

/// The elements a run set to 1.0.
fn ones(buffer: &[f32]) -> Vec<usize> {
    buffer.iter().enumerate().filter(|(_, &x)| x == 1.0).map(|(i, _)| i).collect()
}

#[test]
fn accesses_through_views_are_checked_against_the_buffer() {
    let (kernel, checks) = compile();
    assert_eq!(checks.len(), 7, "{checks:?}");

    // (function, indices, element written or None when refused)
    let cases: &[(&str, &[usize], Option<usize>)] = &[
        // sizes, offset, index: a view claiming 100 elements
        ("reinterpret", &[100, 0, 7], Some(7)),
        ("reinterpret", &[100, 0, 8], None),
        ("reinterpret", &[100, 0, 99], None),
        ("reinterpret", &[100, 5, 2], Some(7)),
        ("reinterpret", &[100, 5, 3], None),
        // A negative offset (its two's complement as an index).
        ("reinterpret", &[100, usize::MAX, 0], None),
        ("reinterpret", &[100, usize::MAX, 1], Some(0)),
        // offset, index: four elements from the offset
        ("subview", &[4, 3], Some(7)),
        ("subview", &[6, 1], Some(7)),
        ("subview", &[6, 2], None),
        ("subview", &[1000, 0], None),
        // rows, columns, row, column
        ("rows", &[2, 4, 1, 3], Some(7)),
        ("rows", &[4, 4, 2, 0], None),
        ("rows", &[4, 2, 3, 1], Some(7)),
        ("rows", &[5, 2, 4, 0], None),
        // offset, index: four lanes from offset + index
        ("vector", &[4, 0], Some(4)),
        ("vector", &[2, 2], Some(4)),
        ("vector", &[4, 1], None),
        ("vector", &[100, 0], None),
    ];
    let mut wrong = Vec::new();
    for &(function, indices, written) in cases {
        let (buffer, failed) = run::<f32>(&kernel, function, indices);
        let expected = match written {
            Some(first) if function == "vector" => (first..first + 4).collect(),
            Some(at) => vec![at],
            None => vec![],
        };
        let expected_failures = i32::from(written.is_none());
        if ones(&buffer) != expected || failed != expected_failures {
            wrong.push(format!(
                "@{function}{indices:?}: wrote {:?} with {failed} failed checks, expected {expected:?} with {expected_failures}",
                ones(&buffer)
            ));
        }
    }

    // memref.view moves the pointer by bytes: an f32 at byte shift + 4 i of
    // the 8 bytes.
    for (shift, index, inside) in [(0, 1, true), (4, 0, true), (0, 2, false), (2, 1, false), (5, 0, false)] {
        let (bytes, failed) = run::<u8>(&kernel, "bytes", &[shift, index]);
        let written = bytes.iter().any(|&b| b != 0);
        if written != inside || failed != i32::from(!inside) {
            wrong.push(format!("@bytes[{shift}, {index}]: wrote {bytes:?} with {failed} failed checks"));
        }
    }

    // An f8 load out of bounds reads f8 zero (0x00) instead: the buffer's
    // last element (0x38, 1.0) is copied to the first only from inside.
    for (index, inside) in [(7, true), (8, false), (100, false)] {
        let mut buffer = vec![0x11u8; 8];
        buffer[7] = 0x38;
        let mut faults = [0i32; 2];
        let args = [
            RawArg::Memref { address: buffer.as_mut_ptr() as u64, len: 8 },
            RawArg::Index(index as i64),
            RawArg::Memref { address: faults.as_mut_ptr() as u64, len: 2 },
        ];
        kernel.run_raw("f8", &args).unwrap_or_else(|e| panic!("@f8: {e}"));
        let expected = if inside { 0x38 } else { 0x00 };
        if buffer[0] != expected || faults[0] != i32::from(!inside) {
            wrong.push(format!("@f8[{index}]: read {:#x} with {} failed checks", buffer[0], faults[0]));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
