#!/usr/bin/env bash
# Installs what FlashFuser needs on Debian 12, if missing. Idempotent.
set -euo pipefail

pkgs=(cmake ninja-build g++ ccache git python3 python3-dev python3-pytest python3-numpy libgtest-dev
      llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools)

missing=()
for p in "${pkgs[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  [[ $status == *"install ok installed"* ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all packages present"
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "bootstrap: apt-get update failed" >&2; exit 1; }
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null \
  || { echo "bootstrap: apt-get install ${missing[*]} failed" >&2; exit 1; }
echo "bootstrap: done"
