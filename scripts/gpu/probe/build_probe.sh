#!/bin/bash
# Builds the a2 GEMM probe twice (TMA descriptors by pointer and by value)
# with the reference build scripts, then wraps both in bundles.
# usage: build_probe.sh HOPPER_PROBES_DIR OUT_DIR   (needs mlir-opt-22, ptxas)
set -euo pipefail
probes=$(cd "$1" && pwd); out=$2; here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$probes"/a2_ws_gemm_64x256x2x4_bf16_cn2_cta.mlir "$probes"/build2.sh \
   "$probes"/build_gc.sh "$probes"/extract_ptx.py "$work"
cd "$work"
# build_gc.sh turns `!llvm.ptr {llvm.align = 64}` args into byval grid constants.
sed 's/%pA: !llvm.ptr, %pB: !llvm.ptr,/%pA: !llvm.ptr {llvm.align = 64 : i64}, %pB: !llvm.ptr {llvm.align = 64 : i64},/' \
  a2_ws_gemm_64x256x2x4_bf16_cn2_cta.mlir > a2gc.mlir
bash build2.sh a2_ws_gemm_64x256x2x4_bf16_cn2_cta.mlir
bash build_gc.sh a2gc.mlir
cd - >/dev/null
python3 "$here/make_probe_bundles.py" "$work" "$out"
