//! Names the sources a binary was built from (`SPTIR_BUILD`: the commit,
//! `-dirty` if tracked files differed from it), so that measurements taken
//! with different builds are not mixed in one table.
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn main() {
    let build = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(changes) if changes.is_empty() => commit,
            _ => format!("{commit}-dirty"),
        },
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SPTIR_BUILD={build}");
    // A directory is watched for a change to any file under it.
    // A commit moves the branch's ref, not HEAD (which names the branch).
    // A path that does not exist would rerun this, and rebuild the crate,
    // every time.
    let watched = ["../.git/HEAD", "../.git/index", "../.git/refs/heads", "../dialects", "../lowering", "../runtime"];
    for path in watched.into_iter().chain(["src", "../Cargo.lock"]) {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
