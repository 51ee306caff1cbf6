#!/usr/bin/env python3
"""Wraps the hand-written a2 warp-specialized GEMM probe in two bundles.

The probe (reference/hopper-probes/a2_ws_gemm_64x256x2x4_bf16_cn2_cta.mlir)
computes out[M, N] (f32) = x[M, K] · w[K, N] (bf16) with 128x256 tiles per
CTA, 384 threads, 196608 B of dynamic smem and a (1, 2, 1) cluster. Its ABI:
two TMA descriptors, the memref<?x?xf32> output expanded to 7 params, and K.

- a2_gemm_tmaptr: descriptors passed as pointers to device copies
  (param kind tensormap_ptr; built with build2.sh), N = K = 4096;
- a2_gemm_tmaval: descriptors passed by value as __grid_constant__ params
  (param kind tensormap; built with build_gc.sh), N = K = 512.

usage: make_probe_bundles.py PROBE_BUILD_DIR OUT_DIR
"""

import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "python"))
from flashfuser.bundle import write_bundle  # noqa: E402

PROBE = "a2_ws_gemm_64x256x2x4_bf16_cn2_cta"


def manifest(n, k, tensor_kind, cubin, ptx, source):
    tma = {"swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero",
           "interleave": "none"}
    return {
        "format": "flashfuser-bundle", "version": 1,
        "compiler": "hand-written probe (hopper-probes/gen_ws_gemm.py)",
        "source_hash": hashlib.sha256(source).hexdigest(),
        "target": {"name": "h100-sxm", "chip": "sm_90a"},
        "chain": {"kind": "gemm", "activation": "identity", "dtype": "bf16",
                  "m": -1, "n": n, "k": k, "l": 0,
                  "inputs": [
                      {"name": "x", "shape": [-1, k], "dtype": "bf16"},
                      {"name": "w", "shape": [k, n], "dtype": "bf16",
                       "layout": "kn"}],
                  "outputs": [
                      {"name": "out", "shape": [-1, n], "dtype": "f32"}]},
        "plan": {"cluster": [1, 2, 1, 1], "block": [128, 256, 64, 0],
                 "grid": [1, n // 512, 1, 1], "stages": 4},
        "kernels": [{
            "name": "gemm_ws", "cubin": cubin, "ptx": ptx,
            "m_lo": 128, "m_hi": 1 << 20, "m_multiple": 128,
            "block": [384, 1, 1], "cluster": [1, 2, 1],
            "grid": [1, n // 256, 1], "grid_m_tile": 128,
            "dynamic_smem": 196608,
            "params": [
                dict(kind=tensor_kind, tensor="x", box=[64, 64], **tma),
                dict(kind=tensor_kind, tensor="w", box=[64, 64], **tma),
                {"kind": "memref", "tensor": "out"},
                {"kind": "i64", "value": k}]}],
    }


def main():
    build, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(build, PROBE + ".mlir"), "rb") as f:
        source = f.read()
    for name, kind, stem, n, k in [
            ("a2_gemm_tmaptr", "tensormap_ptr", PROBE + ".fix", 4096, 4096),
            ("a2_gemm_tmaval", "tensormap", "a2gc.gc", 512, 512)]:
        files = {}
        for ext in ("cubin", "ptx"):
            with open(os.path.join(build, f"{stem}.{ext}"), "rb") as f:
                files[f"gemm_ws.{ext}"] = f.read()
        digest = write_bundle(os.path.join(out, name),
                              manifest(n, k, kind, "gemm_ws.cubin",
                                       "gemm_ws.ptx", source), files)
        print(f"{name}: {digest}")


if __name__ == "__main__":
    main()
