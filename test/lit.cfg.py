# lit configuration for sptir: FileCheck tests over sptir-opt.
import os

import lit.formats

config.name = "sptir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.excludes = ["lit.cfg.py", "Inputs"]

# sptir-opt comes from cargo's target directory (SPTIR_BIN_DIR overrides).
bin_dir = os.environ.get("SPTIR_BIN_DIR", os.path.join(root, "target", "debug"))
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.substitutions.append(("%mlir_lib_dir", os.environ.get("LLVM_LIB_DIR", os.path.join(os.path.dirname(llvm_bin), "lib"))))
