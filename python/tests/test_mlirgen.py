"""Spec -> linalg MLIR generation (CPU only)."""

import os
import shutil
import subprocess
import unittest

from _util import ROOT  # noqa: F401  (sets sys.path)
from flashfuser import SpecError, generate_mlir, normalize_spec
from flashfuser.mlirgen import input_specs

FFN = {"kind": "ffn", "m": 128, "n": 2048, "k": 512, "l": 512,
       "activation": "gelu_tanh", "dtype": "bf16"}


def mlir_opt():
    for name in ("mlir-opt-22", "mlir-opt"):
        path = shutil.which(name)
        if path:
            return path
    path = "/usr/lib/llvm-22/bin/mlir-opt"
    return path if os.path.exists(path) else None


class MlirGenTest(unittest.TestCase):
    def test_ffn_structure(self):
        text = generate_mlir(FFN)
        self.assertIn("func.func @ff_ffn(%x: tensor<128x512xbf16>, "
                      "%w1: tensor<512x2048xbf16>, "
                      "%w2: tensor<2048x512xbf16>) -> tensor<128x512xbf16>",
                      text)
        self.assertEqual(text.count("linalg.matmul"), 2)
        self.assertIn("ins(%x, %w1 : tensor<128x512xbf16>, "
                      "tensor<512x2048xbf16>) outs(", text)
        self.assertIn("math.tanh", text)
        self.assertIn("arith.truncf", text)
        # GEMM1 -> activation generic -> GEMM2 in that order.
        first = text.index("linalg.matmul")
        act = text.index("math.tanh")
        second = text.index("linalg.matmul", first + 1)
        self.assertLess(first, act)
        self.assertLess(act, second)

    def test_dynamic_m_uses_tensor_dim(self):
        text = generate_mlir(dict(FFN, m=-1))
        self.assertIn("%m = tensor.dim %x, %c0 : tensor<?x512xbf16>", text)
        self.assertIn("tensor.empty(%m) : tensor<?x2048xf32>", text)
        self.assertIn("-> tensor<?x512xbf16>", text)

    def test_gated_ffn_body_and_order(self):
        text = generate_mlir({"kind": "gated_ffn", "m": 64, "n": 1024,
                              "k": 256, "l": 256, "activation": "silu"})
        self.assertIn("%wg: tensor<256x1024xbf16>, %wu: "
                      "tensor<256x1024xbf16>, %wd: tensor<1024x256xbf16>",
                      text)
        self.assertEqual(text.count("linalg.matmul"), 3)
        self.assertIn("math.exp", text)
        self.assertIn("%prod = arith.mulf %act, %in1 : f32", text)

    def test_linear_layout_transposes_b(self):
        text = generate_mlir(dict(FFN, weight_layout="nk"))
        self.assertIn("%w1: tensor<2048x512xbf16>", text)
        self.assertIn("affine_map<(d0, d1, d2) -> (d1, d2)>", text)

    def test_f32_output_drops_truncation(self):
        text = generate_mlir(dict(FFN, out_dtype="f32"))
        self.assertIn("-> tensor<128x512xf32>", text)
        self.assertEqual(text.count("arith.truncf"), 1)  # only the act

    def test_activations(self):
        expect = {"relu": "arith.maximumf", "gelu_erf": "math.erf",
                  "gelu": "math.erf", "sigmoid": "math.exp",
                  "silu": "math.exp", "identity": "arith.truncf"}
        for act, op in expect.items():
            self.assertIn(op, generate_mlir(dict(FFN, activation=act)), act)

    def test_gemm(self):
        text = generate_mlir({"kind": "gemm", "m": 256, "n": 128, "k": 64})
        self.assertEqual(text.count("linalg.matmul"), 1)
        self.assertIn("-> tensor<256x128xbf16>", text)

    def test_gated_gemm(self):
        # act(x wg) * (x wu): two matmuls and one generic over both (the
        # gated pair --dsm-fuse=fuse-single-gemms turns into gated_gemm).
        spec = {"kind": "gated_gemm", "m": 128, "n": 256, "k": 64,
                "weight_layout": "nk"}
        text = generate_mlir(spec)
        self.assertEqual(text.count("linalg.matmul"), 2)
        self.assertEqual(text.count("linalg.generic"), 1)
        self.assertIn("math.exp", text)          # silu by default
        self.assertIn("arith.mulf %act, %in1", text)
        self.assertIn("-> tensor<128x256xbf16>", text)
        specs = input_specs(normalize_spec(spec))
        self.assertEqual([(t["name"], t["shape"]) for t in specs],
                         [("x", [128, 64]), ("wg", [256, 64]),
                          ("wu", [256, 64]), ("out", [128, 256])])
        self.assertNotIn("l", normalize_spec(dict(spec, l=7)))

    def test_deterministic(self):
        self.assertEqual(generate_mlir(FFN), generate_mlir(dict(FFN)))

    def test_bad_specs(self):
        cases = [({"kind": "conv"}, "kind must be one of"),
                 (dict(FFN, activation="tanh"), "activation must be one of"),
                 (dict(FFN, n=0), "dimension n must be a positive integer"),
                 (dict(FFN, l=None), "dimension l"),
                 (dict(FFN, m=0), "m must be a positive integer or -1"),
                 (dict(FFN, dtype="f32"), "dtype must be bf16 or f16"),
                 (dict(FFN, weight_layout="t"), "weight_layout"),
                 (dict(FFN, bias=True), "unknown spec fields: bias")]
        for spec, message in cases:
            with self.assertRaises(SpecError) as cm:
                generate_mlir(spec)
            self.assertIn(message, str(cm.exception))

    def test_input_specs_match_manifest_convention(self):
        specs = input_specs(normalize_spec(dict(FFN, m=-1)))
        self.assertEqual([s["name"] for s in specs], ["x", "w1", "w2", "out"])
        self.assertEqual(specs[0]["shape"], [-1, 512])
        self.assertEqual(specs[1]["shape"], [512, 2048])
        self.assertEqual(specs[3]["shape"], [-1, 512])

    @unittest.skipUnless(mlir_opt(), "mlir-opt not found")
    def test_output_parses_with_mlir_opt(self):
        for spec in [FFN, dict(FFN, m=-1, activation="gelu_erf"),
                     dict(FFN, weight_layout="nk", activation="relu"),
                     {"kind": "gated_ffn", "m": -1, "n": 512, "k": 128,
                      "l": 128, "activation": "silu"},
                     {"kind": "gemm", "m": 64, "n": 64, "k": 64,
                      "out_dtype": "f32"},
                     {"kind": "gated_gemm", "m": -1, "n": 256, "k": 64}]:
            proc = subprocess.run([mlir_opt(), "-"], input=generate_mlir(spec),
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == "__main__":
    unittest.main()
