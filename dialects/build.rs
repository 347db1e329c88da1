//! Builds the C++ dialect library from the ODS files with CMake (the
//! top-level CMakeLists.txt) and links it into the crate.

use std::{env, path::PathBuf, process::Command};

fn run(command: &mut Command) {
    let status = command
        .status()
        .unwrap_or_else(|error| panic!("cannot run {:?}: {error} (run ./setup.sh first)", command.get_program()));
    assert!(status.success(), "{command:?} failed with {status}");
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().to_path_buf();
    let build = PathBuf::from(env::var("OUT_DIR").unwrap()).join("cmake");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());

    run(Command::new("cmake")
        .arg("-G")
        .arg("Ninja")
        .arg("-S")
        .arg(&root)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_BUILD_TYPE=Release")
        .arg(format!("-DMLIR_DIR={prefix}/lib/cmake/mlir"))
        .arg(format!("-DCMAKE_C_COMPILER={prefix}/bin/clang"))
        .arg(format!("-DCMAKE_CXX_COMPILER={prefix}/bin/clang++"))
        .stdout(std::process::Stdio::null()));
    run(Command::new("cmake").arg("--build").arg(&build).arg("--target").arg("SptirDialects"));

    println!("cargo:rustc-link-search=native={}", build.join("dialects").display());
    println!("cargo:rustc-link-lib=static=SptirDialects");
    println!("cargo:rustc-link-lib=stdc++");
    // The dialect! macro reads our .td files from here at expansion time.
    println!("cargo:rustc-env=SPTIR_TD_INCLUDE={}", manifest.join("include").display());
    for path in ["../CMakeLists.txt", "CMakeLists.txt", "include", "lib"] {
        println!("cargo:rerun-if-changed={}", manifest.join(path).display());
    }
}
