"""The unfused chain (flashfuser.fallback) on a GPU: numerics against an
fp32 reference written out independently, and the fused kernel against it
through Kernel's fallback modes (skipped without PyTorch and a GPU; the
Kernel tests also need libffrt.so)."""

import math
import os
import unittest

from _util import BUNDLES, gpu_available

import flashfuser
from flashfuser.fallback import (FUSED, FUSED_GRAPH, UNFUSED, UNFUSED_GRAPH,
                                 ChainForm, build_unfused)


def torch_cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def reference_act(name, t):
    """fp32 formulas, sharing no code with the chain's torch.nn.functional
    calls."""
    import torch
    if name == "identity":
        return t
    if name == "relu":
        return torch.where(t > 0, t, torch.zeros_like(t))
    if name == "gelu_erf":
        return 0.5 * t * (1 + torch.erf(t / math.sqrt(2)))
    if name == "gelu_tanh":
        return 0.5 * t * (1 + torch.tanh(math.sqrt(2 / math.pi) *
                                         (t + 0.044715 * t ** 3)))
    if name == "silu":
        return t / (1 + torch.exp(-t))
    if name == "sigmoid":
        return 1 / (1 + torch.exp(-t))
    raise ValueError(name)


class Case(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import torch
        cls.torch = torch
        cls.gen = torch.Generator(device="cuda").manual_seed(0)

    def rand(self, *shape, fan_in=None, dtype=None):
        """U(-1, 1), weights scaled to unit-variance outputs (as ff-run)."""
        t = self.torch
        scale = 1.0 if fan_in is None else math.sqrt(3.0 / fan_in)
        return ((t.rand(*shape, device="cuda", generator=self.gen) * 2 - 1) *
                scale).to(dtype or t.bfloat16)

    def assertClose(self, out, ref, what, tol=1e-2):
        out = out.float()
        self.assertTrue(bool(self.torch.isfinite(out).all()), what)
        err = ((out - ref).norm() / ref.norm()).item()
        self.assertLess(err, tol, f"{what}: relative error {err}")


@unittest.skipUnless(torch_cuda(), "needs PyTorch with a GPU")
class UnfusedChainTest(Case):
    M, K, N, L = 192, 256, 512, 384

    def weights(self, layout, rows, cols):
        """(the weight as the chain takes it, its fp32 [in, out] matrix)."""
        if layout == "nk":
            w = self.rand(cols, rows, fan_in=rows)
            return w, w.float().t()
        w = self.rand(rows, cols, fan_in=rows)
        return w, w.float()

    def run_chain(self, form, *inputs, out_shape):
        t = self.torch
        dtype = {"bf16": t.bfloat16, "f32": t.float32}[form.out_dtype]
        out = t.full(out_shape, float("nan"), dtype=dtype, device="cuda")
        before = [i.clone() for i in inputs]
        build_unfused(form)(*inputs, out)
        for a, b in zip(inputs, before):
            self.assertTrue(bool(t.equal(a, b)), "an input was modified")
        return out

    def test_ffn_activations_layouts_dtypes(self):
        M, K, N, L = self.M, self.K, self.N, self.L
        x = self.rand(M, K)
        for act in ("identity", "relu", "gelu_erf", "gelu_tanh", "silu",
                    "sigmoid"):
            for layout in ("kn", "nk"):
                for out_dtype in ("bf16", "f32"):
                    w1, f1 = self.weights(layout, K, N)
                    w2, f2 = self.weights(layout, N, L)
                    form = ChainForm("ffn", act, "bf16", out_dtype, N, L,
                                     (layout, layout))
                    out = self.run_chain(form, x, w1, w2, out_shape=(M, L))
                    ref = reference_act(act, x.float() @ f1) @ f2
                    self.assertClose(out, ref, f"ffn {act} {layout} "
                                               f"{out_dtype}")

    def test_gemm(self):
        M, K, N = self.M, self.K, self.N
        x = self.rand(M, K)
        w, f = self.weights("kn", K, N)
        for act in ("identity", "gelu_tanh", "relu"):
            form = ChainForm("gemm", act, "bf16", "f32", N, 0, ("kn",))
            out = self.run_chain(form, x, w, out_shape=(M, N))
            self.assertClose(out, reference_act(act, x.float() @ f),
                             f"gemm {act}")

    def test_gated_gemm(self):
        M, K, N = self.M, self.K, self.N
        x = self.rand(M, K)
        wg, fg = self.weights("nk", K, N)
        wu, fu = self.weights("nk", K, N)
        form = ChainForm("gated_gemm", "silu", "bf16", "bf16", N, 0,
                         ("nk", "nk"))
        out = self.run_chain(form, x, wg, wu, out_shape=(M, N))
        g = x.float() @ fg
        self.assertClose(out, reference_act("silu", g) * (x.float() @ fu),
                         "gated_gemm")

    def test_gated_split_and_merged_weights(self):
        for M in (64, self.M):
            self.gated_split_and_merged_weights(M)

    def gated_split_and_merged_weights(self, M):
        t = self.torch
        K, N, L = self.K, self.N, self.L
        x = self.rand(M, K)
        wd_nk, fd_nk = self.weights("nk", N, L)
        # nn.Linear's merged gate|up weight, split into two row blocks: the
        # chain runs one GEMM over both below M = 128, two from there.
        wgu = self.rand(2 * N, K, fan_in=K)
        cases = [("nk merged", "nk", wgu[:N], wgu[N:], wd_nk, fd_nk),
                 ("nk split", "nk", wgu[:N].clone(), wgu[N:].clone(), wd_nk,
                  fd_nk)]
        wg, _ = self.weights("kn", K, N)
        wu, _ = self.weights("kn", K, N)
        wd, fd = self.weights("kn", N, L)
        cases.append(("kn", "kn", wg, wu, wd, fd))
        for what, layout, g, u, d, fd_ in cases:
            form = ChainForm("gated_ffn", "silu", "bf16", "bf16", N, L,
                             (layout,) * 3)
            out = self.run_chain(form, x, g, u, d, out_shape=(M, L))
            fg = g.float().t() if layout == "nk" else g.float()
            fu = u.float().t() if layout == "nk" else u.float()
            ref = (reference_act("silu", x.float() @ fg) *
                   (x.float() @ fu)) @ fd_
            self.assertClose(out, ref, f"gated {what} at M = {M}")
        self.assertEqual(wgu.shape, t.Size([2 * N, K]))

    def test_conv_chains(self):
        t = self.torch
        import torch.nn.functional as F
        b, h, w, c, n, l = 2, 14, 14, 64, 128, 96
        x = self.rand(b, h, w, c)                       # NHWC
        for r in (1, 3):
            w1 = self.rand(r, r, c, n, fan_in=r * r * c)  # HWCF
            w2 = self.rand(1, 1, n, l, fan_in=n)
            # FHWC: PyTorch's OIHW filters in channels_last memory.
            o1 = w1.permute(3, 2, 0, 1).contiguous(
                memory_format=t.channels_last)
            o2 = w2.permute(3, 2, 0, 1).contiguous(
                memory_format=t.channels_last)
            ref = F.conv2d(x.float().permute(0, 3, 1, 2),
                           w1.float().permute(3, 2, 0, 1), padding=r // 2)
            ref = reference_act("relu", ref)
            ref = F.conv2d(ref, w2.float().permute(3, 2, 0, 1))
            for layouts, f1, f2 in ((("kn", "kn"), w1, w2),
                                    (("nk", "nk"), o1.permute(0, 2, 3, 1),
                                     o2.permute(0, 2, 3, 1))):
                form = ChainForm("ffn", "relu", "bf16", "f32", n, l, layouts,
                                 conv=r)
                self.assertTrue(f1.is_contiguous() and f2.is_contiguous())
                out = self.run_chain(form, x, f1, f2, out_shape=(b, h, w, l))
                self.assertClose(out, ref.permute(0, 2, 3, 1),
                                 f"conv {r}x{r} {layouts}")
        self.assertEqual(x.dtype, t.bfloat16)


FFN = os.path.join(BUNDLES, "naive_ffn_gelu_tanh")     # kn, K=256 N=512 L=256
GATED = os.path.join(BUNDLES, "naive_gated_silu_nk")   # nk, K=256 N=512 L=256


@unittest.skipUnless(gpu_available(), "needs a GPU, PyTorch and libffrt.so")
class KernelFallbackTest(Case):
    def ffn_args(self, m):
        x = self.rand(m, 256)
        w1 = self.rand(256, 512, fan_in=256)
        w2 = self.rand(512, 256, fan_in=512)
        ref = reference_act("gelu_tanh", x.float() @ w1.float()) @ w2.float()
        return (x, w1, w2), ref

    def gated_args(self, m):
        x = self.rand(m, 256)
        wgu = self.rand(1024, 256, fan_in=256)
        wd = self.rand(256, 512, fan_in=512)
        xf = x.float()
        ref = (reference_act("silu", xf @ wgu[:512].float().t()) *
               (xf @ wgu[512:].float().t())) @ wd.float().t()
        return (x, wgu[:512], wgu[512:], wd), ref

    def out_dtype(self, kernel):
        t = self.torch
        return {"bf16": t.bfloat16, "f16": t.float16,
                "f32": t.float32}[kernel.outputs[0]["dtype"]]

    def test_fused_and_unfused_agree(self):
        for path, make in ((FFN, self.ffn_args), (GATED, self.gated_args)):
            fused = flashfuser.load(path)
            unfused = flashfuser.load(path, fallback="always")
            self.assertIsNone(unfused.unfused_reason)
            for m in (64, 256):
                args, ref = make(m)
                a = fused(*args)
                b = unfused(*args)
                self.torch.cuda.synchronize()
                self.assertClose(a, ref, f"{path} fused M={m}")
                self.assertClose(b, ref, f"{path} unfused M={m}")
                self.assertClose(b, a.float(), f"{path} fused vs unfused")

    def test_auto_decides_and_reports(self):
        k = flashfuser.load(FFN, fallback="auto")
        args, ref = self.ffn_args(128)
        self.assertIsNone(k.choice(128))
        out = k(*args)
        self.torch.cuda.synchronize()
        self.assertClose(out, ref, "auto")
        self.assertIn(k.choice(128), (FUSED, UNFUSED))
        times = k.timings(128)
        self.assertGreater(times[FUSED], 0)
        self.assertGreater(times[UNFUSED], 0)
        self.assertEqual(k.choice(128),
                         UNFUSED if times[UNFUSED] < times[FUSED] else FUSED)
        # Both paths were also timed as CUDA graph replays.
        self.assertGreater(times[FUSED_GRAPH], 0)
        self.assertGreater(times[UNFUSED_GRAPH], 0)
        self.assertEqual(k.choices(128), {
            "eager": k.choice(128),
            "graph": UNFUSED if times[UNFUSED_GRAPH] < times[FUSED_GRAPH]
            else FUSED})
        self.assertEqual(k.choice(128, graph=True), k.choices(128)["graph"])
        self.assertFalse(self.torch.cuda.is_current_stream_capturing())

    def test_deciding_call_leaves_the_result_in_out(self):
        t = self.torch
        for path, make in ((FFN, self.ffn_args), (GATED, self.gated_args)):
            k = flashfuser.load(path, fallback="auto")
            args, ref = make(128)
            out = t.full((128, 256), float("nan"), dtype=self.out_dtype(k),
                         device="cuda")
            s = t.cuda.Stream()
            s.wait_stream(t.cuda.current_stream())
            self.assertIs(k(*args, out=out, stream=s), out)
            s.synchronize()
            self.assertIsNotNone(k.choices(128), path)
            self.assertClose(out, ref, f"{path} deciding call")
            # Later eager calls of the decided bin.
            out.fill_(float("nan"))
            k(*args, out=out)
            t.cuda.synchronize()
            self.assertClose(out, ref, f"{path} decided call")

    def test_capture_after_a_decision_uses_the_graph_choice(self):
        t = self.torch
        for path, make in ((FFN, self.ffn_args), (GATED, self.gated_args)):
            k = flashfuser.load(path, fallback="auto")
            args, ref = make(128)
            k(*args)                            # decides, eagerly
            graph_path = k.choice(128, graph=True)
            self.assertIn(graph_path, (FUSED, UNFUSED))
            out = t.empty(128, 256, dtype=self.out_dtype(k), device="cuda")
            s = t.cuda.Stream()
            s.wait_stream(t.cuda.current_stream())
            with t.cuda.stream(s):
                for _ in range(3):              # warm-up, as users do
                    k(*args, out=out)
            t.cuda.current_stream().wait_stream(s)
            g = t.cuda.CUDAGraph()
            with t.cuda.graph(g):
                k(*args, out=out)
            out.fill_(float("nan"))
            g.replay()
            t.cuda.synchronize()
            self.assertClose(out, ref, f"{path} captured {graph_path} call")
            # The capture decided nothing anew.
            self.assertEqual(k.choice(128, graph=True), graph_path)

    def test_each_graph_choice_captures_correctly(self):
        """Whichever path the graph choice names (set by hand here, both
        ways, the eager choice the other) is what a captured call runs."""
        t = self.torch
        k = flashfuser.load(GATED, fallback="auto")
        args, ref = self.gated_args(128)
        k(*args)
        b = k._bin(128)
        for graph_path in (FUSED, UNFUSED):
            eager_path = UNFUSED if graph_path == FUSED else FUSED
            k._dispatcher._choice[b] = eager_path
            k._dispatcher._graph[b] = graph_path
            k._by_m.clear()
            k.clear_cache()
            self.assertEqual(k.choices(128), {"eager": eager_path,
                                              "graph": graph_path})
            ran = []
            for name in ("_call_fused", "_call_unfused"):
                real = getattr(k, name)

                def spy(*a, _real=real, _name=name, **kw):
                    ran.append((_name, t.cuda.is_current_stream_capturing()))
                    return _real(*a, **kw)
                setattr(k, name, spy)
            try:
                out = t.empty(128, 256, dtype=self.out_dtype(k),
                              device="cuda")
                s = t.cuda.Stream()
                s.wait_stream(t.cuda.current_stream())
                with t.cuda.stream(s):
                    k(*args, out=out)           # warm-up: the eager path
                t.cuda.current_stream().wait_stream(s)
                g = t.cuda.CUDAGraph()
                with t.cuda.graph(g):
                    k(*args, out=out)
            finally:
                del k._call_fused, k._call_unfused
            self.assertEqual(ran, [("_call_" + eager_path, False),
                                   ("_call_" + graph_path, True)])
            out.fill_(float("nan"))
            g.replay()
            t.cuda.synchronize()
            self.assertClose(out, ref, f"captured {graph_path} call")

    def test_graph_capture_before_a_decision_runs_fused(self):
        t = self.torch
        k = flashfuser.load(FFN, fallback="auto")
        args, ref = self.ffn_args(128)
        out = t.empty(128, 256, dtype=t.bfloat16, device="cuda")
        k.prepare()     # module loads are no stream work to capture
        s = t.cuda.Stream()
        s.wait_stream(t.cuda.current_stream())
        g = t.cuda.CUDAGraph()
        # relaxed: this first launch allocates the bundle's workspace.
        with t.cuda.stream(s), t.cuda.graph(g, stream=s,
                                            capture_error_mode="relaxed"):
            k(*args, out=out)
        self.assertIsNone(k.choice(128))        # nothing timed in capture
        out.fill_(float("nan"))
        g.replay()
        t.cuda.synchronize()
        self.assertClose(out, ref, "captured fused call")

    def test_side_stream(self):
        t = self.torch
        k = flashfuser.load(GATED, fallback="always")
        args, ref = self.gated_args(128)
        s = t.cuda.Stream()
        s.wait_stream(t.cuda.current_stream())
        out = k(*args, stream=s)
        s.synchronize()
        self.assertClose(out, ref, "unfused on a side stream")


    def test_unfused_graphs_replay_the_current_arguments(self):
        # Repeated calls replay a captured graph; it reads x's current
        # contents and writes out, fresh random data and a poisoned out
        # each time (fp32 reference, rel. error < 1e-2).
        t = self.torch
        k = flashfuser.load(FFN, fallback="always")
        args, ref = self.ffn_args(128)
        x, w1, w2 = args
        out = t.empty(128, 256, dtype=self.out_dtype(k), device="cuda")
        for i in range(6):
            x.copy_(self.rand(128, 256))
            ref = reference_act("gelu_tanh", x.float() @ w1.float()) @ \
                w2.float()
            out.fill_(float("nan"))
            self.assertIs(k(x, w1, w2, out=out), out)
            t.cuda.synchronize()
            self.assertClose(out, ref, f"unfused call {i}")
        graphs = [g for g in k._graphs.values() if g]
        self.assertEqual(len(graphs), 1)
        # A captured call of the caller's runs into the caller's graph.
        g = t.cuda.CUDAGraph()
        s = t.cuda.Stream()
        s.wait_stream(t.cuda.current_stream())
        with t.cuda.stream(s):
            with t.cuda.graph(g, stream=s):
                k(x, w1, w2, out=out)
        x.copy_(self.rand(128, 256))
        out.fill_(float("nan"))
        g.replay()
        t.cuda.synchronize()
        self.assertClose(out, reference_act(
            "gelu_tanh", x.float() @ w1.float()) @ w2.float(),
            "the caller's graph")
        off = flashfuser.load(FFN, fallback="always", graphs=False)
        for _ in range(5):
            off(x, w1, w2, out=out)
        self.assertEqual(off._graphs, {})

    def test_graph_timer_fills_short_graphs_with_calls(self):
        # Python runs fn only eagerly and while capturing: 3 warm-ups, the
        # one-call capture, then a capture of several calls when one replay
        # is shorter than the graph span; a long call keeps its one-call
        # graph. Both timings are per call and positive.
        from flashfuser.fallback import _GRAPH_MAX_COPIES, graph_timer
        t = self.torch
        timer = graph_timer(t.cuda.current_stream())
        for n, short in ((64, True), (16384, False)):
            a = self.rand(n, n)
            calls = []

            def fn():
                calls.append(1)
                a.mul_(1)
            ms = timer(fn, 3, 5)
            self.assertGreater(ms, 0)
            if short:
                self.assertGreater(len(calls), 5)
                self.assertLessEqual(len(calls), 4 + _GRAPH_MAX_COPIES)
            else:
                self.assertEqual(len(calls), 4)


if __name__ == "__main__":
    unittest.main()
