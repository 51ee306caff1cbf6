"""compile() and the bundle cache, with a stand-in ff-opt that writes a
bundle the way the real one will (CPU only)."""

import os
import shutil
import stat
import sys
import tempfile
import unittest
from unittest import mock

from _util import runtime_available
import flashfuser
from flashfuser import (CompileError, CompilerUnavailable, cache_key,
                        compile_bundle, generate_mlir)
from flashfuser import compiler as ffc

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

FAKE_FF_OPT = r'''#!{python}
# Stand-in for ff-opt: --version, or IN ... --lower-to-nvvm=emit-bundle=DIR.
import hashlib, os, sys
sys.path.insert(0, {pydir!r})
from flashfuser.bundle import write_bundle
if "--version" in sys.argv:
    print("FlashFuser 0.1.0 (fake {tag})")
    sys.exit(0)
log = os.environ["FAKE_FF_OPT_LOG"]
with open(log, "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
src = open(sys.argv[1], "rb").read()
import re
out = [re.search(r"emit-bundle=(\S+)", a).group(1) for a in sys.argv
       if a.startswith("--lower-to-nvvm=") and "emit-bundle=" in a][0]
if os.environ.get("FAKE_FF_OPT_FAIL"):
    sys.stderr.write("error: no legal schedule\n")
    sys.exit(1)
chain = {{"kind": "gemm", "activation": "identity", "dtype": "bf16", "m": -1,
         "n": 256, "k": 128,
         "inputs": [{{"name": "x", "shape": [-1, 128], "dtype": "bf16"}},
                    {{"name": "w", "shape": [128, 256], "dtype": "bf16"}}],
         "outputs": [{{"name": "out", "shape": [-1, 256], "dtype": "f32"}}]}}
m = {{"compiler": "FlashFuser 0.1.0",
     "source_hash": hashlib.sha256(src).hexdigest(),
     "target": {{"name": os.environ.get("FAKE_TARGET", "h100-sxm"), "chip": "sm_90a"}},
     "chain": chain,
     "kernels": [{{"name": "k0", "cubin": "k0.cubin", "m_lo": 1, "m_hi": 4096,
                  "block": [128, 1, 1], "cluster": [1, 1, 1], "grid": [1, 1, 1],
                  "grid_m_tile": 128, "dynamic_smem": 0,
                  "params": [{{"kind": "ptr", "tensor": "x"}}]}}]}}
write_bundle(out, m, {{"k0.cubin": b"fake cubin"}})
'''

SPEC = {"kind": "gemm", "m": -1, "n": 256, "k": 128}


class CacheTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.cache = os.path.join(self.tmp, "cache")
        self.log = os.path.join(self.tmp, "log")
        self.ff_opt = self.make_ff_opt("v1")
        self.env = mock.patch.dict(os.environ, {
            "FLASHFUSER_CACHE_DIR": self.cache, "FF_OPT": self.ff_opt,
            "FAKE_FF_OPT_LOG": self.log})
        self.env.start()
        os.environ.pop("FLASHFUSER_FF_OPT_ARGS", None)
        ffc._versions.clear()

    def tearDown(self):
        self.env.stop()
        shutil.rmtree(self.tmp)

    def make_ff_opt(self, tag):
        path = os.path.join(self.tmp, f"ff-opt-{tag}")
        with open(path, "w") as f:
            f.write(FAKE_FF_OPT.format(python=sys.executable, pydir=PYTHON_DIR,
                                       tag=tag))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def runs(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().splitlines()

    def test_compiles_once_then_hits_the_cache(self):
        a = compile_bundle(SPEC)
        b = compile_bundle(SPEC)
        self.assertEqual(a, b)
        self.assertEqual(len(self.runs()), 1)
        run = self.runs()[0]
        # A gemm spec asks --dsm-fuse for its lone GEMM.
        self.assertIn("--dsm-fuse=fuse-single-gemms=true "
                      "--dsm-search=target=h100-sxm --lower-to-nvvm=format=",
                      run)
        self.assertIn(" emit-bundle=", run)
        self.assertIn(" source-hash=" + ffc.source_hash(generate_mlir(SPEC)),
                      run)
        key = cache_key(generate_mlir(SPEC), "h100-sxm")
        self.assertTrue(a.startswith(os.path.join(self.cache, key)))
        self.assertTrue(os.path.basename(a).startswith("ff-0.1.0-"))

    def test_deterministic_is_its_own_entry_and_flag(self):
        text = generate_mlir(SPEC)
        self.assertNotEqual(cache_key(text, "h100-sxm"),
                            cache_key(text, "h100-sxm", deterministic=True))
        a = compile_bundle(SPEC)
        b = compile_bundle(SPEC, deterministic=True)
        self.assertNotEqual(os.path.dirname(a), os.path.dirname(b))
        runs = self.runs()
        self.assertEqual(len(runs), 2)
        self.assertNotIn("deterministic", runs[0])
        self.assertIn("--dsm-search=target=h100-sxm deterministic=true",
                      runs[1])
        self.assertEqual(compile_bundle(SPEC, deterministic=True), b)
        self.assertEqual(len(self.runs()), 2)

    def test_key_depends_on_chain_target_and_compiler(self):
        text = generate_mlir(SPEC)
        self.assertNotEqual(cache_key(text, "h100-sxm"),
                            cache_key(text, "h200-sxm"))
        self.assertNotEqual(cache_key(text, "h100-sxm"),
                            cache_key(generate_mlir(dict(SPEC, n=512)),
                                      "h100-sxm"))
        a = compile_bundle(SPEC)
        os.environ["FF_OPT"] = self.make_ff_opt("v2")
        b = compile_bundle(SPEC)
        self.assertNotEqual(a, b)
        self.assertEqual(os.path.dirname(a), os.path.dirname(b))
        self.assertEqual(len(self.runs()), 2)
        with self.assertRaises(ValueError):
            cache_key(text, "../x")

    def test_corrupted_entry_is_rebuilt_not_loaded(self):
        a = compile_bundle(SPEC)
        with open(os.path.join(a, "k0.cubin"), "ab") as f:
            f.write(b"bitrot")
        with self.assertWarnsRegex(UserWarning, "rebuilding corrupted"):
            b = compile_bundle(SPEC)
        self.assertEqual(a, b)
        self.assertEqual(len(self.runs()), 2)
        with open(os.path.join(b, "k0.cubin"), "rb") as f:
            self.assertEqual(f.read(), b"fake cubin")

    def test_without_compiler_uses_verified_entries_only(self):
        a = compile_bundle(SPEC)
        os.environ["FF_OPT"] = os.path.join(self.tmp, "missing")
        self.assertEqual(compile_bundle(SPEC), a)
        with open(os.path.join(a, "manifest.json"), "a") as f:
            f.write(" ")
        with self.assertWarnsRegex(UserWarning, "ignoring cached bundle"):
            with self.assertRaisesRegex(CompilerUnavailable,
                                        "ff-opt not found"):
                compile_bundle(SPEC)

    def test_compiler_failure_and_wrong_target(self):
        os.environ["FAKE_FF_OPT_FAIL"] = "1"
        try:
            with self.assertRaisesRegex(CompileError, "no legal schedule"):
                compile_bundle(SPEC)
        finally:
            del os.environ["FAKE_FF_OPT_FAIL"]
        os.environ["FAKE_TARGET"] = "h200-sxm"
        try:
            with self.assertRaisesRegex(CompileError, "targets h200-sxm"):
                compile_bundle(SPEC)
        finally:
            del os.environ["FAKE_TARGET"]
        # Nothing half-written is left in the cache.
        key = cache_key(generate_mlir(SPEC), "h100-sxm")
        self.assertEqual(os.listdir(os.path.join(self.cache, key)), [])

    def test_mlir_text_source(self):
        text = generate_mlir(SPEC)
        self.assertEqual(compile_bundle(text), compile_bundle(SPEC))
        self.assertEqual(len(self.runs()), 1)

    def test_ff_opt_args_override(self):
        os.environ["FLASHFUSER_FF_OPT_ARGS"] = (
            "--dsm-fuse --dsm-search=target={target} "
            "--lower-to-nvvm=emit-bundle={dir}")
        try:
            compile_bundle(SPEC)
        finally:
            del os.environ["FLASHFUSER_FF_OPT_ARGS"]
        self.assertIn("--dsm-search=target=h100-sxm", self.runs()[0])

    @unittest.skipUnless(runtime_available(), "libffrt.so not built")
    def test_compile_returns_kernel(self):
        k = flashfuser.compile(SPEC)
        self.assertEqual(k.manifest["chain"]["kind"], "gemm")
        self.assertIn("gemm", repr(k))


class WrapperSpecTest(unittest.TestCase):
    """ffn() / gated_ffn() derive the chain spec from the tensors."""

    def capture(self):
        calls = []
        self.fallbacks = []

        def fake(spec, target, fallback):
            calls.append((spec, target))
            self.fallbacks.append(fallback)
            return lambda *args, **kw: ("launched", len(args), kw)
        return calls, mock.patch.object(ffc, "_cached_kernel", fake)

    def test_ffn_spec(self):
        from _util import FakeTensor
        calls, patch = self.capture()
        x = FakeTensor(0x1000, (128, 512))
        w1 = FakeTensor(0x2000, (512, 2048))
        w2 = FakeTensor(0x3000, (2048, 256))
        with patch:
            r = flashfuser.ffn(x, w1, w2)
            flashfuser.ffn(x, FakeTensor(0x2000, (2048, 512)),
                           FakeTensor(0x3000, (256, 2048)), act="relu",
                           weight_layout="nk", dynamic_m=False,
                           fallback="never")
        self.assertEqual(r[0:2], ("launched", 3))
        # The one-call wrappers dispatch by measurement unless told not to.
        self.assertEqual(self.fallbacks, ["auto", "never"])
        spec, target = calls[0]
        self.assertEqual(target, "h100-sxm")
        self.assertEqual((spec["kind"], spec["m"], spec["n"], spec["k"],
                          spec["l"], spec["activation"], spec["dtype"],
                          spec["out_dtype"], spec["weight_layout"]),
                         ("ffn", -1, 2048, 512, 256, "gelu_erf", "bf16",
                          "bf16", "kn"))
        spec = calls[1][0]
        self.assertEqual((spec["m"], spec["n"], spec["l"], spec["activation"],
                          spec["weight_layout"]),
                         (128, 2048, 256, "relu", "nk"))

    def test_gemm_spec(self):
        from _util import FakeTensor
        calls, patch = self.capture()
        x = FakeTensor(0x1000, (64, 512))
        with patch:
            r = flashfuser.gemm(x, FakeTensor(0x2000, (512, 4096)))
            flashfuser.gemm(x, FakeTensor(0x2000, (4096, 512)),
                            weight_layout="nk", dynamic_m=False,
                            out_dtype="f32", fallback="never")
        self.assertEqual(r[0:2], ("launched", 2))
        self.assertEqual(self.fallbacks, ["auto", "never"])
        spec = calls[0][0]
        self.assertEqual((spec["kind"], spec["m"], spec["n"], spec["k"],
                          spec["activation"], spec["out_dtype"]),
                         ("gemm", -1, 4096, 512, "identity", "bf16"))
        self.assertNotIn("l", spec)
        spec = calls[1][0]
        self.assertEqual((spec["m"], spec["n"], spec["weight_layout"],
                          spec["out_dtype"]), (64, 4096, "nk", "f32"))

    def test_gated_spec(self):
        from _util import FakeTensor
        calls, patch = self.capture()
        with patch:
            flashfuser.gated_ffn(FakeTensor(0x1000, (64, 256), "<f2"),
                                 FakeTensor(0x2000, (256, 1024), "<f2"),
                                 FakeTensor(0x3000, (256, 1024), "<f2"),
                                 FakeTensor(0x4000, (1024, 256), "<f2"))
        spec = calls[0][0]
        self.assertEqual((spec["kind"], spec["n"], spec["k"], spec["l"],
                          spec["activation"], spec["dtype"]),
                         ("gated_ffn", 1024, 256, 256, "silu", "f16"))

    def test_repeated_layout_skips_the_spec(self):
        """A torch-like tensor with .shape and .dtype: the second call with
        the same layout goes straight to the kernel; a new shape, option or
        M (without dynamic_m) derives the spec again."""
        class T:
            def __init__(self, ptr, shape):
                self.shape, self.ptr = tuple(shape), ptr
                self.dtype = "torch.bfloat16"

            def data_ptr(self):
                return self.ptr

            def stride(self):
                return (self.shape[1], 1)

        calls, patch = self.capture()
        specs = []
        real = ffc._chain_spec

        def counting(*a, **kw):
            specs.append(a[0])
            return real(*a, **kw)
        x, w1, w2 = T(0x1000, (128, 512)), T(0x2000, (512, 2048)), \
            T(0x3000, (2048, 256))
        ffc._by_layout.clear()
        with patch, mock.patch.object(ffc, "_chain_spec", counting):
            flashfuser.ffn(x, w1, w2)
            flashfuser.ffn(T(0x5000, (64, 512)), w1, w2)      # dynamic M
            self.assertEqual(len(specs), 1)
            flashfuser.ffn(x, w1, w2, act="relu")
            flashfuser.ffn(x, w1, T(0x3000, (2048, 128)))
            flashfuser.ffn(x, w1, w2, dynamic_m=False)
            flashfuser.ffn(T(0x5000, (64, 512)), w1, w2, dynamic_m=False)
            self.assertEqual(len(specs), 5)
        self.assertEqual(len(calls), 5)
        ffc._by_layout.clear()


if __name__ == "__main__":
    unittest.main()
