//! 8-bit floats (`f8E4M3FN`, `f8E5M2`) through `sptir-stage3-to-llvm`:
//! `expand-f8-conversions` widens and narrows them with integer operations.
//! Widening is checked on every code; narrowing from f32, f64 and bf16 on
//! every f8 value, the midpoints between neighbours (ties to even) and a
//! step beside each, the edges (overflow, subnormals, zeros, infinities,
//! NaN) and random bit patterns, against a brute-force nearest-value
//! reference. Arithmetic on f8 runs in f32 between such conversions.

use melior::{pass::PassManager, utility::parse_pass_pipeline};
use sptir_runtime::{
    cpu::{CpuKernel, RawArg},
    SplitMix64,
};
use sptir_tools::context::create_context;

/// An f8 format: exponent bits, mantissa bits, bias, whether it has
/// infinities (`f8E5M2`) or only one NaN (`f8E4M3FN`).
#[derive(Clone, Copy)]
struct Format {
    name: &'static str,
    exponent: u32,
    mantissa: u32,
    bias: i32,
    ieee: bool,
}

const E4M3FN: Format = Format { name: "f8E4M3FN", exponent: 4, mantissa: 3, bias: 7, ieee: false };
const E5M2: Format = Format { name: "f8E5M2", exponent: 5, mantissa: 2, bias: 15, ieee: true };

impl Format {
    /// The value of a code; NaN for NaN codes.
    fn decode(&self, code: u8) -> f64 {
        let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
        let exponent = i32::from(code >> self.mantissa) & ((1 << self.exponent) - 1);
        let mantissa = f64::from(code & ((1 << self.mantissa) - 1));
        let top = (1 << self.exponent) - 1;
        if self.ieee && exponent == top {
            return if mantissa == 0.0 { sign * f64::INFINITY } else { f64::NAN };
        }
        if !self.ieee && code & 0x7F == 0x7F {
            return f64::NAN;
        }
        let fraction = mantissa / f64::from(1 << self.mantissa);
        match exponent {
            0 => sign * fraction * 2f64.powi(1 - self.bias),
            _ => sign * (1.0 + fraction) * 2f64.powi(exponent - self.bias),
        }
    }

    /// The largest finite code and what overflow gives (without sign).
    fn limits(&self) -> (u8, u8) {
        match self.ieee {
            true => (0x7B, 0x7C),
            false => (0x7E, 0x7F),
        }
    }

    /// `x` rounded to the nearest code, ties to the even code; past the
    /// largest finite value by half a step or more, overflow (the step
    /// beyond stands as one more code).
    fn nearest(&self, x: f64) -> Option<u8> {
        if x.is_nan() {
            return None;
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let (max_finite, overflow) = self.limits();
        let beyond = 2.0 * self.decode(max_finite) - self.decode(max_finite - 1);
        if x.abs() >= beyond {
            return Some(sign | overflow);
        }
        let mut best = (f64::INFINITY, 0u8);
        for code in (0..=max_finite).chain([max_finite + 1]) {
            let value = if code > max_finite { beyond } else { self.decode(code) };
            let distance = (x.abs() - value).abs();
            if distance < best.0 || (distance == best.0 && code % 2 == 0) {
                best = (distance, code);
            }
        }
        let code = if best.1 > max_finite { overflow } else { best.1 };
        Some(sign | code)
    }

    fn is_nan_code(&self, code: u8) -> bool {
        self.decode(code).is_nan()
    }
}

fn kernels() -> String {
    let mut source = String::new();
    for f8 in ["f8E4M3FN", "f8E5M2"] {
        let short = &f8[2..];
        for (wide, bits) in [("f32", 32), ("f64", 64), ("bf16", 16)] {
            source += &format!(
                r#"
func.func @narrow_{short}_{wide}(%in: memref<?xi{bits}>, %out: memref<?xi8>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    %b = memref.load %in[%i] : memref<?xi{bits}>
    %x = arith.bitcast %b : i{bits} to {wide}
    %y = arith.truncf %x : {wide} to {f8}
    %c = arith.bitcast %y : {f8} to i8
    memref.store %c, %out[%i] : memref<?xi8>
  }}
  return
}}
"#
            );
        }
        for wide in ["f32", "f64"] {
            source += &format!(
                r#"
func.func @widen_{short}_{wide}(%in: memref<?xi8>, %out: memref<?x{wide}>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    %b = memref.load %in[%i] : memref<?xi8>
    %x = arith.bitcast %b : i8 to {f8}
    %y = arith.extf %x : {f8} to {wide}
    memref.store %y, %out[%i] : memref<?x{wide}>
  }}
  return
}}
"#
            );
        }
        // Four at a time, as vectorized feature loops convert.
        source += &format!(
            r#"
func.func @narrow4_{short}(%in: memref<?xf32>, %out: memref<?xi8>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {{
    %x = vector.load %in[%i] : memref<?xf32>, vector<4xf32>
    %y = arith.truncf %x : vector<4xf32> to vector<4x{f8}>
    %c = arith.bitcast %y : vector<4x{f8}> to vector<4xi8>
    vector.store %c, %out[%i] : memref<?xi8>, vector<4xi8>
  }}
  return
}}
"#
        );
    }
    // f8 arithmetic: c = a * b + a, each operation rounded to f8.
    source += r#"
func.func @fma_E5M2(%a: memref<?xi8>, %b: memref<?xi8>, %out: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ab = memref.load %a[%i] : memref<?xi8>
    %bb = memref.load %b[%i] : memref<?xi8>
    %x = arith.bitcast %ab : i8 to f8E5M2
    %y = arith.bitcast %bb : i8 to f8E5M2
    %p = arith.mulf %x, %y : f8E5M2
    %s = arith.addf %p, %x : f8E5M2
    %c = arith.bitcast %s : f8E5M2 to i8
    memref.store %c, %out[%i] : memref<?xi8>
  }
  return
}
"#;
    source
}

fn compile() -> CpuKernel {
    let context = create_context();
    let mut module = sptir_dialects::parse_module(&context, &kernels(), "f8.mlir").expect("the kernels parse");
    let manager = PassManager::new(&context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), "builtin.module(sptir-stage3-to-llvm)")
        .expect("the pipeline parses");
    manager.run(&mut module).expect("the kernels lower");
    CpuKernel::compile(&module, 2).expect("the kernels compile")
}

fn run<I, O: Copy + Default>(kernel: &CpuKernel, function: &str, input: &[I]) -> Vec<O> {
    let mut output = vec![O::default(); input.len()];
    let args = [
        RawArg::Memref { address: input.as_ptr() as u64, len: input.len() },
        RawArg::Memref { address: output.as_mut_ptr() as u64, len: output.len() },
        RawArg::Index(input.len() as i64),
    ];
    kernel.run_raw(function, &args).unwrap_or_else(|e| panic!("@{function}: {e}"));
    output
}

/// Values to narrow: every f8 value, each midpoint between neighbours and
/// values a little either side of it (`nudge` of a step), zeros,
/// infinities, NaN, values far out of range, and random bit patterns.
fn inputs(format: Format, random: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut values: Vec<f64> = Vec::new();
    let (max_finite, _) = format.limits();
    let beyond = 2.0 * format.decode(max_finite) - format.decode(max_finite - 1);
    let mut magnitudes: Vec<f64> = (0..=max_finite).map(|c| format.decode(c)).collect();
    magnitudes.push(beyond);
    for pair in magnitudes.windows(2) {
        let (low, high) = (pair[0], pair[1]);
        let middle = (low + high) / 2.0;
        values.extend([low, middle, middle + (high - low) / 64.0, middle - (high - low) / 64.0]);
    }
    values.extend([beyond, 2.0 * beyond, 1e30, f64::MAX, f64::MIN_POSITIVE, 1e-30, 0.0]);
    values.extend([f64::INFINITY, f64::NAN]);
    let negated: Vec<f64> = values.iter().map(|v| -v).collect();
    values.extend(negated);
    values.extend(random);
    values
}

#[test]
fn f8_conversions_round_to_nearest_even() {
    let kernel = compile();
    let mut wrong = Vec::new();
    for format in [E4M3FN, E5M2] {
        let short = &format.name[2..];
        // Widening: every code.
        let codes: Vec<u8> = (0..=255).collect();
        let as_f32: Vec<f32> = run(&kernel, &format!("widen_{short}_f32"), &codes);
        let as_f64: Vec<f64> = run(&kernel, &format!("widen_{short}_f64"), &codes);
        for &code in &codes {
            let expected = format.decode(code);
            let (got32, got64) = (f64::from(as_f32[code as usize]), as_f64[code as usize]);
            let same = |got: f64| (got.is_nan() && expected.is_nan()) || got.to_bits() == expected.to_bits();
            if !same(got32) || !same(got64) {
                wrong.push(format!(
                    "{} code {code:#04x}: widened to {got32} / {got64}, expected {expected}",
                    format.name
                ));
            }
        }

        // Narrowing from f32, f64 and bf16, and four f32 at a time.
        let mut seeds = SplitMix64::new(format.exponent as u64);
        let random64: Vec<f64> = (0..20000).map(|_| f64::from_bits(seeds.next_u64())).collect();
        let random32: Vec<f64> = (0..20000).map(|_| f64::from(f32::from_bits(seeds.next_u64() as u32))).collect();
        let check = |wrong: &mut Vec<String>, what: &str, values: &[f64], got: &[u8]| {
            for (&x, &code) in values.iter().zip(got) {
                let ok = match format.nearest(x) {
                    None => format.is_nan_code(code),
                    Some(expected) => code == expected,
                };
                if !ok && wrong.len() < 40 {
                    wrong.push(format!(
                        "{} from {what}: {x:e} ({:#x}) narrowed to {code:#04x}, expected {:?}",
                        format.name,
                        x.to_bits(),
                        format.nearest(x).map(|c| format!("{c:#04x}"))
                    ));
                }
            }
        };
        let values64 = inputs(format, random64.into_iter());
        let bits64: Vec<u64> = values64.iter().map(|v| v.to_bits()).collect();
        check(&mut wrong, "f64", &values64, &run(&kernel, &format!("narrow_{short}_f64"), &bits64));

        // The f32 inputs are the f64 ones that f32 holds exactly, plus
        // random f32s (subnormals among them).
        let mut values32: Vec<f64> = inputs(format, random32.into_iter())
            .into_iter()
            .filter(|&v| v.is_nan() || f64::from(v as f32) == v)
            .collect();
        values32.truncate(values32.len() / 4 * 4);
        let floats: Vec<f32> = values32.iter().map(|&v| v as f32).collect();
        let bits32: Vec<u32> = floats.iter().map(|v| v.to_bits()).collect();
        check(&mut wrong, "f32", &values32, &run(&kernel, &format!("narrow_{short}_f32"), &bits32));
        check(&mut wrong, "vector<4xf32>", &values32, &run(&kernel, &format!("narrow4_{short}"), &floats));

        // bf16 is f32's upper half: the inputs bf16 holds exactly.
        let values16: Vec<f64> = values32.iter().copied().filter(|&v| (v as f32).to_bits() & 0xFFFF == 0).collect();
        let bits16: Vec<u16> = values16.iter().map(|&v| ((v as f32).to_bits() >> 16) as u16).collect();
        check(&mut wrong, "bf16", &values16, &run(&kernel, &format!("narrow_{short}_bf16"), &bits16));
    }

    // Arithmetic in f8E5M2: a * b + a, each step rounded to f8 (exact in
    // f32 before rounding for these operands).
    let (a, b): (Vec<u8>, Vec<u8>) = (0..=255u8).flat_map(|x| (0..=255u8).map(move |y| (x, y))).unzip();
    let mut out = vec![0u8; a.len()];
    let args = [
        RawArg::Memref { address: a.as_ptr() as u64, len: a.len() },
        RawArg::Memref { address: b.as_ptr() as u64, len: b.len() },
        RawArg::Memref { address: out.as_mut_ptr() as u64, len: out.len() },
        RawArg::Index(a.len() as i64),
    ];
    kernel.run_raw("fma_E5M2", &args).expect("@fma_E5M2 runs");
    for ((&x, &y), &code) in a.iter().zip(&b).zip(&out) {
        let product = E5M2.nearest(E5M2.decode(x) * E5M2.decode(y)).map(|p| E5M2.decode(p));
        let expected = product.and_then(|p| E5M2.nearest(p + E5M2.decode(x)));
        let ok = match expected {
            None => E5M2.is_nan_code(code),
            Some(expected) => code == expected || (E5M2.decode(code) == 0.0 && E5M2.decode(expected) == 0.0),
        };
        if !ok && wrong.len() < 60 {
            wrong.push(format!("f8E5M2 {x:#04x} * {y:#04x} + {x:#04x} = {code:#04x}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
