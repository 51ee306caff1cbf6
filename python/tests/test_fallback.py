"""The fused/unfused choice (flashfuser.fallback) without PyTorch or a GPU:
the Dispatcher with fake timings, manifests -> ChainForm, and Kernel's
dispatch glue over a stand-in torch module (needs libffrt.so for the last)."""

import contextlib
import copy
import os
import shutil
import sys
import tempfile
import types
import unittest
import warnings
from unittest import mock

from _util import eager_order, runtime_available
from flashfuser import Kernel, ValidationError, load, write_bundle
from flashfuser import kernel as kernel_mod
from flashfuser.fallback import (FUSED, FUSED_GRAPH, UNFUSED, UNFUSED_GRAPH,
                                 ChainForm, Dispatcher, FallbackUnavailable,
                                 chain_form, graph_copies, weight_layout)
from test_bundle import FILES, manifest


class FakeTimer:
    """timer(fn, warmup, reps) answering preset milliseconds per callable
    and recording what it timed."""

    def __init__(self, times):
        self.times = times
        self.timed = []

    def __call__(self, fn, warmup, reps):
        self.timed.append(fn)
        return self.times[fn]


def paths():
    calls = []

    def fused():
        calls.append(FUSED)

    def unfused():
        calls.append(UNFUSED)
    return fused, unfused, calls


class DispatcherTest(unittest.TestCase):
    def test_auto_picks_the_faster_and_caches_per_key(self):
        fused, unfused, _ = paths()
        d = Dispatcher("auto")
        slow_fused = FakeTimer({fused: 2.0, unfused: 1.5})
        self.assertEqual(d.choose(0, fused, unfused, slow_fused), UNFUSED)
        self.assertEqual(slow_fused.timed, eager_order(fused, unfused))
        self.assertEqual(d.choice(0), UNFUSED)
        self.assertEqual(d.times(0), {FUSED: 2.0, UNFUSED: 1.5})
        # Decided: no more timing for this key, whatever the timer says now.
        fast_fused = FakeTimer({fused: 0.1, unfused: 9.0})
        self.assertEqual(d.choose(0, fused, unfused, fast_fused), UNFUSED)
        self.assertEqual(fast_fused.timed, [])
        # Another key (M bin) is measured on its own.
        self.assertIsNone(d.choice(1))
        self.assertEqual(d.choose(1, fused, unfused, fast_fused), FUSED)
        self.assertEqual(fast_fused.timed, eager_order(fused, unfused))
        self.assertEqual(d.choice(0), UNFUSED)

    def test_tie_keeps_fused(self):
        fused, unfused, _ = paths()
        d = Dispatcher("auto")
        self.assertEqual(
            d.choose(0, fused, unfused, FakeTimer({fused: 1.0, unfused: 1.0})),
            FUSED)

    def test_one_slow_round_does_not_flip_the_choice(self):
        fused, unfused, _ = paths()
        # The unfused chain is faster, but its first round ran during a
        # host stall (G5 on an H100: 499 us once, 123 us otherwise).
        seq = {fused: iter([1.58, 1.59, 1.58]),
               unfused: iter([4.99, 1.23, 1.24])}
        timed = []

        def timer(fn, warmup, reps):
            timed.append((fn, warmup))
            return next(seq[fn])
        d = Dispatcher("auto")
        self.assertEqual(d.choose(0, fused, unfused, timer), UNFUSED)
        self.assertEqual(d.times(0), {FUSED: 1.58, UNFUSED: 1.23})
        # The first timing of each path warms up fully, later ones once.
        self.assertEqual(timed, [(fused, 3), (unfused, 3), (unfused, 1),
                                 (fused, 1), (fused, 1), (unfused, 1)])
        # One round is the old behaviour: the stall decides.
        seq = {fused: iter([1.58]), unfused: iter([4.99])}
        self.assertEqual(Dispatcher("auto", rounds=1).choose(
            0, fused, unfused, timer), FUSED)
        with self.assertRaisesRegex(ValueError, "rounds must be at least 1"):
            Dispatcher("auto", rounds=0)

    def test_no_timing_while_capturing(self):
        fused, unfused, _ = paths()
        d = Dispatcher("auto")
        timer = FakeTimer({fused: 2.0, unfused: 1.0})
        # Undecided during capture: fused, nothing timed, still undecided.
        self.assertEqual(d.choose(0, fused, unfused, timer, capturing=True),
                         FUSED)
        self.assertEqual(timer.timed, [])
        self.assertIsNone(d.choice(0))
        # Decided outside capture, the choice is replayed inside one.
        self.assertEqual(d.choose(0, fused, unfused, timer), UNFUSED)
        self.assertEqual(d.choose(0, fused, unfused, timer, capturing=True),
                         UNFUSED)
        self.assertEqual(len(timer.timed), 6)

    def test_never_and_always_do_not_time(self):
        fused, unfused, calls = paths()
        timer = FakeTimer({})
        never, always = Dispatcher("never"), Dispatcher("always")
        for capturing in (False, True):
            self.assertEqual(never.choose(0, fused, unfused, timer, capturing),
                             FUSED)
            self.assertEqual(always.choose(0, fused, unfused, timer,
                                           capturing), UNFUSED)
        self.assertEqual(timer.timed, [])
        self.assertEqual(calls, [])     # choose() decides, callers run
        self.assertIsNone(never.times(0))
        with self.assertRaisesRegex(FallbackUnavailable, "no unfused form"):
            Dispatcher("always").choose(0, fused, None, timer)

    def test_auto_without_unfused_form_is_fused_untimed(self):
        fused, _, _ = paths()
        timer = FakeTimer({})
        d = Dispatcher("auto")
        self.assertEqual(d.choose(0, fused, None, timer), FUSED)
        self.assertEqual(d.choice(0), FUSED)
        self.assertEqual(timer.timed, [])

    def test_failing_unfused_chain_keeps_fused(self):
        fused, _, _ = paths()

        def broken():
            raise RuntimeError("cuBLAS says no")

        def timer(fn, warmup, reps):
            return fn() or 1.0

        d = Dispatcher("auto")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.assertEqual(d.choose(0, fused, broken, timer), FUSED)
        self.assertIn("cuBLAS says no", str(w[0].message))
        self.assertEqual(d.times(0), {FUSED: 1.0, UNFUSED: None})

    def test_fused_errors_propagate(self):
        def bad_args():
            raise ValidationError("input 'x': bad")
        _, unfused, _ = paths()
        with self.assertRaisesRegex(ValidationError, "input 'x'"):
            Dispatcher("auto").choose(0, bad_args, unfused,
                                      lambda fn, w, r: fn())

    def test_bad_mode(self):
        with self.assertRaisesRegex(ValueError, "never, auto, always"):
            Dispatcher("sometimes")


class GraphChoiceTest(unittest.TestCase):
    """Dispatcher's second choice, for calls captured into a CUDA graph."""

    def test_eager_and_graph_choices_are_kept_apart(self):
        fused, unfused, _ = paths()
        gfused, gunfused, _ = paths()
        d = Dispatcher("auto")
        # Eagerly the unfused chain's host launches make it slower; replayed
        # from a graph it is faster (G9 on an H100).
        eager = FakeTimer({fused: 0.030, unfused: 0.060})
        graph = FakeTimer({gfused: 0.0265, gunfused: 0.0145})
        self.assertEqual(d.choose(0, fused, unfused, eager, graph_timer=graph,
                                  graph_paths=(gfused, gunfused)), FUSED)
        self.assertEqual(eager.timed, eager_order(fused, unfused))
        self.assertEqual(graph.timed, [gfused, gunfused])
        self.assertEqual(d.choice(0), FUSED)
        self.assertEqual(d.choice(0, graph=True), UNFUSED)
        self.assertEqual(d.choices(0), {"eager": FUSED, "graph": UNFUSED})
        self.assertEqual(d.times(0), {FUSED: 0.030, UNFUSED: 0.060,
                                      FUSED_GRAPH: 0.0265,
                                      UNFUSED_GRAPH: 0.0145})
        # Decided: eager calls get the eager choice, captured ones the
        # graph choice, nothing timed again.
        self.assertEqual(d.choose(0, fused, unfused, eager), FUSED)
        self.assertEqual(d.choose(0, fused, unfused, eager, capturing=True),
                         UNFUSED)
        self.assertEqual((len(eager.timed), len(graph.timed)), (6, 2))
        # The other way round, and without graph_paths the eager callables
        # are captured.
        slow = FakeTimer({fused: 0.9, unfused: 0.5})
        slow_graph = FakeTimer({fused: 0.4, unfused: 0.5})
        self.assertEqual(d.choose(1, fused, unfused, slow,
                                  graph_timer=slow_graph), UNFUSED)
        self.assertEqual(slow_graph.timed, [fused, unfused])
        self.assertEqual(d.choices(1), {"eager": UNFUSED, "graph": FUSED})
        self.assertIsNone(d.choices(2))

    def test_graph_tie_keeps_fused(self):
        fused, unfused, _ = paths()
        d = Dispatcher("auto")
        d.choose(0, fused, unfused, FakeTimer({fused: 2.0, unfused: 1.0}),
                 graph_timer=FakeTimer({fused: 1.0, unfused: 1.0}))
        self.assertEqual(d.choices(0), {"eager": UNFUSED, "graph": FUSED})

    def test_undecided_capture_runs_fused_untimed(self):
        fused, unfused, _ = paths()
        d = Dispatcher("auto")
        eager = FakeTimer({fused: 1.0, unfused: 2.0})
        graph = FakeTimer({fused: 2.0, unfused: 1.0})
        self.assertEqual(d.choose(0, fused, unfused, eager, capturing=True,
                                  graph_timer=graph), FUSED)
        self.assertEqual((eager.timed, graph.timed), ([], []))
        self.assertIsNone(d.choices(0))
        self.assertIsNone(d.choice(0, graph=True))

    def test_failing_graph_timing_uses_the_eager_choice(self):
        fused, unfused, _ = paths()

        def capture_fails(fn, warmup, reps):
            raise RuntimeError("operation not permitted when stream is "
                               "capturing")

        def unfused_capture_fails(fn, warmup, reps):
            if fn is unfused:
                capture_fails(fn, warmup, reps)
            return 0.1

        for graph_timer, fused_graph in ((capture_fails, None),
                                         (unfused_capture_fails, 0.1)):
            d = Dispatcher("auto")
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                self.assertEqual(
                    d.choose(0, fused, unfused,
                             FakeTimer({fused: 2.0, unfused: 1.0}),
                             graph_timer=graph_timer), UNFUSED)
            self.assertEqual(len(w), 1)
            self.assertIn("not permitted", str(w[0].message))
            self.assertIn("eager choice (unfused)", str(w[0].message))
            self.assertEqual(d.choices(0), {"eager": UNFUSED,
                                            "graph": UNFUSED})
            self.assertEqual(d.times(0), {FUSED: 2.0, UNFUSED: 1.0,
                                          FUSED_GRAPH: fused_graph,
                                          UNFUSED_GRAPH: None})
            self.assertEqual(d.choose(0, fused, unfused, capture_fails,
                                      capturing=True), UNFUSED)

    def test_no_graph_timing_without_an_unfused_run(self):
        fused, _, _ = paths()

        def broken():
            raise RuntimeError("cuBLAS says no")

        graph = FakeTimer({})
        d = Dispatcher("auto")
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            d.choose(0, fused, broken, lambda fn, w, r: fn() or 1.0,
                     graph_timer=graph)
        d.choose(1, fused, None, FakeTimer({}), graph_timer=graph)
        self.assertEqual(graph.timed, [])
        self.assertEqual(d.choices(0), {"eager": FUSED, "graph": FUSED})
        self.assertEqual(d.times(0), {FUSED: 1.0, UNFUSED: None,
                                      FUSED_GRAPH: None, UNFUSED_GRAPH: None})
        self.assertEqual(d.choices(1), {"eager": FUSED, "graph": FUSED})
        self.assertIsNone(d.times(1))

    def test_never_and_always_have_one_choice(self):
        fused, unfused, _ = paths()
        graph = FakeTimer({})
        never, always = Dispatcher("never"), Dispatcher("always")
        never.choose(0, fused, unfused, FakeTimer({}), graph_timer=graph)
        always.choose(0, fused, unfused, FakeTimer({}), graph_timer=graph)
        self.assertEqual(never.choices(0), {"eager": FUSED, "graph": FUSED})
        self.assertEqual(always.choices(0), {"eager": UNFUSED,
                                             "graph": UNFUSED})
        self.assertEqual(graph.timed, [])


# Chains as the compiler writes them (scripts/compile-workloads.py G1 with
# --weight-layout nk, S1, C1-b1, C5-b1).
G1_NK = {"activation": "gelu_tanh", "dtype": "bf16", "kind": "ffn",
         "k": 32, "l": 256, "m": 128, "n": 512,
         "inputs": [{"dtype": "bf16", "name": "in0", "shape": [128, 32]},
                    {"dtype": "bf16", "layout": "nk", "name": "in1",
                     "shape": [512, 32]},
                    {"dtype": "bf16", "layout": "nk", "name": "in2",
                     "shape": [256, 512]}],
         "outputs": [{"dtype": "bf16", "name": "out", "shape": [128, 256]}]}
S1 = {"activation": "silu", "dtype": "bf16", "kind": "gated_ffn",
      "k": 3072, "l": 3072, "m": 128, "n": 8192,
      "inputs": [{"dtype": "bf16", "name": "in0", "shape": [128, 3072]},
                 {"dtype": "bf16", "layout": "nk", "name": "in1",
                  "shape": [8192, 3072]},
                 {"dtype": "bf16", "layout": "nk", "name": "in2",
                  "shape": [8192, 3072]},
                 {"dtype": "bf16", "layout": "nk", "name": "in3",
                  "shape": [3072, 8192]}],
      "outputs": [{"dtype": "bf16", "name": "out", "shape": [128, 3072]}]}
C1 = {"activation": "relu", "dtype": "bf16", "kind": "ffn",
      "k": 64, "l": 64, "m": 3136, "n": 256,
      "inputs": [{"dtype": "bf16", "name": "in0", "shape": [1, 56, 56, 64]},
                 {"dtype": "bf16", "name": "in1", "shape": [1, 1, 64, 256]},
                 {"dtype": "bf16", "name": "in2", "shape": [1, 1, 256, 64]}],
      "outputs": [{"dtype": "f32", "name": "out", "shape": [1, 56, 56, 64]}]}
C5 = {"activation": "relu", "dtype": "bf16", "kind": "ffn",
      "k": 576, "l": 256, "m": 3136, "n": 64,
      "inputs": [{"dtype": "bf16", "name": "in0", "shape": [1, 56, 56, 64]},
                 {"dtype": "bf16", "name": "in1", "shape": [3, 3, 64, 64]},
                 {"dtype": "bf16", "name": "in2", "shape": [1, 1, 64, 256]}],
      "outputs": [{"dtype": "f32", "name": "out", "shape": [1, 56, 56, 256]}]}
# C5 with FHWC filters (PyTorch's OIHW in channels_last memory).
C5_FHWC = {**C5, "inputs": [
    C5["inputs"][0],
    {"dtype": "bf16", "name": "in1", "shape": [64, 3, 3, 64], "layout": "nk"},
    {"dtype": "bf16", "name": "in2", "shape": [256, 1, 1, 64],
     "layout": "nk"}]}


def form(chain):
    return chain_form({"chain": chain})


def edited(chain, **fields):
    c = copy.deepcopy(chain)
    for path, value in fields.items():
        *keys, last = path.split("__")
        node = c
        for key in keys:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is None:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return c


class GraphCopiesTest(unittest.TestCase):
    def test_calls_fill_the_graph_span(self):
        # 0.2 ms of GPU work per timed graph, 32 calls at most, never none.
        self.assertEqual(graph_copies(0.2), 1)
        self.assertEqual(graph_copies(1.5), 1)
        self.assertEqual(graph_copies(0.05), 4)
        self.assertEqual(graph_copies(0.03), 7)
        self.assertEqual(graph_copies(0.001), 32)
        self.assertEqual(graph_copies(0.0), 32)


class ChainFormTest(unittest.TestCase):
    def test_compiled_chains(self):
        self.assertEqual(form(G1_NK), ChainForm(
            kind="ffn", activation="gelu_tanh", dtype="bf16",
            out_dtype="bf16", n=512, l=256, layouts=("nk", "nk"), conv=0))
        self.assertEqual(form(S1).layouts, ("nk", "nk", "nk"))
        self.assertEqual(form(S1).kind, "gated_ffn")
        c1, c5 = form(C1), form(C5)
        self.assertEqual((c1.conv, c1.out_dtype, c1.layouts),
                         (1, "f32", ("kn", "kn")))
        self.assertEqual((c5.conv, c5.n, c5.l), (3, 64, 256))
        fhwc = form(C5_FHWC)
        self.assertEqual((fhwc.conv, fhwc.n, fhwc.l, fhwc.layouts),
                         (3, 64, 256, ("nk", "nk")))
        c1nk = edited(C1, inputs__1__shape=[256, 1, 1, 64],
                      inputs__1__layout="nk")
        self.assertEqual(form(c1nk).layouts, ("nk", "kn"))
        gg = form({"activation": "silu", "dtype": "bf16",
                   "kind": "gated_gemm", "k": 64, "l": 0, "m": -1, "n": 256,
                   "inputs": [{"dtype": "bf16", "name": "in0",
                               "shape": [-1, 64]},
                              {"dtype": "bf16", "layout": "nk", "name": "in1",
                               "shape": [256, 64]},
                              {"dtype": "bf16", "layout": "nk", "name": "in2",
                               "shape": [256, 64]}],
                   "outputs": [{"dtype": "bf16", "name": "out",
                                "shape": [-1, 256]}]})
        self.assertEqual((gg.kind, gg.layouts, gg.n, gg.l),
                         ("gated_gemm", ("nk", "nk"), 256, 0))
        gemm = form(manifest()["chain"])
        self.assertEqual((gemm.kind, gemm.layouts, gemm.l), ("gemm", ("kn",),
                                                             0))

    def test_layout_rule(self):
        w = {"name": "w1", "shape": [512, 512]}
        # Square, no layout field: [in, out], docs/bundle.md's default.
        self.assertEqual(weight_layout(w, 512, 512), "kn")
        self.assertEqual(weight_layout(dict(w, layout="nk"), 512, 512), "nk")
        # No field: the shape decides.
        self.assertEqual(weight_layout({"name": "w", "shape": [32, 512]},
                                       32, 512), "kn")
        self.assertEqual(weight_layout({"name": "w", "shape": [512, 32]},
                                       32, 512), "nk")
        with self.assertRaisesRegex(FallbackUnavailable,
                                    "layout nk means shape \\[512, 32\\]"):
            weight_layout({"name": "w", "shape": [32, 512], "layout": "nk"},
                          32, 512)
        with self.assertRaisesRegex(FallbackUnavailable, "neither"):
            weight_layout({"name": "w", "shape": [32, 32]}, 32, 512)
        # Without the field G1's [out, in] weights still read as "nk".
        plain = edited(G1_NK, inputs__1__layout=None, inputs__2__layout=None)
        self.assertEqual(form(plain).layouts, ("nk", "nk"))

    def test_unsupported_chains(self):
        cases = [
            (edited(G1_NK, kind="chain"), "kind 'chain'"),
            (edited(G1_NK, activation="custom"), "activation 'custom'"),
            (edited(G1_NK, inputs=G1_NK["inputs"][:2]), "takes 3 inputs"),
            (edited(G1_NK, inputs__1__dtype="f16"), "is f16"),
            (edited(G1_NK, outputs__0__shape=[128, 512]), "not \\[M, 32\\]"),
            (edited(C1, kind="gated_ffn",
                    inputs=C1["inputs"] + [C1["inputs"][1]]), "over images"),
            (edited(C5, inputs__1__shape=[5, 5, 64, 64]), "1x1 or 3x3"),
            (edited(C5, outputs__0__shape=[1, 54, 54, 256]), "stride-1"),
            # An HWCF shape labelled FHWC, and an FHWC one unlabelled.
            (edited(C5, inputs__1__layout="nk"), "FHWC"),
            (edited(C5_FHWC, inputs__1__layout=None), "HWCF"),
            (edited(C5_FHWC, inputs__2__shape=[1, 1, 64, 256]),
             "second filter"),
            (edited(C5_FHWC, inputs__2__layout="ok"), "filter layouts"),
        ]
        for chain, message in cases:
            with self.assertRaisesRegex(FallbackUnavailable, message):
                form(chain)


# --------------------------------------------------------------------------
# Kernel's dispatch over a stand-in torch module
# --------------------------------------------------------------------------

class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


def fake_torch(capturing):
    torch = types.ModuleType("torch")
    torch.bfloat16, torch.float16, torch.float32 = (
        FakeDtype("bfloat16"), FakeDtype("float16"), FakeDtype("float32"))

    class Stream:
        cuda_stream = 0

    cuda = types.SimpleNamespace(
        Stream=Stream,
        current_device=lambda: 0,
        current_stream=lambda device=None: Stream(),
        default_stream=lambda device=None: Stream(),
        stream=lambda s: contextlib.nullcontext(),
        device=lambda d: contextlib.nullcontext(),
        is_current_stream_capturing=lambda: capturing[0])
    torch.cuda = cuda
    return torch


class FakeTorchTensor:
    """Just what Kernel reads of a torch.Tensor."""
    is_cuda = True
    device = types.SimpleNamespace(type="cuda", index=0)

    def __init__(self, ptr, shape, dtype, contiguous=True):
        self.ptr, self.shape, self.dtype = ptr, tuple(shape), dtype
        self.contiguous = contiguous

    def data_ptr(self):
        return self.ptr

    def stride(self):
        s, out = 1, []
        for d in reversed(self.shape):
            out.append(s)
            s *= d
        out = tuple(reversed(out))
        return out if self.contiguous else tuple(reversed(out))

    def is_contiguous(self):
        return self.contiguous


@unittest.skipUnless(runtime_available(), "libffrt.so not built")
class KernelDispatchTest(unittest.TestCase):
    """manifest(): a gemm [M,128]·[128,256] -> f32, bins [1, 255] and
    [256, 4096] (M a multiple of 128)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, "b")
        write_bundle(self.dir, manifest(), FILES)
        self.capturing = [False]
        self.torch = fake_torch(self.capturing)
        self.calls = []
        self.timer_times = {FUSED: 1.0, UNFUSED: 0.5}
        self.graph_times = {FUSED: 0.8, UNFUSED: 0.3}
        self.timed = []
        self.streams = []           # the stream= of each fused run
        test = self

        def call_fused(kernel, inputs, out, stream):
            test.calls.append((FUSED, inputs[0].shape[0]))
            test.streams.append(stream)
            return out

        def build_unfused(form):
            def run(x, w, out):
                test.calls.append((UNFUSED, x.shape[0]))
            return run

        def event_timer(stream):
            def timer(fn, warmup, reps):
                n = len(test.calls)
                fn()
                path = test.calls[n][0]
                test.timed.append(path)
                return test.timer_times[path]
            return timer

        def graph_timer(stream):
            # One run of fn, "captured": the stream reports capturing.
            def timer(fn, warmup, reps):
                n = len(test.calls)
                before, test.capturing[0] = test.capturing[0], True
                try:
                    fn()
                finally:
                    test.capturing[0] = before
                path = test.calls[n][0]
                test.timed.append("graph " + path)
                if isinstance(test.graph_times, Exception):
                    raise test.graph_times
                return test.graph_times[path]
            return timer

        self.patches = [
            mock.patch.dict(sys.modules, {"torch": self.torch}),
            mock.patch.object(Kernel, "_call_fused", call_fused),
            mock.patch.object(kernel_mod, "build_unfused", build_unfused),
            mock.patch.object(kernel_mod, "event_timer", event_timer),
            mock.patch.object(kernel_mod, "graph_timer", graph_timer)]
        for p in self.patches:
            p.start()

    def tearDown(self):
        for p in reversed(self.patches):
            p.stop()
        shutil.rmtree(self.tmp)

    def args(self, m, **kw):
        t = self.torch
        return (FakeTorchTensor(0x10000000, (m, 128), t.bfloat16, **kw),
                FakeTorchTensor(0x20000000, (128, 256), t.bfloat16),
                FakeTorchTensor(0x30000000, (m, 256), t.float32))

    def call(self, kernel, m, stream=None, **kw):
        x, w, out = self.args(m, **kw)
        self.calls.clear()
        self.assertIs(kernel(x, w, out=out, stream=stream), out)
        return list(self.calls)

    def test_auto_times_once_per_bin(self):
        k = load(self.dir, fallback="auto")
        self.assertEqual(k.unfused_reason, None)
        self.assertIsNone(k.choice(64))
        # First call of bin 0: both timed eagerly (alternating rounds), then
        # both in graphs, then the faster (unfused) runs.
        self.assertEqual(self.call(k, 64),
                         [(p, 64) for p in eager_order(FUSED, UNFUSED)] +
                         [(FUSED, 64), (UNFUSED, 64), (UNFUSED, 64)])
        self.assertEqual((k.choice(64), k.choice(200)), (UNFUSED, UNFUSED))
        self.assertEqual(k.timings(64), {FUSED: 1.0, UNFUSED: 0.5,
                                         FUSED_GRAPH: 0.8,
                                         UNFUSED_GRAPH: 0.3})
        # Later calls of the bin, other M included, run it directly.
        self.assertEqual(self.call(k, 64), [(UNFUSED, 64)])
        self.assertEqual(self.call(k, 200), [(UNFUSED, 200)])
        # Bin 1 is measured on its own; there fused is faster.
        self.timer_times = {FUSED: 0.2, UNFUSED: 0.5}
        self.graph_times = {FUSED: 0.1, UNFUSED: 0.3}
        self.assertIsNone(k.choice(256))
        self.assertEqual(self.call(k, 256),
                         [(p, 256) for p in eager_order(FUSED, UNFUSED)] +
                         [(FUSED, 256), (UNFUSED, 256), (FUSED, 256)])
        self.assertEqual(self.call(k, 384), [(FUSED, 384)])
        self.assertEqual(self.timed, (eager_order(FUSED, UNFUSED) +
                                      ["graph fused", "graph unfused"]) * 2)
        self.assertIsNone(k.choice(5000))
        self.assertIsNone(k.choices(5000))

    def test_capture_runs_fused_without_timing(self):
        k = load(self.dir, fallback="auto")
        self.capturing[0] = True
        self.assertEqual(self.call(k, 64), [(FUSED, 64)])
        self.assertEqual(self.call(k, 64), [(FUSED, 64)])
        self.assertEqual(self.timed, [])
        self.assertIsNone(k.choice(64))
        self.capturing[0] = False
        self.call(k, 64)
        self.assertEqual(k.choice(64), UNFUSED)
        self.capturing[0] = True
        self.assertEqual(self.call(k, 64), [(UNFUSED, 64)])

    def test_capture_uses_the_graph_choice(self):
        k = load(self.dir, fallback="auto")
        # Bin 0: fused eagerly, unfused in a graph.
        self.timer_times = {FUSED: 0.030, UNFUSED: 0.060}
        self.graph_times = {FUSED: 0.0265, UNFUSED: 0.0145}
        # The deciding call ends with a real run of the eager choice.
        self.assertEqual(self.call(k, 64)[-1], (FUSED, 64))
        self.assertEqual(k.choices(64), {"eager": FUSED, "graph": UNFUSED})
        self.assertEqual((k.choice(64), k.choice(64, graph=True)),
                         (FUSED, UNFUSED))
        self.assertEqual(k.timings(64)[UNFUSED_GRAPH], 0.0145)
        self.capturing[0] = True
        self.assertEqual(self.call(k, 64), [(UNFUSED, 64)])
        self.assertEqual(self.call(k, 200), [(UNFUSED, 200)])  # same bin
        # The stream named by stream= is the one checked.
        self.assertEqual(self.call(k, 64, stream=self.torch.cuda.Stream()),
                         [(UNFUSED, 64)])
        self.capturing[0] = False
        self.assertEqual(self.call(k, 64), [(FUSED, 64)])
        self.assertEqual(self.call(k, 200), [(FUSED, 200)])
        # Bin 1 the other way round.
        self.timer_times = {FUSED: 0.9, UNFUSED: 0.5}
        self.graph_times = {FUSED: 0.4, UNFUSED: 0.5}
        self.assertEqual(self.call(k, 256)[-1], (UNFUSED, 256))
        self.assertEqual(k.choices(384), {"eager": UNFUSED, "graph": FUSED})
        self.capturing[0] = True
        self.assertEqual(self.call(k, 256), [(FUSED, 256)])
        self.capturing[0] = False
        self.assertEqual(self.call(k, 256), [(UNFUSED, 256)])
        self.assertEqual(len(self.timed), 16)   # 8 per bin, once

    def test_graphs_capture_on_the_current_stream(self):
        k = load(self.dir, fallback="auto")
        s = self.torch.cuda.Stream()
        self.call(k, 64, stream=s)
        # Timed eagerly on the call's stream, captured on the current one
        # (the capturing side stream), then run for real on the call's.
        self.assertEqual(self.streams, [s, s, s, None])
        self.assertEqual(self.timed, eager_order(FUSED, UNFUSED) +
                         ["graph fused", "graph unfused"])

    def test_failing_graph_timing_keeps_the_eager_choice(self):
        k = load(self.dir, fallback="auto")
        self.graph_times = RuntimeError("capture invalidated")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            calls = self.call(k, 64)
        self.assertIn("capture invalidated", str(w[0].message))
        self.assertEqual(calls[-1], (UNFUSED, 64))
        self.assertEqual(k.choices(64), {"eager": UNFUSED, "graph": UNFUSED})
        self.assertEqual(k.timings(64), {FUSED: 1.0, UNFUSED: 0.5,
                                         FUSED_GRAPH: None,
                                         UNFUSED_GRAPH: None})
        self.capturing[0] = True
        self.assertEqual(self.call(k, 64), [(UNFUSED, 64)])

    def test_never_and_always(self):
        never = load(self.dir)
        self.assertEqual(never.fallback, "never")
        self.assertEqual(self.call(never, 64), [(FUSED, 64)])
        self.assertEqual(never.choice(64), FUSED)
        self.assertEqual(never.choices(64), {"eager": FUSED, "graph": FUSED})
        always = load(self.dir, fallback="always")
        self.assertEqual(always.choice(64), UNFUSED)
        self.assertEqual(always.choice(64, graph=True), UNFUSED)
        self.assertEqual(self.call(always, 64), [(UNFUSED, 64)])
        self.assertEqual(self.call(always, 256), [(UNFUSED, 256)])
        self.assertEqual(self.timed, [])
        self.assertIsNone(always.timings(64))

    def test_bad_arguments_on_the_unfused_path(self):
        k = load(self.dir, fallback="always")
        self.call(k, 64)
        # The runtime's messages, whichever path runs.
        with self.assertRaisesRegex(ValidationError, "input 'x'.*contiguous"):
            self.call(k, 64, contiguous=False)
        x, w, out = self.args(64)
        with self.assertRaisesRegex(ValidationError, "output 'out'.*M = 32"):
            k(x, w, out=self.args(32)[2])
        with self.assertRaisesRegex(ValidationError, "multiple of 128"):
            self.call(k, 300)
        with self.assertRaisesRegex(ValidationError, "expected 2 inputs"):
            k(x, out=out)


BUILD = os.environ.get("FLASHFUSER_BUILD_DIR", os.path.join(
    os.path.dirname(__file__), "..", "..", "build"))
FF_OPT = os.path.join(BUILD, "bin", "ff-opt")


@unittest.skipUnless(os.access(FF_OPT, os.X_OK), "ff-opt not built")
class CompiledManifestTest(unittest.TestCase):
    """The manifests this build's compiler writes carry what chain_form
    needs; square weights (K = N = L) are told apart by "layout" alone."""

    def setUp(self):
        self.cache = tempfile.mkdtemp()
        self.env = mock.patch.dict(os.environ, {
            "FLASHFUSER_CACHE_DIR": self.cache, "FF_OPT": FF_OPT})
        self.env.start()
        os.environ.pop("FLASHFUSER_FF_OPT_ARGS", None)

    def tearDown(self):
        self.env.stop()
        shutil.rmtree(self.cache)

    def test_layouts_and_dtypes(self):
        from flashfuser import compile_bundle
        from flashfuser.bundle import verify_bundle
        square = {"kind": "ffn", "m": -1, "n": 256, "k": 256, "l": 256,
                  "activation": "relu"}
        cases = [
            (square, ("kn", "kn"), "bf16"),
            (dict(square, weight_layout="nk"), ("nk", "nk"), "bf16"),
            ({"kind": "gated_ffn", "m": 128, "n": 512, "k": 256, "l": 256,
              "activation": "silu", "weight_layout": "nk", "out_dtype": "f32"},
             ("nk", "nk", "nk"), "f32"),
        ]
        for spec, layouts, out_dtype in cases:
            f = chain_form(verify_bundle(compile_bundle(spec)))
            self.assertEqual((f.kind, f.activation, f.layouts, f.out_dtype),
                             (spec["kind"], spec["activation"], layouts,
                              out_dtype))


class LoadModeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_mode_errors_come_before_the_runtime(self):
        path = os.path.join(self.tmp, "b")
        write_bundle(path, manifest(kind="chain", inputs=[
            {"name": "x", "shape": [-1, 128], "dtype": "bf16"}]), FILES)
        with self.assertRaisesRegex(ValueError, "one of never, auto, always"):
            load(path, fallback="yes")
        with self.assertRaisesRegex(ValueError,
                                    "fallback='always' needs the chain's "
                                    "unfused form: chain kind 'chain'"):
            load(path, fallback="always")


if __name__ == "__main__":
    unittest.main()
