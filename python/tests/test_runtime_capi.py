"""Manifest and argument validation through the runtime's C API, with fake
tensors (CPU only; needs libffrt.so)."""

import os
import shutil
import tempfile
import unittest

from _util import FakeTensor, runtime_available
from flashfuser import BundleError, Kernel, ValidationError, write_bundle
from flashfuser import _runtime
from test_bundle import FILES, manifest


@unittest.skipUnless(runtime_available(), "libffrt.so not built")
class CApiTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, "b")
        write_bundle(self.dir, manifest(), FILES)
        self.kernel = Kernel(self.dir)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def args(self, m=128):
        return [FakeTensor(0x10000000, (m, 128)),
                FakeTensor(0x20000000, (128, 256)),
                FakeTensor(0x30000000, (m, 256), typestr="<f4")]

    def test_plan(self):
        plan = self.kernel.validate(*self.args(128))
        self.assertEqual((plan.m, plan.kernel, list(plan.grid)),
                         (128, 0, [2, 2, 1]))
        plan = self.kernel.validate(*self.args(1024))
        self.assertEqual((plan.m, plan.kernel, list(plan.grid)),
                         (1024, 1, [16, 2, 1]))
        self.assertEqual(self.kernel.kernel_for(1024)["name"], "k1")

    def check_error(self, args, message):
        with self.assertRaises(ValidationError) as cm:
            self.kernel.validate(*args)
        self.assertIn(message, str(cm.exception))

    def test_argument_errors_name_the_argument(self):
        a = self.args()
        a[0] = FakeTensor(0x10000000, (128, 128), typestr="<f2")
        self.check_error(a, "input 'x': dtype f16 does not match the "
                            "bundle's bf16")
        a = self.args()
        a[1] = FakeTensor(0x20000000, (128, 512))
        self.check_error(a, "input 'w': dimension 1 is 512, the bundle "
                            "needs 256")
        a = self.args()
        a[2] = FakeTensor(0x30000000, (64, 256), typestr="<f4")
        self.check_error(a, "output 'out': M = 64 is inconsistent with "
                            "M = 128")
        a = self.args()
        a[0] = FakeTensor(0x10000000, (128, 128), strides=(512, 2))
        self.check_error(a, "input 'x': not contiguous row-major")
        a = self.args()
        a[1] = FakeTensor(0x20000008, (128, 256))
        self.check_error(a, "input 'w': data pointer 0x20000008 is not "
                            "16-byte aligned")
        a = self.args()
        a[2] = FakeTensor(0x10000000, (128, 256), typestr="<f4")
        self.check_error(a, "output 'out' overlaps input 'x'")
        self.check_error(self.args(300), "M = 300 is not a multiple of 128")
        self.check_error(self.args(5000), "outside every kernel's M bin")
        self.check_error(self.args()[:2], "expected 3 arguments")
        a = self.args()
        a[0] = FakeTensor(0x10000000, (128, 128), typestr="<i4")
        self.check_error(a, "argument 'x': unsupported typestr '<i4'")
        a = self.args()
        a[0] = object()
        self.check_error(a, "argument 'x': object is neither a torch.Tensor")

    def test_byte_strides_are_converted(self):
        a = self.args()
        a[0] = FakeTensor(0x10000000, (128, 128), strides=(256, 2))
        self.assertEqual(self.kernel.validate(*a).m, 128)

    def test_invalid_manifest_is_rejected_by_runtime(self):
        m = manifest()
        m["kernels"][1]["m_lo"] = 200  # overlaps k0's bin
        bad = os.path.join(self.tmp, "bad")
        write_bundle(bad, m, FILES)
        with self.assertRaises(BundleError) as cm:
            Kernel(bad)
        self.assertIn("kernels[1]: M bin [200, 4096] overlaps kernels[0]",
                      str(cm.exception))

    def test_corrupted_bundle_is_rejected_by_runtime(self):
        with open(os.path.join(self.dir, "k0.ptx"), "ab") as f:
            f.write(b"// edit")
        with self.assertRaises(_runtime.FFRTError) as cm:
            _runtime.Handle(self.dir, verify_hash=True)
        self.assertEqual(cm.exception.code, _runtime.ERROR_BUNDLE)
        self.assertIn("hash mismatch", str(cm.exception))

    def test_launch_without_gpu_fails_cleanly(self):
        if _runtime.driver_available():
            self.skipTest("a GPU is present")
        with self.assertRaises(_runtime.FFRTError) as cm:
            self.kernel(*self.args()[:2], out=self.args()[2])
        self.assertEqual(cm.exception.code, _runtime.ERROR_NO_DEVICE)
        self.assertIn("no CUDA", str(cm.exception))

    def test_out_required_without_torch(self):
        with self.assertRaisesRegex(ValidationError, "out= is required"):
            self.kernel(*self.args()[:2])


if __name__ == "__main__":
    unittest.main()
