"""compile(): chain spec or MLIR text -> cached, hash-checked bundle -> Kernel.

The compiler is ``ff-opt`` ($FF_OPT, else $FLASHFUSER_BUILD_DIR/bin/ff-opt,
else ``ff-opt`` on PATH, else the checkout's build*/bin/ff-opt). ``_emit_bundle`` is the one place that knows
its command line. Bundles are cached under $FLASHFUSER_CACHE_DIR (default
~/.cache/flashfuser)::

    <cache>/<source sha256[:32]>-<target>/<compiler tag>/manifest.json ...

The source hash is the SHA-256 of the MLIR text (a spec is first turned into
text by mlirgen, so the spec's signature is that text's hash), the compiler
tag is derived from ``ff-opt --version``. An entry is verified (bundle hash
and source hash) before every use; a corrupted entry is deleted and rebuilt.
Without ff-opt, compile() still serves verified entries of the same source
and target built by any compiler version, so a cache directory (or a bundle
given to load()) copied from another machine runs with only the runtime.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import warnings
from typing import Dict, Optional, Union

from .bundle import BundleError, verify_bundle
from .kernel import Kernel, describe_tensor
from .mlirgen import SINGLE_KINDS, generate_mlir, normalize_spec

DEFAULT_TARGET = "h100-sxm"


class CompilerUnavailable(RuntimeError):
    """ff-opt is needed (no usable cached bundle) but was not found."""


class CompileError(RuntimeError):
    """ff-opt failed or produced no valid bundle."""


def cache_dir() -> str:
    return os.environ.get("FLASHFUSER_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "flashfuser")


def find_ff_opt() -> Optional[str]:
    env = os.environ.get("FF_OPT")
    if env:
        return env if os.path.isfile(env) else shutil.which(env)
    build = os.environ.get("FLASHFUSER_BUILD_DIR")
    if build and os.access(os.path.join(build, "bin", "ff-opt"), os.X_OK):
        return os.path.join(build, "bin", "ff-opt")
    path = shutil.which("ff-opt")
    if path:
        return path
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    for cand in sorted(glob.glob(os.path.join(root, "build*", "bin",
                                              "ff-opt"))):
        if os.access(cand, os.X_OK):
            return cand
    return None


_versions: Dict[str, str] = {}


def compiler_tag(ff_opt: str) -> str:
    """A directory-safe tag naming the compiler build: its --version text."""
    if ff_opt not in _versions:
        try:
            text = subprocess.run([ff_opt, "--version"], capture_output=True,
                                  text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError) as e:
            raise CompileError(f"cannot run {ff_opt} --version: {e}") from e
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        m = re.search(r"FlashFuser[^\n]*?(\d+\.\d+\.\d+)", text)
        _versions[ff_opt] = f"ff-{m.group(1) if m else 'unknown'}-{digest}"
    return _versions[ff_opt]


def source_hash(mlir_text: str) -> str:
    return hashlib.sha256(mlir_text.encode()).hexdigest()


def cache_key(mlir_text: str, target: str,
              deterministic: bool = False) -> str:
    """The per-chain directory name: source signature + target (+ the
    deterministic plan choice, a different kernel)."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", target):
        raise ValueError(f"invalid target name {target!r}")
    suffix = "-deterministic" if deterministic else ""
    return f"{source_hash(mlir_text)[:32]}-{target}{suffix}"


def find_ptxas(path: Optional[str] = None) -> Optional[str]:
    """`path`, else ptxas on PATH, in $CUDA_HOME/bin or the toolkit's default
    prefix; None when there is none. The repository's scripts use this too."""
    for cand in (path, shutil.which("ptxas"),
                 os.path.join(os.environ.get("CUDA_HOME", ""), "bin", "ptxas"),
                 "/usr/local/cuda/bin/ptxas"):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def _emit_bundle(ff_opt: str, mlir_path: str, out_dir: str, target: str,
                 src_hash: str, deterministic: bool = False,
                 single_gemm: bool = False):
    """Runs the compiler to write a bundle into out_dir.

    Command: ``ff-opt IN --dsm-fuse --dsm-search="target=T [deterministic]"
    --lower-to-nvvm="format=bin emit-bundle=DIR source-hash=H"`` (a gemm
    spec: ``--dsm-fuse=fuse-single-gemms=true``, since --dsm-fuse leaves a
    lone GEMM alone by default; cubins when
    ptxas is found, else PTX that the driver compiles at load).
    $FLASHFUSER_FF_OPT_ARGS replaces the flags after IN (``{dir}``,
    ``{target}`` and ``{source_hash}`` are substituted). The target and
    source hash are checked against the manifest the compiler writes."""
    extra = os.environ.get("FLASHFUSER_FF_OPT_ARGS")
    if extra:
        flags = [a.format(dir=out_dir, target=target, source_hash=src_hash)
                 for a in extra.split()]
    else:
        fmt = "bin" if find_ptxas() else "isa"
        search = f"target={target}" + (" deterministic=true"
                                       if deterministic else "")
        fuse = "--dsm-fuse" + ("=fuse-single-gemms=true" if single_gemm
                               else "")
        flags = [fuse, f"--dsm-search={search}",
                 f"--lower-to-nvvm=format={fmt} emit-bundle={out_dir} "
                 f"source-hash={src_hash}"]
    cmd = [ff_opt, mlir_path] + flags + ["-o", os.devnull]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"{' '.join(cmd)} failed (exit "
                           f"{proc.returncode}):\n{proc.stderr.strip()}")


def _check_entry(path: str, mlir_text: str, target: str) -> dict:
    manifest = verify_bundle(path)
    if manifest.get("source_hash") != source_hash(mlir_text):
        raise BundleError(f"bundle {path} was built from other source")
    name = manifest.get("target", {}).get("name")
    if name != target:
        raise BundleError(f"bundle {path} targets {name}, not {target}")
    return manifest


def compile_bundle(source: Union[str, Dict], target: str = DEFAULT_TARGET,
                   force: bool = False, deterministic: bool = False) -> str:
    """Returns the directory of a verified bundle for `source`, compiling it
    when the cache has none. `deterministic` asks the search for a plan
    whose results are bitwise reproducible (no inter-cluster atomics); a
    chain that has none is a CompileError."""
    text = generate_mlir(source) if isinstance(source, dict) else source
    base = os.path.join(cache_dir(), cache_key(text, target, deterministic))
    ff_opt = find_ff_opt()
    if ff_opt is None:
        candidates = sorted(glob.glob(os.path.join(base, "*", "manifest.json")),
                            key=os.path.getmtime, reverse=True)
        for m in candidates:
            entry = os.path.dirname(m)
            try:
                _check_entry(entry, text, target)
                return entry
            except BundleError as e:
                warnings.warn(f"flashfuser: ignoring cached bundle: {e}")
        raise CompilerUnavailable(
            "ff-opt not found (set FF_OPT or put it on PATH) and the cache "
            f"{cache_dir()} has no valid bundle for this chain and target")
    entry = os.path.join(base, compiler_tag(ff_opt))
    if os.path.isdir(entry) and not force:
        try:
            _check_entry(entry, text, target)
            return entry
        except BundleError as e:
            warnings.warn(f"flashfuser: rebuilding corrupted cache entry: {e}")
    if os.path.isdir(entry):
        shutil.rmtree(entry)
    os.makedirs(base, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".build-", dir=base)
    try:
        src = os.path.join(work, "input.mlir")
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(work, "bundle")
        single = isinstance(source, dict) and \
            source.get("kind") in SINGLE_KINDS
        _emit_bundle(ff_opt, src, out, target, source_hash(text),
                     deterministic, single_gemm=single)
        try:
            _check_entry(out, text, target)
        except BundleError as e:
            raise CompileError(f"the compiler wrote an invalid bundle: {e}") \
                from e
        try:
            os.replace(out, entry)
        except OSError:
            # Another process filled the entry first; use theirs if valid.
            _check_entry(entry, text, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return entry


_kernels: Dict[tuple, Kernel] = {}


def compile(source: Union[str, Dict], target: str = DEFAULT_TARGET,
            force: bool = False, deterministic: bool = False,
            fallback: str = "never") -> Kernel:
    """Compiles (or fetches from the cache) and loads a chain.

    `source` is a spec dict (see flashfuser.mlirgen) or linalg MLIR text;
    `deterministic`: see compile_bundle; `fallback` ("never", "auto",
    "always"): see Kernel. A chain from MLIR text should keep "never"
    unless its only elementwise work is the manifest's activation
    (flashfuser.fallback.chain_form)."""
    if isinstance(source, dict):
        source = normalize_spec(source)
    path = compile_bundle(source, target, force, deterministic)
    return Kernel(path, fallback=fallback)


def _dtype_of(t) -> str:
    return describe_tensor(t)[1]


def _shape_of(t):
    """Shape of a torch tensor or a __cuda_array_interface__ object."""
    return describe_tensor(t)[2]


def _cached_kernel(spec: Dict, target: str, fallback: str) -> Kernel:
    # One Kernel per fallback mode: each remembers its own choices.
    key = (tuple(sorted(spec.items())), target, fallback)
    k = _kernels.get(key)
    if k is None:
        k = compile(spec, target, fallback=fallback)
        _kernels[key] = k
    return k


def _chain_spec(kind: str, x, w_in, w_out, act: str, weight_layout: str,
                out_dtype: Optional[str], dynamic_m: bool) -> Dict:
    """The spec of a chain called on tensors: x [M, K], w_in [K, N] and
    w_out [N, L] ([out, in] each with weight_layout "nk"); a gemm or gated
    gemm has no w_out (None)."""
    nk = weight_layout == "nk"
    xs, wis = _shape_of(x), _shape_of(w_in)
    dtype = _dtype_of(x)
    spec = {"kind": kind, "m": -1 if dynamic_m else int(xs[0]),
            "n": int(wis[0] if nk else wis[1]), "k": int(xs[1]),
            "activation": act, "dtype": dtype,
            "weight_layout": weight_layout, "out_dtype": out_dtype or dtype}
    if w_out is not None:
        wos = _shape_of(w_out)
        spec["l"] = int(wos[0] if nk else wos[1])
    return normalize_spec(spec)


# (kind, the tensors' shapes and x's dtype, options) -> Kernel: a repeated
# call skips describing the tensors and normalising a spec. Tensors without
# .shape/.dtype (__cuda_array_interface__ objects) take the described path.
_by_layout: Dict[tuple, Kernel] = {}


def _kernel_for(kind: str, x, w_in, w_out, act: str, weight_layout: str,
                out_dtype: Optional[str], dynamic_m: bool, target: str,
                fallback: str) -> Kernel:
    try:
        key = (kind, None if dynamic_m else x.shape[0], tuple(x.shape[1:]),
               str(x.dtype), tuple(w_in.shape),
               None if w_out is None else tuple(w_out.shape), act,
               weight_layout, out_dtype, target, fallback)
        k = _by_layout.get(key)
    except (AttributeError, TypeError):
        key, k = None, None
    if k is None:
        spec = _chain_spec(kind, x, w_in, w_out, act, weight_layout,
                           out_dtype, dynamic_m)
        k = _cached_kernel(spec, target, fallback)
        if key is not None:
            _by_layout[key] = k
    return k


def gemm(x, w, out=None, stream=None, target: str = DEFAULT_TARGET,
         weight_layout: str = "kn", out_dtype: Optional[str] = None,
         dynamic_m: bool = True, fallback: str = "auto"):
    """out = x · w as one GEMM through the same engine; x [M, K], w [K, N]
    (weight_layout "kn"; "nk" takes an nn.Linear weight [N, K]). A short M
    splits K over a cluster (docs/lowering.md). ``dynamic_m`` and
    ``fallback`` (here: torch.matmul where that was measured faster) as in
    ffn."""
    return _kernel_for("gemm", x, w, None, "identity", weight_layout,
                       out_dtype, dynamic_m, target, fallback)(
                           x, w, out=out, stream=stream)


def gated_gemm(x, wg, wu, act: str = "silu", out=None, stream=None,
               target: str = DEFAULT_TARGET, weight_layout: str = "kn",
               out_dtype: Optional[str] = None, dynamic_m: bool = True,
               fallback: str = "auto"):
    """out = act(x · wg) ⊙ (x · wu) in one kernel (the gated GEMM: both
    weights' tiles per k step, two accumulators); x [M, K], wg and wu
    [K, N] (weight_layout "kn"; "nk" takes nn.Linear weights [N, K]).
    ``dynamic_m`` and ``fallback`` as in ffn."""
    return _kernel_for("gated_gemm", x, wg, None, act, weight_layout,
                       out_dtype, dynamic_m, target, fallback)(
                           x, wg, wu, out=out, stream=stream)


def ffn(x, w1, w2, act: str = "gelu", out=None, stream=None,
        target: str = DEFAULT_TARGET, weight_layout: str = "kn",
        out_dtype: Optional[str] = None, dynamic_m: bool = True,
        fallback: str = "auto"):
    """out = act(x · w1) · w2 in one fused kernel; x [M, K], w1 [K, N],
    w2 [N, L] (weight_layout "kn"; "nk" takes nn.Linear weights [out, in]).
    ``act="gelu"`` is the exact (erf) GELU, as torch.nn.functional.gelu.
    With ``dynamic_m`` (default) one bundle serves every M (the runtime picks
    the kernel whose M bin holds it); otherwise each M compiles its own.
    ``fallback="auto"`` (default) runs the plain PyTorch chain instead of
    the fused kernel for the M bins where it was measured faster; "never"
    forces the fused kernel, "always" the PyTorch chain (Kernel)."""
    return _kernel_for("ffn", x, w1, w2, act, weight_layout, out_dtype,
                       dynamic_m, target, fallback)(x, w1, w2, out=out,
                                                    stream=stream)


def gated_ffn(x, wg, wu, wd, act: str = "silu", out=None, stream=None,
              target: str = DEFAULT_TARGET, weight_layout: str = "kn",
              out_dtype: Optional[str] = None, dynamic_m: bool = True,
              fallback: str = "auto"):
    """out = (act(x · wg) ⊙ (x · wu)) · wd in one fused kernel (or, with
    ``fallback``, the plain PyTorch chain where that is faster; see ffn)."""
    return _kernel_for("gated_ffn", x, wg, wd, act, weight_layout, out_dtype,
                       dynamic_m, target, fallback)(x, wg, wu, wd, out=out,
                                                    stream=stream)
