"""Runs the hand-written probe bundles through flashfuser.load with PyTorch
tensors (skipped without a GPU, PyTorch or the runtime library)."""

import os
import unittest
import warnings
from unittest import mock

from _util import BUNDLES, FakeTensor, gpu_available

import flashfuser
from flashfuser import ValidationError, _runtime

TMAVAL = os.path.join(BUNDLES, "a2_gemm_tmaval")   # N = K = 512
TMAPTR = os.path.join(BUNDLES, "a2_gemm_tmaptr")   # N = K = 4096


@unittest.skipUnless(gpu_available(), "needs a GPU, PyTorch and libffrt.so")
class GpuTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import torch
        cls.torch = torch
        cls.gen = torch.Generator(device="cuda").manual_seed(0)

    def rand(self, *shape, scale=1.0):
        t = self.torch
        return ((t.rand(*shape, device="cuda", generator=self.gen) * 2 - 1) *
                scale).to(t.bfloat16)

    def check_gemm(self, path, m, n, k, stream=None):
        t = self.torch
        kern = flashfuser.load(path)
        x = self.rand(m, k)
        w = self.rand(k, n, scale=(3.0 / k) ** 0.5)
        out = kern(x, w, stream=stream)  # allocated by the kernel wrapper
        if stream is not None:
            stream.synchronize()
        ref = x.float() @ w.float()
        self.assertEqual(out.dtype, t.float32)
        self.assertEqual(tuple(out.shape), (m, n))
        err = ((out - ref).norm() / ref.norm()).item()
        self.assertLess(err, 1e-3, f"M={m}: relative error {err}")

    def test_by_value_tensor_maps_dynamic_m(self):
        for m in (128, 384, 2048):
            self.check_gemm(TMAVAL, m, 512, 512)

    def test_device_tensor_map_copies(self):
        self.check_gemm(TMAPTR, 256, 4096, 4096)

    def test_side_stream(self):
        s = self.torch.cuda.Stream()
        self.check_gemm(TMAVAL, 256, 512, 512, stream=s)

    def test_repeated_calls_replay_a_graph_of_the_launch(self):
        # Both tensor-map kinds: by value (in the graph's kernel node) and
        # a device copy the runtime keeps. Fresh random x in place and a
        # NaN-poisoned out before every call; fp32 reference, rel. < 1e-3.
        t = self.torch
        for path, n, k in ((TMAVAL, 512, 512), (TMAPTR, 4096, 4096)):
            kern = flashfuser.load(path)
            x = self.rand(256, k)
            w = self.rand(k, n, scale=(3.0 / k) ** 0.5)
            out = t.empty(256, n, dtype=t.float32, device="cuda")
            for i in range(6):
                x.copy_(self.rand(256, k))
                out.fill_(float("nan"))
                self.assertIs(kern(x, w, out=out), out)
                t.cuda.synchronize()
                ref = x.float() @ w.float()
                err = ((out - ref).norm() / ref.norm()).item()
                self.assertLess(err, 1e-3, f"{path} call {i}: {err}")
            live = [g for g in kern._graphs.values() if g]
            self.assertEqual(len(live), 1, path)
            # Recorded and replayed by the runtime (ffrt_graph_capture).
            self.assertIsInstance(live[0][0], _runtime.Graph, path)

    def test_fast_path_serves_repeated_calls(self):
        # _ffrt_fastcall (where built) runs the steady calls: out given, out
        # allocated, a side stream given, and a PyTorch graph capturing a
        # call the fast path would replay (the capture must record the
        # launch, not replay the runtime's graph). Fresh random x and a
        # NaN-poisoned out before every call; fp32 reference, rel. < 1e-3.
        t = self.torch
        kern = flashfuser.load(TMAVAL)
        x = self.rand(256, 512)
        w = self.rand(512, 512, scale=(3.0 / 512) ** 0.5)
        out = t.empty(256, 512, dtype=t.float32, device="cuda")
        s = t.cuda.Stream()

        def check(got, what):
            t.cuda.synchronize()
            ref = x.float() @ w.float()
            err = ((got - ref).norm() / ref.norm()).item()
            self.assertLess(err, 1e-3, f"{what}: {err}")

        for i in range(6):
            x.copy_(self.rand(256, 512))
            out.fill_(float("nan"))
            self.assertIs(kern(x, w, out=out), out)
            check(out, f"out given, call {i}")
        for i in range(4):
            x.copy_(self.rand(256, 512))
            check(kern(x, w), f"out allocated, call {i}")
        for i in range(4):
            x.copy_(self.rand(256, 512))
            out.fill_(float("nan"))
            kern(x, w, out=out, stream=s)
            check(out, f"side stream, call {i}")
        g = t.cuda.CUDAGraph()
        with t.cuda.graph(g):
            kern(x, w, out=out)
        for i in range(2):
            x.copy_(self.rand(256, 512))
            out.fill_(float("nan"))
            g.replay()
            check(out, f"captured call, replay {i}")
        if kern._fast is not None:
            # Two replays with out given, three launches on the side stream
            # at least (allocated outs replay only while the allocator
            # returns the captured address).
            self.assertGreaterEqual(kern._fast.stats()["hits"], 5)
        else:
            self.assertIn(_runtime.fastcall_status(),
                          ("not built", "disabled by FLASHFUSER_NO_FASTCALL"))

    def test_side_stream_graphs_and_pytorch_graphs(self):
        # A graph replays on the stream it was captured for; with a library
        # that cannot capture (can_capture False) PyTorch's graphs serve.
        t = self.torch
        s = t.cuda.Stream()
        for runtime_graphs in (True, False):
            with mock.patch.object(_runtime.Handle, "can_capture",
                                   runtime_graphs):
                kern = flashfuser.load(TMAVAL)
                x = self.rand(256, 512)
                w = self.rand(512, 512, scale=(3.0 / 512) ** 0.5)
                out = t.empty(256, 512, dtype=t.float32, device="cuda")
                with t.cuda.stream(s):
                    for i in range(5):
                        x.copy_(self.rand(256, 512))
                        out.fill_(float("nan"))
                        kern(x, w, out=out)
                        s.synchronize()
                        ref = x.float() @ w.float()
                        err = ((out - ref).norm() / ref.norm()).item()
                        self.assertLess(err, 1e-3, f"call {i}: {err}")
                live = [g for g in kern._graphs.values() if g]
                self.assertEqual(len(live), 1)
                self.assertEqual(isinstance(live[0][0], _runtime.Graph),
                                 runtime_graphs)

    def test_a_grown_workspace_retires_the_graph(self):
        # The naive FFN's workspace grows with M (2048 bytes per row): a
        # launch at a larger M frees the buffer an M = 64 graph captured,
        # which the runtime's epoch tells; the next M = 64 call launches
        # afresh instead of replaying.
        t = self.torch
        kern = flashfuser.load(os.path.join(BUNDLES, "naive_ffn_gelu_tanh"))
        w1 = self.rand(256, 512, scale=(3.0 / 256) ** 0.5)
        w2 = self.rand(512, 256, scale=(3.0 / 512) ** 0.5)

        def call(x, out):
            out.fill_(float("nan"))
            kern(x, w1, w2, out=out)
            t.cuda.synchronize()
            xf = x.float()
            ref = t.nn.functional.gelu(xf @ w1.float(), approximate="tanh")
            ref = ref @ w2.float()
            err = ((out.float() - ref).norm() / ref.norm()).item()
            self.assertLess(err, 1e-2)

        def live():
            return [g for g in kern._graphs.values() if g]

        x64, out64 = self.rand(64, 256), t.empty(64, 256, device="cuda",
                                                  dtype=t.bfloat16)
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # a failed capture warns
            for _ in range(4):
                call(x64, out64)
            self.assertEqual(len(live()), 1)
            before = kern._epoch()
            call(self.rand(1024, 256), t.empty(1024, 256, device="cuda",
                                               dtype=t.bfloat16))
            self.assertGreater(kern._epoch(), before)
            call(x64, out64)
            self.assertEqual(kern._graphs, {})
            for _ in range(3):
                x64.copy_(self.rand(64, 256))
                call(x64, out64)
            self.assertEqual(len(live()), 1)

    def test_rejects_bad_tensors_before_launch(self):
        t = self.torch
        kern = flashfuser.load(TMAVAL)
        x = self.rand(128, 512)
        w = self.rand(512, 512)
        out = t.empty(128, 512, device="cuda")
        with self.assertRaisesRegex(ValidationError, "not on a CUDA device"):
            kern(x.cpu(), w, out=out)
        with self.assertRaisesRegex(ValidationError,
                                    "input 'w': not contiguous"):
            kern(x, w.t(), out=out)
        with self.assertRaisesRegex(ValidationError, "dtype f16"):
            kern(x.half(), w, out=out)
        with self.assertRaisesRegex(ValidationError, "not a multiple of 128"):
            kern(self.rand(200, 512), w, out=t.empty(200, 512, device="cuda"))
        with self.assertRaisesRegex(ValidationError, "outside every kernel"):
            kern(self.rand(64, 512), w, out=t.empty(64, 512, device="cuda"))
        pinned = t.empty(128, 512, pin_memory=True)
        with self.assertRaisesRegex(ValidationError,
                                    "output 'out': pointer is pinned host"):
            kern(x, w, out=FakeTensor(pinned.data_ptr(), (128, 512), "<f4"))

    def test_rejects_negative_views(self):
        # A lazy negation view shares its tensor's pointer and layout: it
        # is refused on its first call, and after its tensor's calls have
        # been cached (the fast path and the Python cache both step aside).
        t = self.torch
        kern = flashfuser.load(TMAVAL)
        x = self.rand(128, 512)
        w = self.rand(512, 512)
        out = t.empty(128, 512, device="cuda")
        with self.assertRaisesRegex(ValidationError, "negative bit"):
            kern(x._neg_view(), w, out=out)
        for _ in range(4):
            kern(x, w, out=out)
        with self.assertRaisesRegex(ValidationError, "negative bit"):
            kern(x, w._neg_view(), out=out)

    def test_rejects_pageable_host_memory(self):
        import ctypes
        kern = flashfuser.load(TMAVAL)
        x = self.rand(128, 512)
        w = self.rand(512, 512)
        # 16-byte aligned pageable host memory behind a device-array facade:
        # only the driver's pointer query can tell.
        buf = ctypes.create_string_buffer(128 * 512 * 4 + 16)
        ptr = (ctypes.addressof(buf) + 15) // 16 * 16
        # "not a CUDA allocation (host memory?)", or host memory for a
        # driver that maps pageable memory (HMM).
        with self.assertRaisesRegex(ValidationError,
                                    "output 'out': pointer is .*host memory"):
            kern(x, w, out=FakeTensor(ptr, (128, 512), "<f4"))

    def test_rejects_tensor_on_another_device(self):
        t = self.torch
        if t.cuda.device_count() < 2:
            self.skipTest("needs two GPUs")
        kern = flashfuser.load(TMAVAL)
        x = self.rand(128, 512)
        w = self.rand(512, 512).to("cuda:1")
        with self.assertRaisesRegex(ValidationError,
                                    "input 'w': lives on device 1, the launch "
                                    "targets device 0"):
            kern(x, w, out=t.empty(128, 512, device="cuda:0"))


if __name__ == "__main__":
    unittest.main()
