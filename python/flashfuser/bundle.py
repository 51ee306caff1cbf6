"""Reading, writing and verifying kernel bundles (docs/bundle.md).

Pure Python (hashlib + json), so bundles can be checked and produced on
machines without the runtime library or a GPU.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from typing import Dict, Mapping, Optional

FORMAT = "flashfuser-bundle"
# Versions this package reads: 2 adds tensor maps whose box the runtime
# clamps to the launch's M (box_fits_m), 3 maps whose box takes the rows of
# the launch's last m tile (box_tail_m).
VERSIONS = (1, 2, 3)
# The version each optional tensor-map field needs.
_FIELD_VERSIONS = (("box_tail_m", 3), ("box_fits_m", 2))
ZERO_HASH = "0" * 64

# The hash member is the only key named exactly "hash"; "source_hash" cannot
# match because its key does not start with a quote followed by "hash".
_HASH_RE = re.compile(rb'"hash"\s*:\s*"([0-9a-f]{64})"')


class BundleError(Exception):
    """A bundle is missing, malformed or corrupted."""


def _hash_span(text: bytes):
    matches = list(_HASH_RE.finditer(text))
    if len(matches) != 1:
        raise BundleError(
            f"manifest must contain exactly one \"hash\" member with 64 hex "
            f"digits, found {len(matches)}")
    return matches[0].span(1)


def compute_hash(manifest_text: bytes, files: Mapping[str, bytes],
                 manifest: Optional[dict] = None) -> str:
    """SHA-256 over the manifest text with the hash digits zeroed, then each
    kernel's cubin and (when named) ptx bytes, in kernel order."""
    if manifest is None:
        manifest = json.loads(manifest_text)
    begin, end = _hash_span(manifest_text)
    h = hashlib.sha256()
    h.update(manifest_text[:begin] + b"0" * 64 + manifest_text[end:])
    for k in manifest.get("kernels", []):
        for key in ("cubin", "ptx"):
            name = k.get(key)
            if name:
                if name not in files:
                    raise BundleError(f"kernel file {name} is missing")
                h.update(files[name])
    return h.hexdigest()


def _kernel_files(manifest: dict):
    for k in manifest.get("kernels", []):
        for key in ("cubin", "ptx"):
            name = k.get(key)
            if name:
                if "/" in name or "\\" in name or name in (".", ".."):
                    raise BundleError(f"kernel file name {name!r} must be a "
                                      f"plain file name")
                yield name


def required_version(manifest: dict) -> int:
    """The lowest version whose fields the manifest uses: 3 where a tensor
    map carries box_tail_m, 2 where one carries box_fits_m, else 1 (what
    EmitBundle writes, so older readers keep reading bundles that do not
    need the newer fields)."""
    version = 1
    for k in manifest.get("kernels", []):
        for p in k.get("params", []):
            if isinstance(p, dict):
                for field, needs in _FIELD_VERSIONS:
                    if p.get(field):
                        version = max(version, needs)
    return version


def _check_version(manifest: dict, where: str):
    version = manifest.get("version")
    if version not in VERSIONS:
        raise BundleError(f"{where}: unsupported version {version!r}")
    needed = required_version(manifest)
    if version < needed:
        field = next(f for f, v in _FIELD_VERSIONS if v == needed)
        raise BundleError(f"{where}: version {version} cannot carry "
                          f"{field} tensor maps (needs version {needed})")


def read_bundle(path: str):
    """Returns (manifest dict, manifest bytes, {file name: bytes})."""
    mpath = os.path.join(path, "manifest.json")
    try:
        with open(mpath, "rb") as f:
            text = f.read()
    except OSError as e:
        raise BundleError(f"bundle {path}: cannot read {mpath}: {e}") from e
    try:
        manifest = json.loads(text)
    except ValueError as e:
        raise BundleError(f"bundle {path}: manifest.json is not valid JSON: "
                          f"{e}") from e
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BundleError(f"bundle {path}: not a {FORMAT} manifest")
    _check_version(manifest, f"bundle {path}")
    files = {}
    for name in _kernel_files(manifest):
        try:
            with open(os.path.join(path, name), "rb") as f:
                files[name] = f.read()
        except OSError as e:
            raise BundleError(f"bundle {path}: cannot read kernel file "
                              f"{name}") from e
    return manifest, text, files


def verify_bundle(path: str) -> dict:
    """Checks the bundle's hash; returns the manifest or raises BundleError."""
    manifest, text, files = read_bundle(path)
    actual = compute_hash(text, files, manifest)
    if actual != manifest.get("hash"):
        raise BundleError(
            f"bundle {path}: hash mismatch (manifest says "
            f"{manifest.get('hash')}, contents hash to {actual}); the bundle "
            f"is corrupted or was edited")
    return manifest


def write_bundle(path: str, manifest: dict, files: Mapping[str, bytes]) -> str:
    """Writes manifest.json (with its hash filled in) and the kernel files
    into `path` atomically (a temporary directory renamed into place when
    `path` does not exist yet). The version defaults to the lowest the
    manifest needs (required_version). Returns the hash."""
    manifest = dict(manifest)
    manifest.setdefault("format", FORMAT)
    manifest.setdefault("version", required_version(manifest))
    _check_version(manifest, "write_bundle")
    manifest["hash"] = ZERO_HASH
    for name in _kernel_files(manifest):
        if name not in files:
            raise BundleError(f"kernel file {name} named by the manifest was "
                              f"not given")
    text = (json.dumps(manifest, indent=2) + "\n").encode()
    digest = compute_hash(text, files, manifest)
    begin, end = _hash_span(text)
    text = text[:begin] + digest.encode() + text[end:]

    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".bundle-", dir=parent)
    os.chmod(tmp, 0o755)
    for name, data in files.items():
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(data)
    with open(os.path.join(tmp, "manifest.json"), "wb") as f:
        f.write(text)
    if os.path.isdir(path):
        for name in os.listdir(tmp):
            os.replace(os.path.join(tmp, name), os.path.join(path, name))
        os.rmdir(tmp)
    else:
        os.replace(tmp, path)
    return digest


def select_kernel(manifest: dict, m: int) -> Optional[Dict]:
    """The kernel whose [m_lo, m_hi] bin holds m, or None."""
    for k in manifest.get("kernels", []):
        if k["m_lo"] <= m <= k["m_hi"]:
            return k
    return None
