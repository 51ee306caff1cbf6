"""Compiled workspace kernels across many launches and changing M.

A bundle whose workspace is `self_cleaning` is cleared by the runtime only
when the buffer is allocated or grown; each launch's finishers must leave it
all-zero again. Launching one bundle at a sequence of M values (large, then
smaller, then in between, with repeats) on fresh random data and checking
every result against an fp32 reference catches a kernel that leaves stale
sums or counters behind.

The bundles are compiler output, so they are not committed: point
$FF_WORKSPACE_BUNDLES at a directory of dynamic-M FFN/gated-FFN bundles
(`scripts/compile-workloads.py DIR --dynamic-m`). Skipped without them, a
GPU, PyTorch or the runtime library.
"""

import glob
import json
import os
import unittest

from _util import gpu_available

import flashfuser

BUNDLE_DIR = os.environ.get("FF_WORKSPACE_BUNDLES", "")
M_SEQUENCE = (1000, 128, 1000, 640, 129, 1000, 1000)
TOLERANCE = 1e-2   # relative L2; the kernels measure ~2.4e-3


def workspace_bundles():
    out = []
    for manifest in sorted(glob.glob(os.path.join(BUNDLE_DIR, "*",
                                                  "manifest.json"))):
        with open(manifest) as f:
            m = json.load(f)
        params = [p for k in m["kernels"] for p in k["params"]]
        if m["chain"]["m"] == -1 and any(p["kind"] == "workspace"
                                         for p in params):
            out.append(os.path.dirname(manifest))
    return out


@unittest.skipUnless(gpu_available() and BUNDLE_DIR,
                     "needs a GPU, PyTorch, libffrt.so and "
                     "$FF_WORKSPACE_BUNDLES")
class WorkspaceAcrossLaunchesTest(unittest.TestCase):
    def test_every_launch_matches_the_reference(self):
        import torch
        import torch.nn.functional as F
        bundles = workspace_bundles()
        self.assertTrue(bundles, f"no dynamic-M workspace bundle in "
                                 f"{BUNDLE_DIR}")
        gen = torch.Generator(device="cuda").manual_seed(1)
        acts = {"gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
                "gelu_erf": F.gelu, "relu": F.relu, "silu": F.silu}
        for path in bundles:
            kern = flashfuser.load(path)
            chain = kern.manifest["chain"]
            act = acts[chain["activation"]]
            out_dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                         "f32": torch.float32}[kern.outputs[0]["dtype"]]
            weights = [(torch.rand(*t["shape"], device="cuda", generator=gen)
                        * 2 - 1).mul(t["shape"][0] ** -0.5).to(torch.bfloat16)
                       for t in kern.inputs[1:]]
            for m in M_SEQUENCE:
                if kern.kernel_for(m) is None:
                    continue
                x = (torch.rand(m, chain["k"], device="cuda", generator=gen)
                     * 2 - 1).to(torch.bfloat16)
                out = torch.full((m, chain["l"]), float("nan"),
                                 device="cuda", dtype=out_dtype)
                kern(x, *weights, out=out)
                xf, ws = x.float(), [w.float() for w in weights]
                if chain["kind"] == "gated_ffn":
                    ref = (act(xf @ ws[0]) * (xf @ ws[1])) @ ws[2]
                else:
                    ref = act(xf @ ws[0]) @ ws[1]
                err = ((out.float() - ref).norm() / ref.norm()).item()
                with self.subTest(bundle=os.path.basename(path), m=m):
                    self.assertTrue(torch.isfinite(out.float()).all().item())
                    self.assertLess(err, TOLERANCE)


if __name__ == "__main__":
    unittest.main()
