//! Compiles the C++ shim that lets MLIR's pass registry hold Rust passes.

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    cc::Build::new()
        .cpp(true)
        .compiler(format!("{prefix}/bin/clang++"))
        .file("cpp/RustPass.cpp")
        .include(format!("{prefix}/include"))
        .flag("-std=c++17")
        .flag("-Wno-unused-parameter")
        .compile("sptir_rust_pass");
    println!("cargo:rerun-if-changed=cpp/RustPass.cpp");
}
