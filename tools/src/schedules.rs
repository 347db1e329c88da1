//! Stage II schedules that `sptir-bench` and the tests name by their
//! parameters instead of spelling out pass lists.

/// The GPU schedule of a row-wise SpMM (`programs::row_spmm`: loops
/// `L.0` rows, `L.init.1` zeroing features, `L.1` non-zeros, `L.2`
/// features): `rows` rows per block on threadIdx.y, each row's features
/// on `threads` threads of threadIdx.x, `vector` consecutive features per
/// thread per step (1, 2 or 4), in chunks of `threads * vector` features.
/// In a kernel compiled for its feature size with 2 to
/// `MAX_UNROLLED_CHUNKS` chunks, the chunks are unrolled inside the
/// non-zero loop: a thread keeps one sum a chunk in registers and reads
/// each non-zero's column and value once (feature coarsening). Otherwise
/// the chunks are walked outside the non-zero loop, each re-walking the
/// row, so that the one sum stays in a register. With `cache` > 0, the
/// row's non-zeros go through shared memory `cache` at a time: the row's
/// threads copy a chunk of columns and values together, then each walks
/// the chunk. Several rows a block each have their own tile, and only a
/// row's threads meet between copy and walk: inside one warp (THREADS
/// dividing 32) or at a named barrier of the row's whole warps (THREADS a
/// multiple of 32, at most 15 rows). With `slice` > 0, the features are
/// cut into slices of `slice` on blockIdx.y, each block walking its rows
/// for one slice: the blocks of a slice run together and gather only that
/// slice of B's rows, which fits in L2 where the whole of B may not
/// (169,343 rows of 512 features are 347 MB; a 32-feature slice is 22 MB
/// against the H100's 50 MB), at the cost of reading the rows' columns
/// and values once a slice. Without `cache`, the non-zero loop runs
/// `unroll` non-zeros a step (LLVM's runtime unrolling, the rest after),
/// so that a long row has that many gathers of B in flight instead of
/// one or two: a row's time is its length times the latency of a column
/// load followed by a row load of B, and the longest rows decide the
/// kernel's time on skewed graphs. `unroll` 0 picks
/// `MAX_UNROLLED_CHUNKS` divided by the chunks unrolled inside the loop
/// (their loaded vectors stay in registers together); 1 unrolls nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowSpmm {
    pub rows: usize,
    pub threads: usize,
    pub vector: usize,
    pub cache: usize,
    pub slice: usize,
    pub unroll: usize,
}

/// As `--row-spmm` takes it: `ROWS,THREADS,VECTOR,CACHE,SLICE,UNROLL`.
impl std::fmt::Display for RowSpmm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let RowSpmm { rows, threads, vector, cache, slice, unroll } = self;
        write!(f, "{rows},{threads},{vector},{cache},{slice},{unroll}")
    }
}

impl RowSpmm {
    /// The pass list for the loops labelled `label.*`, for a kernel
    /// compiled for `feat` features if known.
    pub fn passes(&self, label: &str, feat: Option<usize>) -> String {
        if self.slice_is_whole(feat) {
            return RowSpmm { slice: 0, ..*self }.passes(label, feat);
        }
        let mut passes = Vec::new();
        let nonzeros = format!("{label}.1");
        let features = self.slices(&mut passes, &format!("{label}.2"), Some(&nonzeros));
        self.features(&mut passes, &features);
        let feat = self.slice_features(feat);
        passes.push(self.chunks(&format!("{features}.o"), &nonzeros, feat));
        self.clearing(&mut passes, &format!("{label}.init.1"));
        if self.cache > 0 {
            passes.push(format!("sparse-pos-split{{loop={nonzeros} factor={} clamp=true}}", self.cache));
            passes.push(format!("sparse-pos-cache-read{{loop={nonzeros}.i}}"));
            let copy = format!("{nonzeros}.i.cache");
            if self.cache == self.threads {
                passes.push(format!("sparse-pos-bind{{loop={copy} to=threadIdx.x}}"));
            } else {
                passes.push(format!("sparse-pos-split{{loop={copy} factor={}}}", self.threads));
                passes.push(format!("sparse-pos-bind{{loop={copy}.i to=threadIdx.x}}"));
            }
        } else {
            self.unroll_nonzeros(&mut passes, &nonzeros, feat);
        }
        if self.rows > 1 {
            self.rows(&mut passes, &format!("{label}.0"), false);
        }
        passes.join(",")
    }

    /// The most feature chunks unrolled inside the non-zero loop: each
    /// keeps a sum (a vector of `vector` floats) in registers.
    pub const MAX_UNROLLED_CHUNKS: usize = 8;

    /// Where the chunk loop goes: unrolled inside the non-zero loop
    /// `nonzeros` when `feat` is known and makes 2 to
    /// `MAX_UNROLLED_CHUNKS` chunks, else outside it.
    fn chunks(&self, chunks: &str, nonzeros: &str, feat: Option<usize>) -> String {
        match self.chunk_count(feat) {
            Some(2..=Self::MAX_UNROLLED_CHUNKS) => format!("sparse-pos-unroll{{loop={chunks}}}"),
            _ => format!("sparse-pos-reorder{{loops={chunks},{nonzeros}}}"),
        }
    }

    fn chunk_count(&self, feat: Option<usize>) -> Option<usize> {
        feat.map(|f| f.div_ceil(self.threads * self.vector))
    }

    /// The chunks unrolled inside the non-zero loop (1 when they are
    /// walked outside it).
    fn unrolled_chunks(&self, feat: Option<usize>) -> usize {
        self.chunk_count(feat).filter(|&c| c <= Self::MAX_UNROLLED_CHUNKS).unwrap_or(1).max(1)
    }

    /// The non-zeros a step of the non-zero loop (see `unroll`). Rows that
    /// share a warp walk their own trip counts, so the warp runs the
    /// unrolled loop for the longest and then the rest for the longest
    /// remainder: on the H100 (docs/perf.md, session 30) 16 rows of 8
    /// lanes at 32 features took 0.040 ms on cora unrolled by 8, 0.022
    /// not unrolled; a row of 128 lanes at 512 features, the same.
    pub fn nonzeros_a_step(&self, feat: Option<usize>) -> usize {
        match self.unroll {
            0 if self.rows > 1 && self.threads < 32 => 1,
            0 => (Self::MAX_UNROLLED_CHUNKS / self.unrolled_chunks(feat)).max(1),
            unroll => unroll,
        }
    }

    /// Loop `nonzeros`, of a run-time trip count, unrolled by
    /// `nonzeros_a_step`.
    fn unroll_nonzeros(&self, passes: &mut Vec<String>, nonzeros: &str, feat: Option<usize>) {
        let factor = self.nonzeros_a_step(feat);
        if factor > 1 {
            passes.push(format!("sparse-pos-unroll{{loop={nonzeros} factor={factor}}}"));
        }
    }

    /// Why this schedule cannot be built, if it cannot: the shared-memory
    /// copy needs whole passes of the threads over a chunk, rows whose
    /// threads meet inside one warp where a block has several, and tiles
    /// that fit in a block's shared memory.
    pub fn check(&self) -> Result<(), String> {
        if self.rows == 0 || self.threads == 0 || ![1, 2, 4].contains(&self.vector) {
            return Err(format!("ROWS and THREADS must be at least 1 and VECTOR 1, 2 or 4, got {self}"));
        }
        if self.rows.checked_mul(self.threads).is_none_or(|block| block > 1024) {
            return Err(format!("ROWS * THREADS (threads a block) must be at most 1024, got {self}"));
        }
        if self.cache > sptir_lowering::sparse_pos_cache_read::MAX_TRIP as usize {
            return Err(format!(
                "CACHE must be at most {} (positions a tile holds), got {self}",
                sptir_lowering::sparse_pos_cache_read::MAX_TRIP
            ));
        }
        if self.slice > 0 && !self.slice.is_multiple_of(self.vector) {
            return Err(format!("SLICE must be a multiple of VECTOR (a vector must not cross slices), got {self}"));
        }
        // A slice's chunks are a loop around each row's walk, run whole.
        if self.slice > Self::MAX_SLICE_CHUNKS * self.threads * self.vector {
            return Err(format!(
                "SLICE must be at most {} chunks of THREADS * VECTOR features, got {self}",
                Self::MAX_SLICE_CHUNKS
            ));
        }
        let most_unrolled = sptir_lowering::sparse_pos_unroll::MAX_TRIP as usize;
        if self.unroll > most_unrolled || (self.cache > 0 && self.unroll > 1) {
            return Err(format!(
                "UNROLL must be at most {most_unrolled}, and applies only without CACHE (a cached row walks its tiles), got {self}"
            ));
        }
        if self.cache > 0 && !self.cache.is_multiple_of(self.threads) {
            return Err(format!("caching in shared memory needs CACHE a multiple of THREADS, got {self}"));
        }
        let named_rows = sptir_lowering::lower_row_barriers::MAX_NAMED_ROWS as usize;
        let inside_warp = 32usize.is_multiple_of(self.threads);
        let whole_warps = self.threads.is_multiple_of(32) && self.rows <= named_rows;
        if self.cache > 0 && self.rows > 1 && !inside_warp && !whole_warps {
            return Err(format!(
                "caching in shared memory with several ROWS a block needs THREADS dividing 32 (a row's threads meet inside one warp) or a multiple of 32 with ROWS at most {named_rows} (each row meets at a named barrier), got {self}"
            ));
        }
        // A column (4 bytes) and a value (4 bytes) a cached position.
        if self.cache > 0 && self.rows.saturating_mul(self.cache).saturating_mul(8) > 48 * 1024 {
            return Err(format!(
                "ROWS * CACHE * 8 bytes of tiles must fit in a block's 48 KiB of shared memory, got {self}"
            ));
        }
        Ok(())
    }

    /// The pass list for `programs::hyb_spmm` with one bucket for each of
    /// `widths`: the same schedule on the zeroing iteration and on each
    /// bucket (loops `hybB.1` rows, `hybB.2` non-zeros, `hybB.3` features).
    /// A row may be in several buckets (column partitions, long rows), so
    /// the buckets add to C atomically, which also lets `fuse-launches` run
    /// them all in one launch; with `exclusive` (the program's), a bucket
    /// that owns its rows stores them plainly, clearing each first
    /// (`hybB.init.1`). A bucket whose width the kernel is compiled
    /// for (`Some`), at most `MAX_UNROLLED_WIDTH`, has its non-zero loop
    /// unrolled (SparseTIR unrolls the fixed-width ELL loop), so that the
    /// loads of its non-zeros are in flight together; with `feat` known,
    /// the feature chunks are unrolled as in `passes`, and the non-zero
    /// loop only where the copies of both number at most 64; other buckets
    /// run `unroll` non-zeros a step as csr rows do.
    /// The schedule caches nothing (`cache` is ignored).
    pub fn hyb_passes(&self, widths: &[Option<usize>], exclusive: Option<&[bool]>, feat: Option<usize>) -> String {
        if self.slice_is_whole(feat) {
            return RowSpmm { slice: 0, ..*self }.hyb_passes(widths, exclusive, feat);
        }
        let mut passes = Vec::new();
        // The zeroing iteration: over all rows, or over the rows no bucket
        // owns (`zero.0` is one position, `zero.1` the row list).
        let (zero_rows, zero_features) = if exclusive.is_some() { ("zero.1", "zero.2") } else { ("zero.0", "zero.1") };
        let zeroing = self.slices(&mut passes, zero_features, None);
        self.features(&mut passes, &zeroing);
        self.rows(&mut passes, zero_rows, false);
        let feat = self.slice_features(feat);
        for (bucket, width) in widths.iter().enumerate() {
            let label = format!("hyb{bucket}");
            let nonzeros = format!("{label}.2");
            let owns = exclusive.is_some_and(|e| e[bucket]);
            let features = self.slices(&mut passes, &format!("{label}.3"), Some(&nonzeros));
            self.features(&mut passes, &features);
            passes.push(self.chunks(&format!("{features}.o"), &nonzeros, feat));
            // A bucket that owns its rows clears each first, as csr rows do.
            if owns {
                self.clearing(&mut passes, &format!("{label}.init.1"));
            }
            let copies = |w: usize| w * self.unrolled_chunks(feat);
            match *width {
                Some(1) => {}
                Some(w) if w <= Self::MAX_UNROLLED_WIDTH && copies(w) <= 64 => {
                    passes.push(format!("sparse-pos-unroll{{loop={nonzeros}}}"))
                }
                _ => self.unroll_nonzeros(&mut passes, &nonzeros, feat),
            }
            self.rows(&mut passes, &format!("{label}.1"), !owns);
        }
        passes.join(",")
    }

    /// A row's clearing, the features of loop `init`, on the lanes as its
    /// sum's are, right after the sum's chunk pass: with the chunks
    /// unrolled there, the clearing's too, so that each sum can start from
    /// the zero stored to its element instead of loading it back.
    fn clearing(&self, passes: &mut Vec<String>, init: &str) {
        let unrolled = passes.last().is_some_and(|p| p.starts_with("sparse-pos-unroll"));
        let clearing = self.slices(passes, init, None);
        self.features(passes, &clearing);
        if unrolled {
            passes.push(format!("sparse-pos-unroll{{loop={clearing}.o}}"));
        }
    }

    /// The most feature chunks a slice holds.
    pub const MAX_SLICE_CHUNKS: usize = 64;

    /// The widest hyb bucket whose non-zero loop is unrolled.
    pub const MAX_UNROLLED_WIDTH: usize = 16;

    /// With slices, loop `features` split into slices on blockIdx.y, moved
    /// out of the non-zero loop `nonzeros` (if it is inside one) so that a
    /// block walks its rows once; returns the loop left to the lanes.
    fn slices(&self, passes: &mut Vec<String>, features: &str, nonzeros: Option<&str>) -> String {
        if self.slice == 0 {
            return features.to_string();
        }
        passes.push(format!("sparse-pos-split{{loop={features} factor={}}}", self.slice));
        if let Some(nonzeros) = nonzeros {
            passes.push(format!("sparse-pos-reorder{{loops={features}.o,{nonzeros}}}"));
        }
        passes.push(format!("sparse-pos-bind{{loop={features}.o to=blockIdx.y}}"));
        format!("{features}.i")
    }

    /// Whether a slice holds all `feat` features: then it cuts nothing,
    /// and the schedule is the one without slices.
    fn slice_is_whole(&self, feat: Option<usize>) -> bool {
        self.slice > 0 && feat.is_some_and(|f| f <= self.slice)
    }

    /// The features a block walks: a slice's, or all of them.
    fn slice_features(&self, feat: Option<usize>) -> Option<usize> {
        match self.slice {
            0 => feat,
            slice => Some(feat.map_or(slice, |f| f.min(slice))),
        }
    }

    /// Features in chunks of `threads * vector`, lanes on threadIdx.x.
    fn features(&self, passes: &mut Vec<String>, features: &str) {
        features_on_lanes(passes, features, self.threads, self.vector, "");
    }

    /// `rows` rows a block, on threadIdx.y.
    fn rows(&self, passes: &mut Vec<String>, rows: &str, atomic: bool) {
        let atomic = if atomic { " atomic=true" } else { "" };
        if self.rows > 1 {
            passes.push(format!("sparse-pos-split{{loop={rows} factor={}}}", self.rows));
            passes.push(format!("sparse-pos-bind{{loop={rows}.o to=blockIdx.x{atomic}}}"));
            passes.push(format!("sparse-pos-bind{{loop={rows}.i to=threadIdx.y{atomic}}}"));
        } else {
            passes.push(format!("sparse-pos-bind{{loop={rows} to=blockIdx.x{atomic}}}"));
        }
    }

    /// The default for `feat` features: 16-byte vectors where the
    /// features divide into them, enough threads a row to cover the
    /// features in one step (up to 128), and about 128 threads a block.
    /// On the H100 (docs/perf.md, session 23) covering 512 features with
    /// 128 threads beat four steps of a warp, which re-walk the row.
    pub fn for_features(feat: usize) -> RowSpmm {
        let vector = if feat % 4 == 0 { 4 } else { 1 };
        let threads = feat.div_ceil(vector).next_power_of_two().clamp(1, 128);
        RowSpmm { rows: (128 / threads).max(1), threads, vector, ..RowSpmm::default() }
    }

    /// The default for `feat` features of a B with `cols` rows:
    /// `for_features`, except where B outgrows the H100's 50 MB of L2 from
    /// 256 features, where slices of 128 features on rows of a warp each
    /// keep a slice of B in L2. There, on ogbn-arxiv at 512 features
    /// (347 MB), csr took 0.457 ms sliced against 0.582 unsliced, hyb
    /// 0.557 against 0.682; on email-Enron (75 MB) hyb 0.152 against
    /// 0.167; at 256 features on email-Enron (37 MB) slicing gained
    /// nothing (docs/perf.md, session 30).
    pub fn for_matrix(feat: usize, cols: usize) -> RowSpmm {
        let b_bytes = cols.saturating_mul(feat).saturating_mul(4);
        if feat >= 256 && feat % 4 == 0 && b_bytes > Self::L2_BYTES {
            return RowSpmm { rows: 4, threads: 32, vector: 4, slice: 128, ..RowSpmm::default() };
        }
        Self::for_features(feat)
    }

    /// The H100's L2 cache.
    const L2_BYTES: usize = 50 << 20;

    /// The candidates `--tune` tries for `feat` features: vectors that the
    /// features divide into, threads that cover the features in few
    /// chunks, blocks of 64 to 512 threads; the default walking 1, 4, 8 or
    /// 16 non-zeros a step, less its own.
    pub fn candidates(feat: usize) -> Vec<RowSpmm> {
        let mut list = Vec::new();
        // A vector width the features do not divide into never aligns.
        for vector in [1, 2, 4].into_iter().filter(|v| feat % v == 0) {
            for threads in [8, 16, 32, 64, 128] {
                let chunk = threads * vector;
                // More lanes than features idle; many chunks re-walk the row.
                if chunk > feat.next_power_of_two().max(vector * 8) || feat.div_ceil(chunk) > Self::MAX_UNROLLED_CHUNKS
                {
                    continue;
                }
                for rows in [1, 2, 4, 8, 16] {
                    let block = threads * rows;
                    if (64..=512).contains(&block) || (rows == 1 && block < 64) {
                        list.push(RowSpmm { rows, threads, vector, ..RowSpmm::default() });
                    }
                }
                // Non-zeros through shared memory: a row a block, or rows
                // of a warp each.
                let cached = |rows| RowSpmm { rows, threads, vector, cache: threads, ..RowSpmm::default() };
                if threads >= 32 {
                    list.push(cached(1));
                }
                match threads {
                    32 => list.extend([4, 8].map(cached)),
                    64 => list.extend([2, 4].map(cached)),
                    _ => {}
                }
            }
        }
        // The default with other numbers of non-zeros a step than its own.
        let default = Self::for_features(feat);
        for unroll in [1, 4, 8, 16].into_iter().filter(|&u| u != default.nonzeros_a_step(Some(feat))) {
            list.push(RowSpmm { unroll, ..default });
        }
        // Slices of B that fit in L2 where the whole may not: a slice's
        // features in one step, 128 threads a block.
        for slice in [32, 64, 128].into_iter().filter(|&s| s < feat && feat % 4 == 0) {
            let threads = slice / 4;
            list.push(RowSpmm { rows: 128 / threads, threads, vector: 4, slice, ..RowSpmm::default() });
        }
        list
    }
}

/// The GPU schedules of SDDMM in CSR that put each dot product on a row
/// of `threads` lanes of threadIdx.x (a power of two up to a warp),
/// `vector` consecutive features per lane per step, or (`walk`
/// `RowNonZerosOnLanes`) each on one lane. The lanes' partial sums meet
/// in a warp shuffle and the first lane writes the result: no atomics,
/// and the lanes of a non-zero read its rows of X and Y together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneSddmm {
    pub rows: usize,
    pub threads: usize,
    pub vector: usize,
    pub walk: SddmmWalk,
}

/// As `--sddmm` takes it: `ROWS,THREADS,VECTOR,ROWWISE`.
impl std::fmt::Display for LaneSddmm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let walk = SddmmWalk::ALL.iter().position(|&w| w == self.walk).unwrap_or_default();
        write!(f, "{},{},{},{walk}", self.rows, self.threads, self.vector)
    }
}

/// Which loop an SDDMM schedule puts on threadIdx.y, and what its lanes
/// share. `--sddmm R,T,V,W` numbers them 0, 1, 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SddmmWalk {
    /// After `LaneSddmm::STAGE1` fuses rows and columns into loop
    /// `sddmm.0`: `rows` non-zeros a block on threadIdx.y, each finding
    /// its row by binary search, its features on the lanes.
    NonZeros,
    /// `rows` rows a block on threadIdx.y, each walking its non-zeros
    /// (several a step on one lane, their rows of Y in flight together; no
    /// search, but rows of different lengths take different times), each
    /// non-zero's features on the lanes.
    Rows,
    /// `rows` rows a block on threadIdx.y, a row's non-zeros on its
    /// `threads` lanes, `threads` at a time, each lane a whole dot product
    /// in steps of `vector` features: no search and no shuffle; the row's
    /// features of X are the same address for every lane (one load serves
    /// the warp), but a row shorter than `threads` leaves lanes idle.
    RowNonZerosOnLanes,
}

impl SddmmWalk {
    pub const ALL: [SddmmWalk; 3] = [SddmmWalk::NonZeros, SddmmWalk::Rows, SddmmWalk::RowNonZerosOnLanes];

    /// Its number in `--sddmm R,T,V,W`.
    pub fn number(self) -> usize {
        Self::ALL.iter().position(|&w| w == self).unwrap_or(0)
    }
}

impl LaneSddmm {
    /// The stage I schedule of the non-zero-parallel form.
    pub const STAGE1: &'static str = "sparse-fuse{iteration=sddmm loops=0,1}";

    /// The stage I schedule, if any.
    pub fn stage1(&self) -> Option<&'static str> {
        (self.walk == SddmmWalk::NonZeros).then_some(Self::STAGE1)
    }

    /// The stage II pass list, for a kernel compiled for `feat` features
    /// if known: then a step loop of at most `MAX_UNROLLED_STEPS` is
    /// unrolled, so that a lane's loads of all its features are in flight
    /// together and, row-wise, its features of X's row, the same for every
    /// non-zero of the row, stay in registers across them.
    pub fn passes(&self, feat: Option<usize>) -> String {
        let mut passes = Vec::new();
        self.rows(&mut passes, "sddmm.0");
        match self.walk {
            SddmmWalk::NonZeros => {
                self.lanes(&mut passes, "sddmm.1", feat);
            }
            SddmmWalk::Rows => {
                let unrolled_steps = self.lanes(&mut passes, "sddmm.2", feat);
                self.unroll_nonzeros(&mut passes, "sddmm.1", unrolled_steps);
            }
            SddmmWalk::RowNonZerosOnLanes => {
                passes.push(format!("sparse-pos-split{{loop=sddmm.1 factor={}}}", self.threads));
                passes.push("sparse-pos-bind{loop=sddmm.1.i to=threadIdx.x}".to_string());
                self.steps_in_turn(&mut passes, "sddmm.2", feat);
            }
        }
        passes.join(",")
    }

    /// Loop `features` on one lane, `vector` features a step; its steps
    /// unrolled whole when `feat` makes at most `MAX_UNROLLED_STEPS` of
    /// them, else that many a step, so that their loads are in flight
    /// together.
    fn steps_in_turn(&self, passes: &mut Vec<String>, features: &str, feat: Option<usize>) {
        let steps = if self.vector > 1 {
            passes.push(format!("sparse-pos-split{{loop={features} factor={}}}", self.vector));
            passes.push(format!("sparse-pos-vectorize{{loop={features}.i}}"));
            format!("{features}.o")
        } else {
            features.to_string()
        };
        match feat.map(|f| f.div_ceil(self.vector)) {
            Some(0 | 1) => {}
            Some(n) if n <= Self::MAX_UNROLLED_STEPS => passes.push(format!("sparse-pos-unroll{{loop={steps}}}")),
            _ => passes.push(format!("sparse-pos-unroll{{loop={steps} factor={}}}", Self::MAX_UNROLLED_STEPS)),
        }
    }

    /// A row on one lane walks its non-zeros (loop `nonzeros`) several a
    /// step, their rows of Y in flight together, as row SpMM does: as many
    /// as keep `MAX_UNROLLED_STEPS` feature steps in registers. Lanes that
    /// meet in warp shuffles cannot: LLVM does not unroll those loops by a
    /// factor.
    fn unroll_nonzeros(&self, passes: &mut Vec<String>, nonzeros: &str, unrolled_steps: Option<usize>) {
        let factor = Self::MAX_UNROLLED_STEPS / unrolled_steps.unwrap_or(1);
        if self.threads == 1 && factor > 1 {
            passes.push(format!("sparse-pos-unroll{{loop={nonzeros} factor={factor}}}"));
        }
    }

    /// `rows` positions of loop `rows` a block, on threadIdx.y.
    fn rows(&self, passes: &mut Vec<String>, rows: &str) {
        passes.push(format!("sparse-pos-split{{loop={rows} factor={}}}", self.rows));
        passes.push(format!("sparse-pos-bind{{loop={rows}.o to=blockIdx.x}}"));
        passes.push(format!("sparse-pos-bind{{loop={rows}.i to=threadIdx.y}}"));
    }

    /// Loop `features` on the lanes, their sums joined by shuffles, its
    /// steps unrolled when `feat` makes 2 to `MAX_UNROLLED_STEPS` of them;
    /// returns how many were unrolled.
    fn lanes(&self, passes: &mut Vec<String>, features: &str, feat: Option<usize>) -> Option<usize> {
        features_on_lanes(passes, features, self.threads, self.vector, " shuffle=true");
        let steps = feat.map(|f| f.div_ceil(self.threads * self.vector));
        let unrolled = steps.filter(|s| (2..=Self::MAX_UNROLLED_STEPS).contains(s));
        if unrolled.is_some() {
            passes.push(format!("sparse-pos-unroll{{loop={features}.o}}"));
        }
        unrolled
    }

    /// The most feature steps unrolled: each keeps a vector of X live.
    pub const MAX_UNROLLED_STEPS: usize = 8;

    /// The pass list for `programs::hyb_sddmm` with one bucket for each of
    /// `widths` (loops `sddmmB.1` bucket rows, `sddmmB.2` a row's slots,
    /// `sddmmB.3` features): `rows` bucket rows a block on threadIdx.y,
    /// each walking its slots with its dot products on `threads` lanes.
    /// A bucket row is at most as long as the widest bucket, so, unlike
    /// row-wise CSR, no row holds up its block; its features of X, the same
    /// for each of its slots, stay in registers, and it finds its row in
    /// the bucket's row list instead of by a binary search (with buckets of
    /// width 1 only, `hyb(1, 0)`, that list is COO's row array). A bucket
    /// whose width the kernel is compiled for has its slot loop unrolled
    /// where its copies of the feature steps number at most 64, others on
    /// one lane several slots a step. `walk`
    /// is ignored: every bucket is row-wise, its features on the lanes.
    pub fn hyb_passes(&self, widths: &[Option<usize>], feat: Option<usize>) -> String {
        let mut passes = Vec::new();
        for (bucket, width) in widths.iter().enumerate() {
            let label = format!("sddmm{bucket}");
            let unrolled_steps = self.lanes(&mut passes, &format!("{label}.3"), feat);
            let copies = |w: usize| w * unrolled_steps.unwrap_or(1);
            match *width {
                Some(1) => {}
                Some(w) if w <= RowSpmm::MAX_UNROLLED_WIDTH && copies(w) <= 64 => {
                    passes.push(format!("sparse-pos-unroll{{loop={label}.2}}"))
                }
                _ => self.unroll_nonzeros(&mut passes, &format!("{label}.2"), unrolled_steps),
            }
            self.rows(&mut passes, &format!("{label}.1"));
        }
        passes.join(",")
    }

    /// Why this schedule cannot be built, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if !sptir_lowering::ir_query::LANE_CLUSTERS.contains(&(self.threads as i64))
            || ![1, 2, 4].contains(&self.vector)
            || self.rows == 0
            || self.rows.checked_mul(self.threads).is_none_or(|block| block > 1024)
        {
            return Err(format!(
                "THREADS must be 1, 2, 4, 8, 16 or 32 (lanes of one warp), VECTOR 1, 2 or 4, ROWS at least 1 and ROWS * THREADS at most 1024, got {self}"
            ));
        }
        Ok(())
    }

    /// The default for `feat` features: 16-byte vectors where the
    /// features divide into them, and few lanes a non-zero, each walking
    /// many features, so that its loads are in flight together and fewer
    /// shuffles join the sums. On the H100 (docs/perf.md, session 23) a
    /// lane a non-zero was fastest up to 64 features, four lanes up to
    /// 256 and eight at 512; a lane for every four features (the old
    /// default) was 1.7 to 5.5 times slower than the best schedule tried.
    pub fn for_features(feat: usize) -> LaneSddmm {
        let vector = if feat % 4 == 0 { 4 } else { 1 };
        let threads = match feat {
            0..=64 => 1,
            _ => feat.div_ceil(vector * 16).next_power_of_two().clamp(4, 32),
        };
        let block = if threads == 1 { 128 } else { 256 };
        LaneSddmm { rows: block / threads, threads, vector, walk: SddmmWalk::NonZeros }
    }

    /// The GPU default for hyb SDDMM (`hyb_passes`): a bucket row's dot
    /// products on 8 lanes, 16 bucket rows a block. On the H100
    /// (docs/perf.md, session 30) the csr default's one lane a non-zero
    /// was slower in hyb up to 64 features on all four matrices swept
    /// (ogbn-arxiv at 32: 0.073 ms against 0.033): the four rows of X that
    /// a warp's load touches instead of 32 outweigh three shuffles a slot.
    /// From 128 features, in buckets of one non-zero, 8 lanes came within
    /// 7% of the csr default's 4 or 8 or beat it by up to 14%.
    pub fn for_hyb(feat: usize) -> LaneSddmm {
        let vector = if feat % 4 == 0 { 4 } else { 1 };
        LaneSddmm { rows: 16, threads: 8, vector, walk: SddmmWalk::NonZeros }
    }

    /// The candidates `--tune` tries for `feat` features: vectors that the
    /// features divide into, lanes that cover the features in one to four
    /// steps (a whole warp for more), blocks of
    /// 128 to 512 threads; and a row's non-zeros on 8, 16 or 32 lanes.
    pub fn candidates(feat: usize) -> Vec<LaneSddmm> {
        let mut list = Vec::new();
        for vector in [1, 2, 4].into_iter().filter(|v| feat % v == 0) {
            for threads in [4, 8, 16, 32] {
                let step = threads * vector;
                if step > feat.next_power_of_two().max(vector * 4) || (threads < 32 && feat.div_ceil(step) > 4) {
                    continue;
                }
                for block in [128, 256, 512] {
                    list.push(LaneSddmm { rows: block / threads, threads, vector, walk: SddmmWalk::NonZeros });
                }
                list.push(LaneSddmm { rows: 128 / threads, threads, vector, walk: SddmmWalk::Rows });
            }
        }
        let vector = [4, 2, 1].into_iter().find(|v| feat % v == 0).unwrap_or(1);
        for threads in [8, 16, 32] {
            list.push(LaneSddmm { rows: 128 / threads, threads, vector, walk: SddmmWalk::RowNonZerosOnLanes });
        }
        list
    }
}

/// The largest BSR block whose rows `bsr_spmm` unrolls.
pub const MAX_UNROLLED_BLOCK: usize = 16;

/// The GPU schedule of BSR SpMM (`programs::bsr_spmm`, loop `bsrmm.2` a
/// block's rows) for blocks of `block` rows: the rows unrolled, so that
/// each keeps its sum in a register across the row's blocks instead of
/// loading and storing C at every one; `None` for blocks larger than
/// `MAX_UNROLLED_BLOCK`.
pub fn bsr_spmm(block: usize) -> Option<String> {
    (block <= MAX_UNROLLED_BLOCK).then(|| "sparse-pos-unroll{loop=bsrmm.2}".to_string())
}

/// Loop `features` in chunks of `threads * vector`: each chunk on `threads`
/// lanes of threadIdx.x (bound with the extra options `bind`), `vector`
/// consecutive features a lane as one vector access when above 1.
fn features_on_lanes(passes: &mut Vec<String>, features: &str, threads: usize, vector: usize, bind: &str) {
    passes.push(format!("sparse-pos-split{{loop={features} factor={}}}", threads * vector));
    let lanes = if vector > 1 {
        passes.push(format!("sparse-pos-split{{loop={features}.i factor={vector}}}"));
        passes.push(format!("sparse-pos-vectorize{{loop={features}.i.i}}"));
        format!("{features}.i.o")
    } else {
        format!("{features}.i")
    };
    passes.push(format!("sparse-pos-bind{{loop={lanes} to=threadIdx.x{bind}}}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_cover_every_feature_size() {
        for feat in [1, 7, 32, 64, 128, 256, 512, 1000] {
            let list = RowSpmm::candidates(feat);
            assert!(!list.is_empty(), "feat {feat}");
            for c in &list {
                assert!(c.threads * c.rows <= 512, "{c:?}");
            }
        }
        for feat in [1, 7, 32, 64, 128, 256, 512, 1000] {
            for c in RowSpmm::candidates(feat) {
                assert_eq!(c.check(), Ok(()), "{c:?}");
                assert_eq!(feat % c.vector, 0, "{c:?}");
            }
        }
        let row = |rows, threads, vector| RowSpmm { rows, threads, vector, ..RowSpmm::default() };
        assert_eq!(RowSpmm::for_features(32), row(16, 8, 4));
        assert_eq!(RowSpmm::for_features(7), row(16, 8, 1));
        assert_eq!(RowSpmm::for_features(128), row(4, 32, 4));
        assert_eq!(RowSpmm::for_features(256), row(2, 64, 4));
        assert_eq!(RowSpmm::for_features(512), row(1, 128, 4));
        // Slices of 128 where B (cols x feat floats) outgrows L2 from 256
        // features: ogbn-arxiv's 169,343 columns at 256, not cora's 2,708.
        let sliced = RowSpmm { slice: 128, ..row(4, 32, 4) };
        assert_eq!(RowSpmm::for_matrix(256, 169_343), sliced);
        assert_eq!(RowSpmm::for_matrix(512, 169_343), sliced);
        assert_eq!(RowSpmm::for_matrix(128, 169_343), RowSpmm::for_features(128));
        assert_eq!(RowSpmm::for_matrix(512, 2_708), RowSpmm::for_features(512));
        assert_eq!(RowSpmm::for_matrix(258, 169_343), RowSpmm::for_features(258));
        assert_eq!(RowSpmm::for_matrix(512, usize::MAX), sliced);
        // A slice as wide as the features or wider is no slice; one of
        // more than 64 chunks is refused.
        let wide = RowSpmm { slice: 1024, ..row(16, 8, 1) };
        assert_eq!(wide.passes("csrmm", Some(16)), row(16, 8, 1).passes("csrmm", Some(16)));
        assert_eq!(wide.hyb_passes(&[Some(2)], None, Some(16)), row(16, 8, 1).hyb_passes(&[Some(2)], None, Some(16)));
        assert!(wide.check().is_err());
        assert_eq!(RowSpmm { slice: 512, ..row(16, 8, 1) }.check(), Ok(()));
        assert!(RowSpmm::candidates(128).contains(&row(4, 32, 4)));
        assert!(RowSpmm::candidates(128).contains(&RowSpmm { cache: 32, ..row(1, 32, 4) }));
        assert!(RowSpmm::candidates(128).contains(&RowSpmm { cache: 32, ..row(4, 32, 4) }));
        assert!(RowSpmm::candidates(512).contains(&RowSpmm { cache: 64, ..row(4, 64, 4) }));
        assert_eq!(RowSpmm { cache: 64, ..row(15, 64, 1) }.check(), Ok(()));
        assert!(RowSpmm { cache: 64, ..row(16, 64, 1) }.check().is_err());
        assert!(RowSpmm { cache: 48, ..row(2, 48, 1) }.check().is_err());
        assert_eq!(RowSpmm { cache: 32, ..row(2, 32, 1) }.check(), Ok(()));
        assert_eq!(RowSpmm { cache: 64, ..row(2, 64, 1) }.check(), Ok(()));
        assert!(RowSpmm { cache: 1024, ..row(8, 32, 1) }.check().is_err());
        assert!(RowSpmm { cache: 48, ..row(1, 32, 1) }.check().is_err());
        assert!(RowSpmm { cache: 1056, ..row(1, 32, 1) }.check().is_err());
        // Non-zeros a step: 8 over the chunks a step holds, or as given;
        // none with a cache, nor where rows share a warp.
        assert_eq!(RowSpmm::for_features(512).nonzeros_a_step(Some(512)), 8);
        assert_eq!(RowSpmm::for_features(32).nonzeros_a_step(Some(32)), 1);
        // --tune tries the default with other steps than its own.
        let at_32 = RowSpmm::candidates(32);
        assert!(at_32.contains(&RowSpmm { unroll: 8, ..row(16, 8, 4) }));
        assert!(!at_32.contains(&RowSpmm { unroll: 1, ..row(16, 8, 4) }));
        assert!(!RowSpmm::candidates(512).contains(&RowSpmm { unroll: 8, ..row(1, 128, 4) }));
        assert_eq!(row(1, 8, 4).nonzeros_a_step(Some(32)), 8);
        assert_eq!(RowSpmm { unroll: 4, ..row(16, 8, 4) }.nonzeros_a_step(Some(32)), 4);
        assert!(!RowSpmm::for_features(64).passes("csrmm", Some(64)).contains("unroll{loop=csrmm.1 "));
        assert_eq!(row(2, 32, 4).nonzeros_a_step(Some(512)), 2);
        // 16 chunks are walked outside the non-zero loop: one a step.
        assert_eq!(row(2, 32, 1).nonzeros_a_step(Some(512)), 8);
        assert_eq!(row(2, 32, 4).nonzeros_a_step(None), 8);
        assert_eq!(RowSpmm { unroll: 3, ..row(2, 32, 4) }.nonzeros_a_step(Some(512)), 3);
        assert!(row(2, 32, 4).passes("csrmm", Some(512)).contains("sparse-pos-unroll{loop=csrmm.1 factor=2}"));
        assert!(!RowSpmm { unroll: 1, ..row(2, 32, 4) }.passes("csrmm", Some(512)).contains("unroll{loop=csrmm.1 "));
        assert!(!RowSpmm { cache: 32, ..row(1, 32, 4) }.passes("csrmm", Some(512)).contains("unroll{loop=csrmm.1"));
        assert!(RowSpmm { unroll: 65, ..row(1, 32, 4) }.check().is_err());
        assert!(RowSpmm { cache: 32, unroll: 2, ..row(1, 32, 4) }.check().is_err());
        // hyb: buckets compiled for widths up to 16 unroll whole, others
        // (generic, wider) by the factor.
        let hyb = RowSpmm::for_features(128).hyb_passes(&[Some(1), Some(16), Some(32), None], None, Some(128));
        assert!(!hyb.contains("unroll{loop=hyb0.2"), "{hyb}");
        assert!(hyb.contains("sparse-pos-unroll{loop=hyb1.2}"), "{hyb}");
        assert!(hyb.contains("sparse-pos-unroll{loop=hyb2.2 factor=8}"), "{hyb}");
        assert!(hyb.contains("sparse-pos-unroll{loop=hyb3.2 factor=8}"), "{hyb}");
    }

    #[test]
    fn sddmm_candidates_cover_every_feature_size() {
        for feat in [1, 7, 32, 64, 128, 256, 512, 1000] {
            let list = LaneSddmm::candidates(feat);
            assert!(!list.is_empty(), "feat {feat}");
            for c in list.iter().chain([&LaneSddmm::for_features(feat), &LaneSddmm::for_hyb(feat)]) {
                assert_eq!(c.check(), Ok(()), "{c:?}");
                assert_eq!(feat % c.vector, 0, "{c:?}");
            }
        }
        let lanes = |rows, threads, vector| LaneSddmm { rows, threads, vector, walk: SddmmWalk::NonZeros };
        assert_eq!(LaneSddmm::for_features(32), lanes(128, 1, 4));
        assert_eq!(LaneSddmm::for_features(7), lanes(128, 1, 1));
        assert_eq!(LaneSddmm::for_features(128), lanes(64, 4, 4));
        assert_eq!(LaneSddmm::for_features(256), lanes(64, 4, 4));
        assert_eq!(LaneSddmm::for_features(512), lanes(32, 8, 4));
        assert_eq!(LaneSddmm::for_features(1000), lanes(16, 16, 4));
        assert_eq!(LaneSddmm::for_hyb(32), lanes(16, 8, 4));
        assert_eq!(LaneSddmm::for_hyb(7), lanes(16, 8, 1));
        assert!(LaneSddmm::candidates(128).contains(&LaneSddmm { walk: SddmmWalk::Rows, ..lanes(4, 32, 4) }));
        assert!(lanes(4, 64, 1).check().is_err());
        assert!(lanes(64, 32, 1).check().is_err());
        assert!(lanes(4, 3, 1).check().is_err());
        assert!(lanes(4, 8, 3).check().is_err());
    }
}
