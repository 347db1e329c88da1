//! Sparse storage formats and conversions between them.
//!
//! [`Csr`] is the hub: every format is built from a CSR (`X::from_csr`) and converts back
//! to COO / CSR / dense so that round trips can be checked. All index arrays are `i32`
//! (what the generated kernels take) and all values `f32`; every constructor validates
//! its input and returns a [`FormatError`] instead of panicking.

mod bsr;
mod check;
mod coo;
mod csc;
mod csf;
mod csr;
mod dcsr;
mod ell;
mod error;
mod hyb;

pub use bsr::Bsr;
pub use check::MAX_TO_DENSE_ELEMENTS;
pub use coo::Coo;
pub use csc::Csc;
pub use csf::Csf;
pub use csr::Csr;
pub use dcsr::Dcsr;
pub use ell::{Ell, ELL_PAD_COL};
pub use error::FormatError;
pub use hyb::{pow2_bucket_widths, Hyb, HybBucket};

#[cfg(test)]
pub(crate) use csf::tests::random_entries;
#[cfg(test)]
pub(crate) use csr::tests::{random_csr, sample};
