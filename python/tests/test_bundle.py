"""Bundle hashing, writing and verification (CPU only)."""

import hashlib
import json
import os
import shutil
import tempfile
import unittest

from _util import BUNDLES, runtime_available
from flashfuser import BundleError, compute_hash, verify_bundle, write_bundle
from flashfuser import _runtime
from flashfuser.bundle import ZERO_HASH, read_bundle, select_kernel


def manifest(**chain):
    c = {"kind": "gemm", "activation": "identity", "dtype": "bf16", "m": -1,
         "n": 256, "k": 128,
         "inputs": [{"name": "x", "shape": [-1, 128], "dtype": "bf16"},
                    {"name": "w", "shape": [128, 256], "dtype": "bf16"}],
         "outputs": [{"name": "out", "shape": [-1, 256], "dtype": "f32"}]}
    c.update(chain)
    return {"format": "flashfuser-bundle", "version": 1,
            "compiler": "test", "source_hash": "ab" * 32,
            "target": {"name": "h100-sxm", "chip": "sm_90a"}, "chain": c,
            "kernels": [{"name": "k0", "cubin": "k0.cubin", "ptx": "k0.ptx",
                         "m_lo": 1, "m_hi": 255, "block": [128, 1, 1],
                         "cluster": [1, 1, 1], "grid": [1, 2, 1],
                         "grid_m_tile": 64, "dynamic_smem": 0,
                         "params": [{"kind": "ptr", "tensor": "x"},
                                    {"kind": "ptr", "tensor": "w"},
                                    {"kind": "ptr", "tensor": "out"}]},
                        {"name": "k1", "cubin": "k1.cubin",
                         "m_lo": 256, "m_hi": 4096, "m_multiple": 128,
                         "block": [128, 1, 1], "cluster": [2, 1, 1],
                         "grid": [2, 2, 1], "grid_m_tile": 128,
                         "dynamic_smem": 1024,
                         "params": [{"kind": "ptr", "tensor": "x"},
                                    {"kind": "ptr", "tensor": "w"},
                                    {"kind": "ptr", "tensor": "out"},
                                    {"kind": "i64", "value": "M"}]}]}


FILES = {"k0.cubin": b"\x7fELF-cubin-0", "k0.ptx": b".version 8.0\n",
         "k1.cubin": b"\x7fELF-cubin-1"}


class BundleTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, "b")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_hash_rule(self):
        digest = write_bundle(self.dir, manifest(), FILES)
        with open(os.path.join(self.dir, "manifest.json"), "rb") as f:
            text = f.read()
        self.assertIn(digest.encode(), text)
        # SHA-256 of the manifest with the digits zeroed, then the files in
        # kernel order (cubin, ptx).
        h = hashlib.sha256(text.replace(digest.encode(), ZERO_HASH.encode()))
        for name in ("k0.cubin", "k0.ptx", "k1.cubin"):
            h.update(FILES[name])
        self.assertEqual(h.hexdigest(), digest)
        self.assertEqual(verify_bundle(self.dir)["hash"], digest)

    @unittest.skipUnless(runtime_available(), "libffrt.so not built")
    def test_python_and_runtime_agree(self):
        digest = write_bundle(self.dir, manifest(), FILES)
        self.assertEqual(_runtime.bundle_compute_hash(self.dir), digest)
        self.assertEqual(_runtime.sha256_hex(b"abc"),
                         hashlib.sha256(b"abc").hexdigest())
        for name in sorted(os.listdir(BUNDLES)):
            path = os.path.join(BUNDLES, name)
            m = verify_bundle(path)
            self.assertEqual(_runtime.bundle_compute_hash(path), m["hash"])

    def test_corruption_is_detected(self):
        write_bundle(self.dir, manifest(), FILES)
        with open(os.path.join(self.dir, "k1.cubin"), "ab") as f:
            f.write(b"!")
        with self.assertRaisesRegex(BundleError, "hash mismatch"):
            verify_bundle(self.dir)

    def test_edited_manifest_is_detected(self):
        write_bundle(self.dir, manifest(), FILES)
        path = os.path.join(self.dir, "manifest.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('"m_hi": 4096', '"m_hi": 8192'))
        with self.assertRaisesRegex(BundleError, "hash mismatch"):
            verify_bundle(self.dir)

    def test_missing_and_unsafe_files(self):
        with self.assertRaisesRegex(BundleError, "cannot read"):
            verify_bundle(self.dir)
        m = manifest()
        m["kernels"][0]["cubin"] = "../escape.cubin"
        with self.assertRaisesRegex(BundleError, "plain file name"):
            write_bundle(self.dir, m, FILES)
        with self.assertRaisesRegex(BundleError, "was not given"):
            write_bundle(self.dir, manifest(), {"k0.cubin": b""})

    def test_select_kernel(self):
        m = manifest()
        self.assertEqual(select_kernel(m, 1)["name"], "k0")
        self.assertEqual(select_kernel(m, 255)["name"], "k0")
        self.assertEqual(select_kernel(m, 256)["name"], "k1")
        self.assertIsNone(select_kernel(m, 5000))

    def test_read_rejects_other_formats(self):
        os.makedirs(self.dir)
        with open(os.path.join(self.dir, "manifest.json"), "w") as f:
            json.dump({"format": "other"}, f)
        with self.assertRaisesRegex(BundleError, "not a flashfuser-bundle"):
            read_bundle(self.dir)

    def test_versions(self):
        # Versions 2 and 3 (tensor maps with box_fits_m, box_tail_m) are
        # read like version 1; later versions are refused on both sides.
        for version in (1, 2, 3):
            m = manifest()
            m["version"] = version
            write_bundle(self.dir, m, FILES)
            self.assertEqual(verify_bundle(self.dir)["version"], version)
            shutil.rmtree(self.dir)
        m = manifest()
        m["version"] = 4
        with self.assertRaisesRegex(BundleError, "unsupported version 4"):
            write_bundle(self.dir, m, FILES)
        write_bundle(self.dir, manifest(), FILES)
        path = os.path.join(self.dir, "manifest.json")
        with open(path) as f:
            text = f.read().replace('"version": 1', '"version": 4')
        with open(path, "w") as f:
            f.write(text)
        with self.assertRaisesRegex(BundleError, "unsupported version 4"):
            read_bundle(self.dir)

    def test_default_version_is_the_lowest_needed(self):
        # Without a version, write_bundle writes 1 unless a tensor map
        # carries box_fits_m, which needs 2; asking for 1 with such a map
        # is refused rather than written for the runtime to reject.
        m = manifest()
        del m["version"]
        write_bundle(self.dir, m, FILES)
        self.assertEqual(verify_bundle(self.dir)["version"], 1)
        shutil.rmtree(self.dir)
        fitted = {"kind": "tensormap", "tensor": "x", "box": [64, 64],
                  "swizzle": "128b", "box_fits_m": True}
        m = manifest()
        del m["version"]
        m["kernels"][0]["params"].append(fitted)
        write_bundle(self.dir, m, FILES)
        self.assertEqual(verify_bundle(self.dir)["version"], 2)
        shutil.rmtree(self.dir)
        m["version"] = 1
        with self.assertRaisesRegex(BundleError,
                                    "version 1 cannot carry box_fits_m"):
            write_bundle(self.dir, m, FILES)
        # A last-tile map (box_tail_m) needs 3.
        del m["version"]
        m["kernels"][1]["params"].append(dict(fitted, box_fits_m=False,
                                              box_tail_m=True))
        write_bundle(self.dir, m, FILES)
        self.assertEqual(verify_bundle(self.dir)["version"], 3)
        shutil.rmtree(self.dir)
        m["version"] = 2
        with self.assertRaisesRegex(BundleError,
                                    "version 2 cannot carry box_tail_m"):
            write_bundle(self.dir, m, FILES)

if __name__ == "__main__":
    unittest.main()
