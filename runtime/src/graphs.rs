//! Where the real graphs live: `$SPTIR_GRAPHS_DIR`, the three bundled in
//! the project's `data/graphs/`, and the larger set in `../shared/data/graphs/`
//! beside a checkout (absent from a user's clone). Tests and tools look
//! graphs up here and say so when one is missing.

use std::path::PathBuf;

/// The folders searched, in order.
pub fn search_path() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut folders = Vec::new();
    if let Some(dir) = std::env::var_os("SPTIR_GRAPHS_DIR") {
        folders.push(PathBuf::from(dir));
    }
    folders.push(root.join("data/graphs"));
    folders.push(root.join("../shared/data/graphs"));
    folders
}

/// The file `NAME.mtx.gz` from the first folder that has it.
pub fn locate(name: &str) -> Option<PathBuf> {
    search_path().into_iter().map(|dir| dir.join(format!("{name}.mtx.gz"))).find(|path| path.is_file())
}

/// Like [`locate`], printing a line that says the caller skips when the
/// graph is nowhere.
pub fn locate_or_skip(name: &str) -> Option<PathBuf> {
    let found = locate(name);
    if found.is_none() {
        let folders: Vec<String> = search_path().iter().map(|dir| dir.display().to_string()).collect();
        println!("skipping {name}: {name}.mtx.gz is in none of {}", folders.join(", "));
    }
    found
}
