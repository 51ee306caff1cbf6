"""FlashFuser: fused GEMM-chain kernels for Hopper thread-block clusters.

- ``load(bundle_dir, fallback="never")`` -> Kernel: run a compiled bundle
  with the runtime; ``fallback="auto"`` runs the same chain as plain PyTorch
  ops instead in the M bins where that was measured faster ("always": only
  that; see flashfuser.fallback);
- ``compile(spec_or_mlir, target="h100-sxm", deterministic=False)`` ->
  Kernel: compile through ff-opt, with a verified on-disk cache
  ($FLASHFUSER_CACHE_DIR); ``deterministic`` asks for a plan whose results
  are bitwise reproducible (inter-cluster reductions through per-cluster
  workspace planes summed in order, not atomics);
- ``ffn(x, w1, w2, act="gelu")``, ``gated_ffn(x, wg, wu, wd)``,
  ``gemm(x, w)``, ``gated_gemm(x, wg, wu)``: one call, compiled and cached on first use, with
  ``fallback="auto"``.

Imports without PyTorch or a GPU; see docs/runtime.md.
"""

from ._runtime import FFRTError, RuntimeUnavailable, driver_available
from .bundle import BundleError, compute_hash, verify_bundle, write_bundle
from .compiler import (CompileError, CompilerUnavailable, cache_dir,
                       cache_key, compile, compile_bundle, ffn, gated_ffn,
                       gated_gemm, gemm)
from .fallback import FallbackUnavailable, chain_form
from .kernel import Kernel, ValidationError, load
from .mlirgen import SpecError, generate_mlir, normalize_spec

__version__ = "0.1.0"

__all__ = [
    "BundleError", "CompileError", "CompilerUnavailable", "FFRTError",
    "FallbackUnavailable", "Kernel", "RuntimeUnavailable", "SpecError",
    "ValidationError", "cache_dir", "cache_key", "chain_form", "compile",
    "compile_bundle", "compute_hash",
    "driver_available", "ffn", "gated_ffn", "gated_gemm", "gemm",
    "generate_mlir", "load",
    "normalize_spec", "verify_bundle", "write_bundle",
]
