#!/usr/bin/env bash
# Regenerates the ODS-generated docs (dialect, ops, attributes, types, passes)
# and copies them to docs/generated/, which a lit test keeps in sync.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_BUILD_DIR:-$root/build}"
ninja -C "$build" ff-doc
mkdir -p "$root/docs/generated"
cp "$build"/docs/*.md "$root/docs/generated/"
ls "$root/docs/generated"
