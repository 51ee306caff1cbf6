#!/usr/bin/env bash
# Installs FlashFuser from ./build into a prefix, builds test/Consumer against it
# with find_package(FlashFuser), and runs it on a dsm module.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_BUILD_DIR:-$root/build}"
prefix="$build/consumer-install"
cbuild="$build/consumer-build"
rm -rf "$prefix" "$cbuild"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -G Ninja -B "$cbuild" -S "$root/test/Consumer" \
  -DFlashFuser_DIR="$prefix/lib/cmake/FlashFuser" >"$cbuild.log" 2>&1 \
  || { cat "$cbuild.log"; exit 1; }
ninja -C "$cbuild" >/dev/null
input="$root/test/Dialect/DSM/ops.mlir"
out="$("$cbuild/ff-consumer" "$input")"
printf '%s\n' "${out%%$'\n'*}"
# The library must find every chain the file defines (one per textual op).
chains=$(grep -c '= dsm.fused_chain' "$input")
grep -q "^FlashFuser .*: $chains fused chain(s)$" <<<"$out"
grep -q "dsm.fused_chain  *ffn" <<<"$out"
