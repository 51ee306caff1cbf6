"""ff-run's exit statuses and messages that need no GPU (skipped when the
binary is not built)."""

import glob
import os
import shutil
import subprocess
import tempfile
import unittest

from _util import BUNDLES, ROOT
from flashfuser import _runtime


def ff_run():
    build = os.environ.get("FLASHFUSER_BUILD_DIR")
    candidates = [os.path.join(build, "bin", "ff-run")] if build else []
    candidates += sorted(glob.glob(os.path.join(ROOT, "build*", "bin",
                                                "ff-run")))
    for path in candidates:
        if os.access(path, os.X_OK):
            return path
    return None


@unittest.skipUnless(ff_run(), "ff-run not built")
class FFRunTest(unittest.TestCase):
    def run_ffrun(self, *args):
        return subprocess.run([ff_run(), *args], capture_output=True,
                              text=True, timeout=300)

    def test_usage(self):
        p = self.run_ffrun()
        self.assertEqual(p.returncode, 2)
        self.assertIn("usage: ff-run BUNDLE", p.stderr)
        p = self.run_ffrun(os.path.join(BUNDLES, "a2_gemm_tmaval"), "--frob")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown option --frob", p.stderr)

    def test_corrupted_bundle(self):
        tmp = tempfile.mkdtemp()
        try:
            dst = os.path.join(tmp, "b")
            shutil.copytree(os.path.join(BUNDLES, "a2_gemm_tmaval"), dst)
            with open(os.path.join(dst, "gemm_ws.ptx"), "a") as f:
                f.write("// edited\n")
            p = self.run_ffrun(dst)
            self.assertEqual(p.returncode, 2)
            self.assertIn("hash mismatch", p.stderr)
        finally:
            shutil.rmtree(tmp)

    def test_unsupported_m(self):
        p = self.run_ffrun(os.path.join(BUNDLES, "a2_gemm_tmaval"), "--m",
                           "1000")
        self.assertEqual(p.returncode, 5)
        self.assertIn("M=1000 is not served by this bundle", p.stderr)

    def test_input_mode_and_repeat_arguments(self):
        b = os.path.join(BUNDLES, "naive_ffn_gelu_tanh")
        p = self.run_ffrun(b, "--inputs", "huge")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--inputs must be random, large or denormal, got "
                      "'huge'", p.stderr)
        for bad in ("0", "-3", "5x", ""):
            p = self.run_ffrun(b, "--repeat", bad)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("--repeat needs a count in [1, 1000000]", p.stderr)
        p = self.run_ffrun(b, "--repeat")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--repeat needs a value", p.stderr)
        p = self.run_ffrun(b, "--inputs", "denormal", "--repeat", "3",
                           "--verify")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_verify_reports_static_m_workspace_and_served_m(self):
        p = self.run_ffrun(os.path.join(BUNDLES, "naive_ffn_gelu_tanh"),
                           "--verify")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("chain: ffn, M dynamic", p.stdout)
        self.assertRegex(p.stdout, r"kernel naive_ffn: .* params, workspace")
        tmaval = os.path.join(BUNDLES, "a2_gemm_tmaval")
        p = self.run_ffrun(tmaval, "--verify")
        self.assertNotIn("workspace", p.stdout)
        # m_multiple 128: 256 is served, 1000 is not (exit 5, no GPU used).
        self.assertEqual(self.run_ffrun(tmaval, "--verify", "--m",
                                        "256").returncode, 0)
        p = self.run_ffrun(tmaval, "--verify", "--m", "1000")
        self.assertEqual(p.returncode, 5)
        self.assertIn("M=1000 is not served by this bundle", p.stderr)

    def test_no_gpu(self):
        if _runtime.driver_available():
            self.skipTest("a GPU is present")
        p = self.run_ffrun(os.path.join(BUNDLES, "naive_ffn_gelu_tanh"),
                           "--check")
        self.assertEqual(p.returncode, 3)
        self.assertIn("no CUDA", p.stderr)


if __name__ == "__main__":
    unittest.main()
