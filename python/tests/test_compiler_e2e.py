"""compile_bundle() through the real ff-opt of this build (CPU only): the
whole pipeline writes a bundle the Python package and the C++ runtime both
accept."""

import os
import shutil
import subprocess
import tempfile
import unittest

from flashfuser import compile_bundle, generate_mlir
from flashfuser import compiler as ffc
from flashfuser.bundle import verify_bundle

BUILD = os.environ.get("FLASHFUSER_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))
FF_OPT = os.path.join(BUILD, "bin", "ff-opt")
FF_RUN = os.path.join(BUILD, "bin", "ff-run")

SPEC = {"kind": "ffn", "m": 128, "n": 1024, "k": 256, "l": 256,
        "activation": "gelu_tanh", "dtype": "bf16"}


@unittest.skipUnless(os.access(FF_OPT, os.X_OK), "ff-opt not built")
class RealCompilerTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp()
        os.environ["FLASHFUSER_CACHE_DIR"] = self.cache
        os.environ["FF_OPT"] = FF_OPT
        os.environ.pop("FLASHFUSER_FF_OPT_ARGS", None)

    def tearDown(self):
        shutil.rmtree(self.cache)
        os.environ.pop("FF_OPT", None)

    def test_ffn_spec_compiles_to_a_valid_bundle(self):
        path = compile_bundle(SPEC, target="h100-sxm")
        manifest = verify_bundle(path)
        self.assertEqual(manifest["chain"]["kind"], "ffn")
        self.assertEqual(manifest["target"]["name"], "h100-sxm")
        self.assertEqual(manifest["source_hash"],
                         ffc.source_hash(generate_mlir(SPEC)))
        kernel = manifest["kernels"][0]
        self.assertTrue(os.path.isfile(os.path.join(path, kernel["ptx"])))
        if ffc.find_ptxas():
            self.assertTrue(os.path.isfile(os.path.join(path, kernel["cubin"])))
        # A second call is served from the cache.
        self.assertEqual(compile_bundle(SPEC, target="h100-sxm"), path)

    @unittest.skipUnless(os.access(FF_RUN, os.X_OK), "ff-run not built")
    def test_cpp_runtime_accepts_the_bundle(self):
        path = compile_bundle(SPEC, target="h100-sxm")
        proc = subprocess.run([FF_RUN, path, "--verify"], capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("valid, hash", proc.stdout)

    def test_gemm_spec_splits_k_for_a_short_m(self):
        # A lone GEMM needs --dsm-fuse=fuse-single-gemms=true; a short M
        # (16 CTAs of 128 x 256 otherwise) splits K over a cluster.
        spec = {"kind": "gemm", "m": 64, "n": 4096, "k": 4096,
                "dtype": "bf16", "weight_layout": "nk"}
        manifest = verify_bundle(compile_bundle(spec, target="h100-sxm"))
        self.assertEqual(manifest["chain"]["kind"], "gemm")
        kernel = manifest["kernels"][0]
        self.assertGreater(kernel["cluster"][0], 1)
        self.assertEqual(kernel["plan"]["cluster"][2], kernel["cluster"][0])
        # A square one does not.
        square = dict(spec, m=4096)
        kernel = verify_bundle(compile_bundle(square,
                                              target="h100-sxm"))["kernels"][0]
        self.assertEqual(kernel["cluster"][0], 1)

    def test_gated_gemm_spec_compiles_to_one_gated_kernel(self):
        # The gated pair becomes one gated_gemm chain: one kernel reading
        # x, wg and wu through three tensor maps.
        spec = {"kind": "gated_gemm", "m": 128, "n": 1024, "k": 512,
                "dtype": "bf16", "weight_layout": "nk"}
        manifest = verify_bundle(compile_bundle(spec, target="h100-sxm"))
        self.assertEqual(manifest["chain"]["kind"], "gated_gemm")
        self.assertEqual(manifest["chain"]["activation"], "silu")
        self.assertEqual(len(manifest["chain"]["inputs"]), 3)
        self.assertEqual(len(manifest["kernels"]), 1)
        maps = [p["tensor"] for p in manifest["kernels"][0]["params"]
                if p["kind"] == "tensormap"]
        self.assertEqual(maps, ["in0", "in1", "in2"])

    def test_other_target_is_recorded(self):
        path = compile_bundle(SPEC, target="h200")
        self.assertEqual(verify_bundle(path)["target"]["name"], "h200")


if __name__ == "__main__":
    unittest.main()
