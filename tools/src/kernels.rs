//! What `sptir-bench` runs: for an op and a format, the stage I program,
//! its arguments bound from runtime formats and random dense operands, the
//! float64 reference, and how to read the output back in CSR order.

use crate::programs::{self, Param};
use melior::{ir::Module, Context};
use sptir_runtime::{cpu::KernelArg, random_dense, reference, Bsr, Csr, Ell, FormatError, Hyb, ShapeError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Spmm,
    Sddmm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csr,
    Ell,
    Bsr,
    Hyb,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Spmm => "spmm",
            Op::Sddmm => "sddmm",
        }
    }
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Csr => "csr",
            Format::Ell => "ell",
            Format::Bsr => "bsr",
            Format::Hyb => "hyb",
        }
    }
}

/// Format parameters.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// BSR block size.
    pub block: usize,
    /// hyb column partitions `c`.
    pub col_parts: usize,
    /// hyb buckets have widths 1, 2, 4, ..., 2^k.
    pub bucket_exponent: u32,
    /// ELL width; the longest row if absent.
    pub ell_width: Option<usize>,
    /// hyb SpMM stores the sums of the buckets that own their rows
    /// (`programs::hyb_spmm`'s `exclusive`) instead of adding every bucket
    /// into a zeroed C atomically.
    pub hyb_exclusive: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Self { block: 4, col_parts: 1, bucket_exponent: 4, ell_width: None, hyb_exclusive: false }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    #[error("cannot build the {0} format: {1}")]
    Format(&'static str, FormatError),
    #[error(transparent)]
    Shape(#[from] ShapeError),
    #[error("feature size must be at least 1")]
    NoFeatures,
    #[error("a dense operand of {rows} rows and {feat} features is over {limit} elements (8 GiB)")]
    TooLarge { rows: usize, feat: usize, limit: usize },
    #[error(
        "{feat} feature(s) need about {needed} MiB for the dense operands, the output and its float64 \
         reference, and this process may allocate {available} MiB (free memory, ulimit -v, cgroup limit)"
    )]
    OutOfMemory { feat: usize, needed: u64, available: u64 },
    #[error(
        "the {format} format of this matrix needs about {needed} MiB with the kernel's copy of it, its output \
         and the maps that read the output back, and this process may allocate {available} MiB (free memory, \
         ulimit -v, cgroup limit){hint}"
    )]
    FormatOutOfMemory { format: &'static str, needed: u64, available: u64, hint: &'static str },
    #[error("rows {0:?} are not a panel of the matrix")]
    Panel(std::ops::Range<usize>),
}

/// An owned kernel argument.
#[derive(Debug, Clone)]
pub enum Data {
    Ids(Vec<i32>),
    Values(Vec<f32>),
    Output(Vec<f32>),
    Index(usize),
    /// An index that fixes the shape of the kernel's loops (the feature
    /// size, an ELL, bucket or block width): the kernel may be compiled
    /// for its value (see [`Prepared::specialization`]).
    Extent(usize),
}

impl Data {
    pub fn param(&self) -> Param {
        match self {
            Data::Ids(_) => Param::Ids,
            Data::Values(_) | Data::Output(_) => Param::Values,
            Data::Index(_) | Data::Extent(_) => Param::Index,
        }
    }
}

/// Where an output value goes in the CSR-ordered (or dense) result.
#[derive(Debug, Clone)]
enum Readback {
    /// The output's first `len` values, as they are.
    Prefix(usize),
    /// Output `outputs[k]` element `from[i]` goes to result `to[i]`.
    Gather { len: usize, pieces: Vec<(usize, Vec<usize>, Vec<usize>)> },
}

/// A kernel ready to compile and run.
pub struct Prepared {
    pub op: Op,
    pub format: Format,
    pub function: &'static str,
    pub args: Vec<Data>,
    pub reference: Vec<f64>,
    /// Per output element, the sum of the magnitudes of its terms.
    pub magnitudes: Vec<f64>,
    /// The width of each hyb bucket (none for other formats).
    widths: Vec<usize>,
    /// Per hyb bucket: whether it lists a row twice.
    repeats: Vec<bool>,
    /// Per hyb SpMM bucket, with `Layout::hyb_exclusive`: whether it owns
    /// its rows (lists each once, and no other bucket lists them).
    exclusive: Option<Vec<bool>>,
    readback: Readback,
}

impl Prepared {
    /// The stage I program this kernel runs.
    pub fn program<'c>(&self, context: &'c Context) -> Module<'c> {
        match (self.op, self.format) {
            (Op::Spmm, Format::Csr) => programs::csr_spmm(context),
            (Op::Spmm, Format::Ell) => programs::ell_spmm(context),
            (Op::Spmm, Format::Bsr) => programs::bsr_spmm(context),
            (Op::Spmm, Format::Hyb) => programs::hyb_spmm(context, &self.repeats, self.exclusive.as_deref()),
            (Op::Sddmm, Format::Csr) => programs::csr_sddmm(context),
            (Op::Sddmm, Format::Ell) => programs::ell_sddmm(context),
            (Op::Sddmm, Format::Bsr) => programs::bsr_sddmm(context),
            (Op::Sddmm, Format::Hyb) => programs::hyb_sddmm(context, self.widths.len()),
        }
    }

    /// The extents among the parameters, as (position, value).
    pub fn extents(&self) -> Vec<(usize, usize)> {
        self.args
            .iter()
            .enumerate()
            .filter_map(|(position, arg)| match arg {
                Data::Extent(value) => Some((position, *value)),
                _ => None,
            })
            .collect()
    }

    /// How many buckets a hyb kernel has (0 for other formats).
    pub fn buckets(&self) -> usize {
        self.widths.len()
    }

    /// The width of each hyb bucket, in order.
    pub fn bucket_widths(&self) -> &[usize] {
        &self.widths
    }

    /// With `Layout::hyb_exclusive`, whether each hyb SpMM bucket owns
    /// its rows.
    pub fn exclusive_buckets(&self) -> Option<&[bool]> {
        self.exclusive.as_deref()
    }

    /// The parameter list a kernel for this problem must take.
    pub fn params(&self) -> Vec<Param> {
        self.args.iter().map(Data::param).collect()
    }

    /// Fills every output with NaN, so a value the kernel fails to write
    /// shows up in the error.
    pub fn poison(&mut self) {
        for arg in &mut self.args {
            if let Data::Output(values) = arg {
                values.fill(f32::NAN);
            }
        }
    }

    /// The first parameter that the kernel's inputs (every array but the
    /// output) held differently in `before`, a copy of `args` from before
    /// a run on the CPU, where the kernel works in these arrays (the GPU
    /// gets its own copy each run).
    pub fn input_written_since(&self, before: &[Data]) -> Option<usize> {
        let bits = |values: &[f32]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        self.args.iter().zip(before).position(|pair| match pair {
            (Data::Ids(now), Data::Ids(then)) => now != then,
            (Data::Values(now), Data::Values(then)) => bits(now) != bits(then),
            _ => false,
        })
    }

    pub fn kernel_args(&mut self) -> Vec<KernelArg<'_>> {
        self.args
            .iter_mut()
            .map(|arg| match arg {
                Data::Ids(data) => KernelArg::Ids(data),
                Data::Values(data) => KernelArg::Values(data),
                Data::Output(data) => KernelArg::Output(data),
                Data::Index(value) | Data::Extent(value) => KernelArg::Index(*value),
            })
            .collect()
    }

    /// The result in the reference's order.
    pub fn result(&self) -> Vec<f32> {
        let outputs: Vec<&Vec<f32>> = self
            .args
            .iter()
            .filter_map(|arg| match arg {
                Data::Output(values) => Some(values),
                _ => None,
            })
            .collect();
        match &self.readback {
            Readback::Prefix(len) => outputs.first().map(|o| o[..*len].to_vec()).unwrap_or_default(),
            Readback::Gather { len, pieces } => {
                let mut result = vec![f32::NAN; *len];
                for (output, from, to) in pieces {
                    for (&f, &t) in from.iter().zip(to) {
                        result[t] = outputs[*output][f];
                    }
                }
                result
            }
        }
    }
}

/// The pass that compiles `function`, a kernel for a problem with these
/// [`Prepared::extents`], for their values, so that its feature and width
/// loops have constant trip counts.
pub fn specialization(function: &str, extents: &[(usize, usize)]) -> String {
    let list =
        |item: fn(&(usize, usize)) -> usize| extents.iter().map(|e| item(e).to_string()).collect::<Vec<_>>().join(",");
    format!("specialize-arguments{{function={function} args={} values={}}}", list(|e| e.0), list(|e| e.1))
}

/// Position of each stored entry `(row, col)` of `csr`, by binary search.
fn csr_position(csr: &Csr, row: usize, col: usize) -> Option<usize> {
    let range = csr.row_range(row)?;
    let columns = &csr.indices()[range.clone()];
    columns.binary_search(&(col as i32)).ok().map(|offset| range.start + offset)
}

/// `rows x feat` copy of `dense` padded with zero rows to `padded` rows.
fn pad_rows(dense: &[f32], feat: usize, padded: usize) -> Vec<f32> {
    let mut out = dense.to_vec();
    out.resize(padded * feat, 0.0);
    out
}

/// The dense operands of `op` on `a`, from `seed`: SpMM's `B` (cols x
/// feat); SDDMM's `X` (rows x feat) and `Y` (cols x feat). Row-major.
/// Each takes a stream after `seed`'s own, which `randomize_values`
/// gives `a`: from one stream, a row whose columns run 0..k would
/// multiply each value by itself, and terms that never cancel are not
/// the random signs the error bound assumes.
pub fn operands(op: Op, a: &Csr, feat: usize, seed: u64) -> Vec<Vec<f32>> {
    let stream = |k: u64| seed.wrapping_add(k);
    match op {
        Op::Spmm => vec![random_dense(a.cols() * feat, stream(1))],
        Op::Sddmm => vec![random_dense(a.rows() * feat, stream(1)), random_dense(a.cols() * feat, stream(2))],
    }
}

/// Builds the problem: `a` with its values, dense operands from `seed`.
/// For each filled bucket of `hyb`, whether it owns its rows (lists each
/// once, and no other bucket lists them); and the rows of `m` that no
/// such bucket owns, ascending (empty rows, rows of the other buckets).
fn row_owners(hyb: &Hyb, m: usize) -> (Vec<bool>, Vec<usize>) {
    let mut listed = vec![0u32; m];
    for bucket in hyb.filled_buckets() {
        for &row in bucket.row_indices() {
            listed[row as usize] += 1;
        }
    }
    let owners: Vec<bool> =
        hyb.filled_buckets().map(|bucket| bucket.row_indices().iter().all(|&row| listed[row as usize] == 1)).collect();
    let mut owned = vec![false; m];
    for (bucket, _) in hyb.filled_buckets().zip(&owners).filter(|(_, &owns)| owns) {
        for &row in bucket.row_indices() {
            owned[row as usize] = true;
        }
    }
    (owners, (0..m).filter(|&row| !owned[row]).collect())
}

pub fn prepare(
    op: Op,
    format: Format,
    a: &Csr,
    feat: usize,
    layout: Layout,
    seed: u64,
) -> Result<Prepared, KernelError> {
    check_feat(op, a, feat)?;
    prepare_with(op, format, a, feat, layout, operands(op, a, feat, seed))
}

/// The most elements a dense operand may have.
pub const MAX_OPERAND_ELEMENTS: usize = 1 << 31;

/// Whether `feat` features make dense operands of a size this process
/// can allocate (before [`operands`] tries).
pub fn check_feat(op: Op, a: &Csr, feat: usize) -> Result<(), KernelError> {
    check_feat_for(op, a.rows(), a.cols(), a.nnz(), feat)
}

/// `check_feat` for a matrix of `rows` x `cols` with `nnz` non-zeros, before
/// it is built (an R-MAT's shape is known from its spec).
pub fn check_feat_for(op: Op, rows: usize, cols: usize, nnz: usize, feat: usize) -> Result<(), KernelError> {
    if feat == 0 {
        return Err(KernelError::NoFeatures);
    }
    let longer = rows.max(cols);
    match longer.checked_mul(feat) {
        Some(n) if n <= MAX_OPERAND_ELEMENTS => {}
        _ => return Err(KernelError::TooLarge { rows: longer, feat, limit: MAX_OPERAND_ELEMENTS }),
    }
    // The dense operands (f32), the output with its poisoned copy and
    // the float64 reference's sums and magnitudes: SpMM's C, or SDDMM's
    // non-zeros.
    let (m, n, nnz, feat) = (rows as u64, cols as u64, nnz as u64, feat as u64);
    let output = match op {
        Op::Spmm => m * feat,
        Op::Sddmm => nnz,
    };
    let needed = (m + n) * feat * 4 + output * 24;
    sptir_runtime::memory::check_fits(needed).map_err(|(needed, available)| KernelError::OutOfMemory {
        feat: feat as usize,
        needed,
        available,
    })
}

/// Whether `op` in `format` on `a` leaves room for what [`prepare_with`]
/// builds besides the dense operands ([`check_feat`]): the format, the
/// kernel's copy of its arrays, a padded copy of the operands (BSR), the
/// output and the maps that read it back. Padding makes these grow with
/// the longest row (ELL), the block size (BSR) or the widest bucket (hyb),
/// not with the non-zeros, so they are counted before they are allocated.
pub fn check_format_fits(op: Op, format: Format, a: &Csr, feat: usize, layout: Layout) -> Result<(), KernelError> {
    let fmt = |error| KernelError::Format(format.name(), error);
    let (m, n, nnz, feat) = (a.rows() as u64, a.cols() as u64, a.nnz() as u64, feat as u64);
    let sddmm = op == Op::Sddmm;
    // Index and value per slot, in the format and in the kernel's copy.
    let stored = |slots: u64| slots * 16;
    // SDDMM writes a value per slot and reads the non-zeros back through a map.
    let gathered = |slots: u64| if sddmm { slots * 4 + nnz * 16 } else { 0 };
    let (needed, hint) = match format {
        Format::Csr => ((m + 1) * 4 + nnz * 8, ""),
        Format::Ell => {
            let slots = m * layout.ell_width.unwrap_or_else(|| a.max_row_nnz()) as u64;
            (stored(slots) + gathered(slots), "; --ell-panel-slots runs it in smaller row panels")
        }
        Format::Bsr => {
            let b = layout.block as u64;
            let slots = (Bsr::count_blocks(a, layout.block).map_err(fmt)? as u64).saturating_mul(b * b);
            let padded_operands = (m.div_ceil(b) + n.div_ceil(b)) * b * feat * 4;
            (stored(slots) + gathered(slots) + padded_operands, "; a smaller --block pads less")
        }
        Format::Hyb => {
            let widths = sptir_runtime::formats::pow2_bucket_widths(layout.bucket_exponent).map_err(fmt)?;
            let slots = Hyb::count_slots(a, layout.col_parts, &widths).map_err(fmt)? as u64;
            (stored(slots) + gathered(slots), "; a smaller --bucket-exp pads less")
        }
    };
    storage_fits(format.name(), needed, hint)
}

fn storage_fits(format: &'static str, needed: u64, hint: &'static str) -> Result<(), KernelError> {
    sptir_runtime::memory::check_fits(needed).map_err(|(needed, available)| KernelError::FormatOutOfMemory {
        format,
        needed,
        available,
        hint,
    })
}

/// Builds the problem with the given dense operands (see [`operands`]).
pub fn prepare_with(
    op: Op,
    format: Format,
    a: &Csr,
    feat: usize,
    layout: Layout,
    mut dense: Vec<Vec<f32>>,
) -> Result<Prepared, KernelError> {
    if feat == 0 {
        return Err(KernelError::NoFeatures);
    }
    let expected = match op {
        Op::Spmm => vec![a.cols() * feat],
        Op::Sddmm => vec![a.rows() * feat, a.cols() * feat],
    };
    if dense.iter().map(Vec::len).collect::<Vec<_>>() != expected {
        return Err(KernelError::Shape(ShapeError::Length {
            op: op.name(),
            operand: "dense operands",
            expected: expected.iter().sum(),
            found: dense.iter().map(Vec::len).sum(),
            shape: format!("{expected:?}"),
        }));
    }
    check_format_fits(op, format, a, feat, layout)?;
    let (m, n, nnz) = (a.rows(), a.cols(), a.nnz());
    let fmt = |error| KernelError::Format(format.name(), error);
    let mut widths = Vec::new();
    let mut repeats = Vec::new();
    let mut exclusive = None;
    let (function, args, readback, terms) = match op {
        Op::Spmm => {
            let b = dense.remove(0);
            let terms = reference::spmm_terms(a, &b, feat)?;
            let out_len = m * feat;
            match format {
                Format::Csr => (
                    "csr_spmm",
                    vec![
                        Data::Ids(a.indptr().to_vec()),
                        Data::Ids(a.indices().to_vec()),
                        Data::Values(a.values().to_vec()),
                        Data::Values(b),
                        Data::Output(vec![0.0; out_len]),
                        Data::Index(m),
                        Data::Index(n),
                        Data::Index(nnz),
                        Data::Extent(feat),
                    ],
                    Readback::Prefix(out_len),
                    terms,
                ),
                Format::Ell => {
                    let ell = Ell::from_csr(a, layout.ell_width).map_err(fmt)?;
                    (
                        "ell_spmm",
                        vec![
                            Data::Ids(ell.indices().to_vec()),
                            Data::Values(ell.values().to_vec()),
                            Data::Values(b),
                            Data::Output(vec![0.0; out_len]),
                            Data::Index(m),
                            Data::Index(n),
                            Data::Extent(ell.width()),
                            Data::Extent(feat),
                        ],
                        Readback::Prefix(out_len),
                        terms,
                    )
                }
                Format::Bsr => {
                    let bsr = Bsr::from_csr(a, layout.block).map_err(fmt)?;
                    let blk = bsr.block_size();
                    (
                        "bsr_spmm",
                        vec![
                            Data::Ids(bsr.indptr().to_vec()),
                            Data::Ids(bsr.indices().to_vec()),
                            Data::Values(bsr.values().to_vec()),
                            Data::Values(pad_rows(&b, feat, bsr.block_cols() * blk)),
                            Data::Output(vec![0.0; bsr.block_rows() * blk * feat]),
                            Data::Index(bsr.block_rows()),
                            Data::Index(bsr.block_cols()),
                            Data::Index(bsr.num_blocks()),
                            Data::Extent(blk),
                            Data::Extent(feat),
                        ],
                        Readback::Prefix(out_len),
                        terms,
                    )
                }
                Format::Hyb => {
                    let hyb = Hyb::from_csr_pow2(a, layout.col_parts, layout.bucket_exponent).map_err(fmt)?;
                    let mut args = vec![
                        Data::Values(b),
                        Data::Output(vec![0.0; out_len]),
                        Data::Index(m),
                        Data::Index(n),
                        Data::Extent(feat),
                    ];
                    if layout.hyb_exclusive {
                        let (owners, rest) = row_owners(&hyb, m);
                        args.extend([Data::Ids(rest.iter().map(|&r| r as i32).collect()), Data::Index(rest.len())]);
                        exclusive = Some(owners);
                    }
                    for bucket in hyb.filled_buckets() {
                        widths.push(bucket.width());
                        let mut rows = bucket.row_indices().to_vec();
                        rows.sort_unstable();
                        repeats.push(rows.windows(2).any(|pair| pair[0] == pair[1]));
                        args.extend([
                            Data::Ids(bucket.row_indices().to_vec()),
                            Data::Ids(bucket.indices().to_vec()),
                            Data::Values(bucket.values().to_vec()),
                            Data::Index(bucket.num_rows()),
                            Data::Extent(bucket.width()),
                        ]);
                    }
                    ("hyb_spmm", args, Readback::Prefix(out_len), terms)
                }
            }
        }
        Op::Sddmm => {
            let (x, y) = (dense.remove(0), dense.remove(0));
            let terms = reference::sddmm_terms(a, &x, &y, feat)?;
            match format {
                Format::Csr => (
                    "csr_sddmm",
                    vec![
                        Data::Ids(a.indptr().to_vec()),
                        Data::Ids(a.indices().to_vec()),
                        Data::Values(a.values().to_vec()),
                        Data::Values(x),
                        Data::Values(y),
                        Data::Output(vec![0.0; nnz]),
                        Data::Index(m),
                        Data::Index(n),
                        Data::Index(nnz),
                        Data::Extent(feat),
                    ],
                    Readback::Prefix(nnz),
                    terms,
                ),
                Format::Ell => {
                    let ell = Ell::from_csr(a, layout.ell_width).map_err(fmt)?;
                    let width = ell.width();
                    let (mut from, mut to) = (Vec::new(), Vec::new());
                    for row in 0..m {
                        let start = a.row_range(row).map(|r| r.start).unwrap_or(0);
                        for slot in 0..ell.row_len(row) {
                            from.push(row * width + slot);
                            to.push(start + slot);
                        }
                    }
                    (
                        "ell_sddmm",
                        vec![
                            Data::Ids(ell.indices().to_vec()),
                            Data::Values(ell.values().to_vec()),
                            Data::Values(x),
                            Data::Values(y),
                            Data::Output(vec![0.0; m * width]),
                            Data::Index(m),
                            Data::Index(n),
                            Data::Extent(width),
                            Data::Extent(feat),
                        ],
                        Readback::Gather { len: nnz, pieces: vec![(0, from, to)] },
                        terms,
                    )
                }
                Format::Bsr => {
                    let bsr = Bsr::from_csr(a, layout.block).map_err(fmt)?;
                    let blk = bsr.block_size();
                    let (mut from, mut to) = (Vec::new(), Vec::new());
                    for row in 0..m {
                        let (block_row, bi) = (row / blk, row % blk);
                        let blocks = bsr.indptr()[block_row] as usize..bsr.indptr()[block_row + 1] as usize;
                        let block_cols = &bsr.indices()[blocks.clone()];
                        for position in a.row_range(row).unwrap_or(0..0) {
                            let col = a.indices()[position] as usize;
                            if let Ok(offset) = block_cols.binary_search(&((col / blk) as i32)) {
                                from.push(((blocks.start + offset) * blk + bi) * blk + col % blk);
                                to.push(position);
                            }
                        }
                    }
                    (
                        "bsr_sddmm",
                        vec![
                            Data::Ids(bsr.indptr().to_vec()),
                            Data::Ids(bsr.indices().to_vec()),
                            Data::Values(bsr.values().to_vec()),
                            Data::Values(pad_rows(&x, feat, bsr.block_rows() * blk)),
                            Data::Values(pad_rows(&y, feat, bsr.block_cols() * blk)),
                            Data::Output(vec![0.0; bsr.num_blocks() * blk * blk]),
                            Data::Index(bsr.block_rows()),
                            Data::Index(bsr.block_cols()),
                            Data::Index(bsr.num_blocks()),
                            Data::Extent(blk),
                            Data::Extent(feat),
                        ],
                        Readback::Gather { len: nnz, pieces: vec![(0, from, to)] },
                        terms,
                    )
                }
                Format::Hyb => {
                    let hyb = Hyb::from_csr_pow2(a, layout.col_parts, layout.bucket_exponent).map_err(fmt)?;
                    let mut args =
                        vec![Data::Values(x), Data::Values(y), Data::Index(m), Data::Index(n), Data::Extent(feat)];
                    let mut pieces = Vec::new();
                    for (index, bucket) in hyb.filled_buckets().enumerate() {
                        widths.push(bucket.width());
                        let width = bucket.width();
                        let mask = bucket.mask();
                        let (mut from, mut to) = (Vec::new(), Vec::new());
                        for (slot_row, &row) in bucket.row_indices().iter().enumerate() {
                            for slot in 0..width {
                                let flat = slot_row * width + slot;
                                if mask[flat] == 0 {
                                    continue;
                                }
                                if let Some(position) = csr_position(a, row as usize, bucket.indices()[flat] as usize) {
                                    from.push(flat);
                                    to.push(position);
                                }
                            }
                        }
                        pieces.push((index, from, to));
                        args.extend([
                            Data::Ids(bucket.row_indices().to_vec()),
                            Data::Ids(bucket.indices().to_vec()),
                            Data::Values(bucket.values().to_vec()),
                            Data::Index(bucket.num_rows()),
                            Data::Extent(width),
                            Data::Output(vec![0.0; bucket.num_rows() * width]),
                        ]);
                    }
                    ("hyb_sddmm", args, Readback::Gather { len: nnz, pieces }, terms)
                }
            }
        }
    };
    let reference::Terms { values: reference, magnitudes } = terms;
    Ok(Prepared { op, format, function, args, reference, magnitudes, widths, repeats, exclusive, readback })
}

/// The parameters `decompose-format{rule=...}` appends to a kernel whose
/// CSR input is `a`, built by the runtime's conversions: structure arrays
/// as the rule documents them, value arrays as outputs for the copy
/// iterations to fill, sizes.
pub fn decomposition_args(rule: &sptir_lowering::format_rules::BuiltinRule, a: &Csr) -> Result<Vec<Data>, KernelError> {
    use sptir_lowering::format_rules::BuiltinRule;
    let padded = |indices: &[i32], mask: &[i32]| -> Vec<i32> {
        indices.iter().zip(mask).map(|(&column, &real)| if real != 0 { column } else { a.cols() as i32 }).collect()
    };
    // Each slot: the format's index and value, the argument's index and value.
    let slot_bytes = 16;
    Ok(match rule {
        BuiltinRule::Bsr(block) => {
            let blocks = Bsr::count_blocks(a, *block).map_err(|e| KernelError::Format("bsr", e))? as u64;
            storage_fits("bsr", blocks.saturating_mul((block * block) as u64 * slot_bytes), "")?;
            let bsr = Bsr::from_csr(a, *block).map_err(|e| KernelError::Format("bsr", e))?;
            vec![
                Data::Ids(bsr.indptr().to_vec()),
                Data::Ids(bsr.indices().to_vec()),
                Data::Output(vec![0.0; bsr.values().len()]),
                Data::Index(bsr.block_rows()),
                Data::Index(bsr.block_cols()),
                Data::Index(bsr.num_blocks()),
            ]
        }
        BuiltinRule::Ell(width) => {
            storage_fits("ell", (a.rows() as u64).saturating_mul(*width as u64 * slot_bytes), "")?;
            let ell = Ell::from_csr(a, Some(*width)).map_err(|e| KernelError::Format("ell", e))?;
            vec![Data::Ids(padded(ell.indices(), &ell.mask())), Data::Output(vec![0.0; ell.values().len()])]
        }
        BuiltinRule::Hyb { partitions, widths } => {
            let slots = Hyb::count_slots(a, *partitions, widths).map_err(|e| KernelError::Format("hyb", e))? as u64;
            storage_fits("hyb", slots * slot_bytes, "")?;
            let hyb = Hyb::from_csr(a, *partitions, widths).map_err(|e| KernelError::Format("hyb", e))?;
            let mut args = Vec::new();
            for bucket in hyb.buckets() {
                args.extend([
                    Data::Ids(bucket.row_indices().to_vec()),
                    Data::Ids(padded(bucket.indices(), &bucket.mask())),
                    Data::Output(vec![0.0; bucket.values().len()]),
                    Data::Index(bucket.num_rows()),
                ]);
            }
            args
        }
    })
}

impl Prepared {
    /// Appends the parameters of a built-in decomposition of the CSR input.
    pub fn append(&mut self, args: Vec<Data>) {
        self.args.extend(args);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows 0 (one non-zero), 1 (empty), 2 (five: split over the bucket of
    /// width 2) and 3 (two): the bucket of width 1 owns row 0; that of
    /// width 2 lists row 2 three times beside row 3 and owns nothing, so
    /// the rest are rows 1 (empty), 2 and 3.
    #[test]
    fn owners_are_buckets_that_list_their_rows_alone() {
        let a = Csr::new(4, 6, vec![0, 1, 1, 6, 8], vec![0, 0, 1, 2, 3, 4, 1, 5], vec![1.0; 8]).unwrap();
        let hyb = Hyb::from_csr(&a, 1, &[1, 2]).unwrap();
        let (owners, rest) = row_owners(&hyb, 4);
        assert_eq!((owners, rest), (vec![true, false], vec![1, 2, 3]));
        // Two column partitions list row 3 in both, beside row 0 in the
        // first one's bucket of width 1: a bucket owns all its rows or none.
        let hyb = Hyb::from_csr(&a, 2, &[1, 2]).unwrap();
        let listed: Vec<Vec<i32>> = hyb.filled_buckets().map(|b| b.row_indices().to_vec()).collect();
        assert_eq!(listed, vec![vec![0, 3], vec![2, 2], vec![3], vec![2]]);
        assert_eq!(row_owners(&hyb, 4), (vec![false; 4], vec![0, 1, 2, 3]));
    }
}
