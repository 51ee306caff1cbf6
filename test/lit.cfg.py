# -*- Python -*-
# lit configuration of the FlashFuser regression tests (check-ff).

import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FLASHFUSER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ff_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%ff_src_root", config.ff_src_root))
config.substitutions.append(("%ff_obj_root", config.ff_obj_root))
# Python3_EXECUTABLE is empty when CMake did not look Python up: use lit's.
config.substitutions.append(("%python",
                             config.python_executable or sys.executable))

# Scripts that fit or check the cost model need numpy.
if subprocess.run([config.python_executable or sys.executable, "-c",
                   "import numpy"], capture_output=True).returncode == 0:
    config.available_features.add("numpy")

# Same as MLIR's own suite: catch stale captured variables.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME"])
llvm_config.use_default_substitutions()

tool_dirs = [config.ff_tools_dir, config.llvm_tools_dir]
tools = ["ff-opt", "mlir-opt", "mlir-translate", "not", "count", "split-file"]
if os.path.exists(os.path.join(config.ff_tools_dir, "ff-run")):
    config.available_features.add("runtime")
    tools.append("ff-run")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas: PATH, then $CUDA_HOME/bin, then the toolkit's default prefix.
def find_ptxas():
    candidates = [shutil.which("ptxas")]
    if os.environ.get("CUDA_HOME"):
        candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin", "ptxas"))
    candidates.append("/usr/local/cuda/bin/ptxas")
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None

ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    # MLIR's gpu-module-to-binary looks ptxas up through CUDA_HOME and PATH.
    config.environment["PATH"] = os.path.dirname(ptxas) + os.pathsep + \
        config.environment["PATH"]
