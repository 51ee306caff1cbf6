"""Kernel's cached per-call path without PyTorch or a GPU: a repeated call
reuses its prebuilt ctypes arguments (or bound unfused chain), a changed
pointer, shape, stride or stream is reflected, and a new argument gets the
same checks and messages as on a fresh Kernel.

A stand-in torch module and tensors (as test_fallback.py); launches go to
ffrt_validate instead of ffrt_launch, so the runtime's own argument checks
still run (needs libffrt.so)."""

import collections
import contextlib
import ctypes
import os
import shutil
import sys
import tempfile
import types
import unittest
import warnings
from unittest import mock

from _util import FakeTensor, eager_order, runtime_available
from flashfuser import Kernel, ValidationError, load, write_bundle
from flashfuser import _runtime
from flashfuser import kernel as kernel_mod
from flashfuser.fallback import FUSED, FUSED_GRAPH, UNFUSED, UNFUSED_GRAPH
from test_bundle import FILES, manifest
from test_fallback import FakeDtype

Device = collections.namedtuple("Device", "type index")
CUDA0, CUDA1, CPU = Device("cuda", 0), Device("cuda", 1), Device("cpu", None)


class Tensor:
    """What Kernel reads of a torch.Tensor (hashable device, like
    torch.device)."""

    def __init__(self, ptr, shape, dtype, strides=None, device=CUDA0):
        self.ptr, self.shape, self.dtype = ptr, tuple(shape), dtype
        self.device = device
        self.is_cuda = device.type == "cuda"
        s, st = 1, []
        for d in reversed(self.shape):
            st.append(s)
            s *= d
        self.contiguous_strides = tuple(reversed(st))
        self.strides = tuple(strides or self.contiguous_strides)

    def data_ptr(self):
        return self.ptr

    def stride(self):
        return self.strides

    def is_contiguous(self):
        return self.strides == self.contiguous_strides

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def element_size(self):
        return 4 if self.dtype.name in ("float32", "int32") else 2


class FakeTorch:
    """A torch module stand-in that records device switches, stream
    contexts and allocations."""

    def __init__(self):
        t = self.module = types.ModuleType("torch")
        t.bfloat16, t.float16, t.float32 = (
            FakeDtype("bfloat16"), FakeDtype("float16"), FakeDtype("float32"))
        t.int32 = FakeDtype("int32")
        self.current_device = 0
        self.current_stream = 0
        self.capturing = False
        self.switches = []          # device indices entered
        self.next_ptr = 0x70000000
        fake = self

        class Stream:
            def __init__(self, handle=0):
                self.cuda_stream = handle

        class ExternalStream(Stream):
            def __init__(self, handle, device=None):
                super().__init__(handle)

        @contextlib.contextmanager
        def device(d):
            index = d if isinstance(d, int) else d.index
            fake.switches.append(index)
            before, fake.current_device = fake.current_device, index
            try:
                yield
            finally:
                fake.current_device = before

        def empty(shape, dtype=None, device=None):
            ptr = fake.next_ptr
            fake.next_ptr += 0x1000000
            return Tensor(ptr, shape, dtype, device=device)

        t.empty = empty
        t.cuda = types.SimpleNamespace(
            Stream=Stream, ExternalStream=ExternalStream,
            current_device=lambda: fake.current_device,
            current_stream=lambda device=None: Stream(fake.current_stream),
            default_stream=lambda device=None: Stream(0),
            stream=lambda s: contextlib.nullcontext(),
            device=device,
            is_current_stream_capturing=lambda: fake.capturing)


CAPTURING = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
CURRENT_DEVICE = ctypes.CFUNCTYPE(ctypes.c_int)


class Recorder:
    """Counts the uncached path's steps and records every launch."""

    def __init__(self, test):
        self.make_tensor = 0
        self.describe = 0
        self.launchers = 0          # bound launches built
        self.launches = []          # (pointers, stream) per launch
        self.captures = []          # (pointers, stream) per runtime capture
        self.replays = []           # capture index per runtime replay
        self.replay_rc = 0          # what a replay returns
        self.capture_queries = []   # stream handles the C path asked about
        real_make, real_describe = _runtime.make_tensor, \
            kernel_mod.describe_tensor
        rec = self

        def stream_capturing(stream):
            # ffrt_stream_capturing's stand-in: the fake's capture state,
            # which (as its torch hook's) holds for every stream.
            rec.capture_queries.append(stream or 0)
            return int(test.fake.capturing)
        self._capturing = CAPTURING(stream_capturing)
        capturing_fn = ("ffrt_stream_capturing",
                        ctypes.cast(self._capturing, ctypes.c_void_p).value)
        # ffrt_current_device's stand-in: the fake's current device (the
        # real one answers the GPU machine's context, not the fake's).
        self._current = CURRENT_DEVICE(lambda: test.fake.current_device)
        current_fn = ("ffrt_current_device",
                      ctypes.cast(self._current, ctypes.c_void_p).value)

        def make_tensor(*a, **kw):
            rec.make_tensor += 1
            return real_make(*a, **kw)

        def describe_tensor(t):
            rec.describe += 1
            return real_describe(t)

        def launcher(handle, arr, stream=0):
            rec.launchers += 1
            lib = _runtime.lib()

            def go():
                rec.launches.append((tuple(t.data for t in arr), stream))
                # The runtime's checks, as ffrt_launch makes them (without
                # the driver's pointer queries).
                return lib.ffrt_validate(handle._ptr, arr, len(arr), 0, None)
            return go

        def capture(handle, arr, stream=0):
            # ffrt_graph_capture records without running; replay() returns
            # ffrt's status like a launcher.
            rec.captures.append((tuple(t.data for t in arr), stream))
            n = len(rec.captures)
            return types.SimpleNamespace(
                replay=lambda: rec.replays.append(n) or rec.replay_rc)

        self.patches = [
            mock.patch.object(_runtime, "make_tensor", make_tensor),
            mock.patch.object(kernel_mod, "describe_tensor", describe_tensor),
            mock.patch.object(_runtime.Handle, "launcher", launcher),
            mock.patch.object(_runtime.Handle, "capture", capture),
            mock.patch.object(_runtime, "stream_capturing",
                              lambda: capturing_fn),
            mock.patch.object(_runtime, "current_device",
                              lambda: current_fn)]

    def counts(self):
        return self.make_tensor, self.launchers, len(self.launches)


X, W, OUT = 0x10000000, 0x20000000, 0x30000000
SIDE = 0x5eed                       # the graph timer's side stream


@unittest.skipUnless(runtime_available(), "libffrt.so not built")
class Case(unittest.TestCase):
    """manifest(): a gemm x [M, 128] (bf16) · w [128, 256] -> out [M, 256]
    (f32), bins [1, 255] and [256, 4096] (a multiple of 128)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, "b")
        write_bundle(self.dir, manifest(), FILES)
        self.fake = FakeTorch()
        self.torch = self.fake.module
        self.rec = Recorder(self)
        self.patches = [mock.patch.dict(sys.modules, {"torch": self.torch})]
        self.patches += self.rec.patches
        for p in self.patches:
            p.start()

    def tearDown(self):
        for p in reversed(self.patches):
            p.stop()
        shutil.rmtree(self.tmp)

    def args(self, m=128, x=X, w=W, out=OUT, **kw):
        t = self.torch
        return (Tensor(x, (m, 128), kw.get("x_dtype", t.bfloat16),
                       strides=kw.get("x_strides"),
                       device=kw.get("x_device", CUDA0)),
                Tensor(w, kw.get("w_shape", (128, 256)), t.bfloat16),
                Tensor(out, (kw.get("out_m", m), 256), t.float32))

    def error(self, kernel, args, **kw):
        """The ValidationError message of kernel(*inputs, out=out)."""
        *inputs, out = args
        with self.assertRaises(ValidationError) as cm:
            kernel(*inputs, out=out, **kw)
        return str(cm.exception)


class FusedCacheTest(Case):
    def test_repeated_call_reuses_the_arguments(self):
        k = load(self.dir)
        x, w, out = self.args()
        self.assertIs(k(x, w, out=out), out)
        self.assertEqual(self.rec.counts(), (3, 1, 1))
        self.assertEqual(self.rec.describe, 3)
        for _ in range(5):
            self.assertIs(k(x, w, out=out), out)
        # Nothing described or built again: the bound launch is reused.
        self.assertEqual(self.rec.counts(), (3, 1, 6))
        self.assertEqual(self.rec.describe, 3)
        self.assertEqual(set(self.rec.launches), {((X, W, OUT), 0)})
        # Equal arguments in new objects hit the same entry.
        k(*self.args()[:2], out=self.args()[2])
        self.assertEqual(self.rec.counts(), (3, 1, 7))
        self.assertEqual(self.fake.switches, [0])     # the first call only

    def test_changed_pointer(self):
        k = load(self.dir)
        x, w, out = self.args()
        k(x, w, out=out)
        x2 = self.args(x=X + 0x100000)[0]
        k(x2, w, out=out)
        # The known layout's arguments with the new pointer: no describe,
        # no make_tensor, one new bound launch.
        self.assertEqual(self.rec.counts(), (3, 2, 2))
        self.assertEqual(self.rec.launches[-1], ((X + 0x100000, W, OUT), 0))
        # Back to the first pointer: its launch, unchanged, is reused.
        k(x, w, out=out)
        self.assertEqual(self.rec.counts(), (3, 2, 3))
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0))
        out2 = self.args(out=OUT + 0x100000)[2]
        k(x2, w, out=out2)
        self.assertEqual(self.rec.launches[-1],
                         ((X + 0x100000, W, OUT + 0x100000), 0))
        self.assertEqual(self.rec.counts(), (3, 3, 4))

    def test_changed_shape_is_described_again(self):
        k = load(self.dir)
        k(*self.args(128)[:2], out=self.args(128)[2])
        k(*self.args(256)[:2], out=self.args(256)[2])
        self.assertEqual(self.rec.counts(), (6, 2, 2))
        k(*self.args(256)[:2], out=self.args(256)[2])
        k(*self.args(128)[:2], out=self.args(128)[2])
        self.assertEqual(self.rec.counts(), (6, 2, 4))

    def test_changed_stride_is_checked_again(self):
        k = load(self.dir)
        k(*self.args()[:2], out=self.args()[2])
        bad = self.args(x_strides=(256, 1))
        message = self.error(k, bad)
        self.assertIn("input 'x': not contiguous row-major", message)
        self.assertEqual(message, self.error(load(self.dir), bad))
        # A failed launch leaves nothing cached: it fails the same way again.
        before = self.rec.make_tensor
        self.assertEqual(self.error(k, bad), message)
        self.assertEqual(self.rec.make_tensor, before + 3)

    def test_changed_stream(self):
        k = load(self.dir)
        x, w, out = self.args()
        k(x, w, out=out)
        k(x, w, out=out, stream=0x1234)
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0x1234))
        k(x, w, out=out, stream=self.torch.cuda.Stream(0x5678))
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0x5678))
        # PyTorch's current stream is read at every call.
        self.fake.current_stream = 0x9abc
        k(x, w, out=out)
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0x9abc))
        self.assertEqual(self.rec.counts(), (3, 4, 4))
        k(x, w, out=out, stream=0x1234)
        self.assertEqual(self.rec.counts(), (3, 4, 5))

    def test_new_arguments_get_the_same_errors(self):
        t = self.torch
        warm = load(self.dir)
        warm(*self.args()[:2], out=self.args()[2])
        warm(*self.args(256)[:2], out=self.args(256)[2])
        cases = [
            (self.args(x_dtype=t.float16), "input 'x': dtype f16 does not "
                                           "match the bundle's bf16"),
            (self.args(x_dtype=t.int32), "argument 'x': unsupported tensor "
                                         "dtype torch.int32"),
            (self.args(x_device=CPU), "argument 'x': tensor is on"),
            (self.args(w_shape=(128, 512)), "input 'w': dimension 1 is 512"),
            (self.args(out_m=64), "output 'out': M = 64 is inconsistent"),
            (self.args(w=W + 8), "input 'w': data pointer 0x20000008 is not "
                                 "16-byte aligned"),
            (self.args(out=X), "output 'out' overlaps input 'x'"),
            (self.args(300), "M = 300 is not a multiple of 128"),
            (self.args(5000), "outside every kernel's M bin"),
        ]
        for args, expected in cases:
            message = self.error(warm, args)
            self.assertIn(expected, message)
            self.assertEqual(message, self.error(load(self.dir), args))
        x, w, out = self.args()
        with self.assertRaisesRegex(ValidationError, "expected 2 inputs"):
            warm(x, out=out)
        with self.assertRaisesRegex(ValidationError, "expected 2 inputs"):
            warm(x, w, out)         # out passed as an input
        # The valid layouts still run from the cache.
        before = self.rec.make_tensor
        warm(x, w, out=out)
        self.assertEqual(self.rec.make_tensor, before)

    def test_allocated_out(self):
        k = load(self.dir)
        x, w, _ = self.args()
        a = k(x, w)
        b = k(x, w)
        self.assertIsNot(a, b)
        self.assertEqual((b.shape, b.dtype, b.device),
                         ((128, 256), self.torch.float32, CUDA0))
        self.assertEqual(self.rec.make_tensor, 3)
        self.assertEqual(self.rec.launches[-1][0], (X, W, b.ptr))
        self.assertEqual(len(self.rec.launches), 2)

    def test_device_switch_only_when_needed(self):
        k = load(self.dir)
        x, w, out = self.args()
        k(x, w, out=out)
        k(x, w, out=out)
        self.assertEqual(self.fake.switches, [0])
        self.fake.current_device = 1
        k(x, w, out=out)
        self.assertEqual(self.fake.switches, [0, 0])
        self.assertEqual(self.fake.current_device, 1)

    def test_cuda_array_interface_arguments(self):
        k = load(self.dir)
        args = [FakeTensor(X, (128, 128)), FakeTensor(W, (128, 256)),
                FakeTensor(OUT, (128, 256), typestr="<f4")]
        k(*args[:2], out=args[2])
        k(*args[:2], out=args[2])
        self.assertEqual(self.rec.counts(), (3, 1, 2))
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0))
        byte_strides = FakeTensor(X, (128, 128), strides=(256, 2))
        k(byte_strides, args[1], out=args[2])
        self.assertEqual(self.rec.counts(), (6, 2, 3))
        bad = FakeTensor(X, (128, 128), strides=(512, 2))
        self.assertIn("input 'x': not contiguous row-major",
                      self.error(k, (bad, *args[1:])))
        self.assertEqual(self.fake.switches, [])

    def test_clear_cache(self):
        k = load(self.dir)
        x, w, out = self.args()
        k(x, w, out=out)
        k.clear_cache()
        k(x, w, out=out)
        self.assertEqual(self.rec.counts(), (6, 2, 2))


class UnfusedCase(Case):
    """A stand-in unfused chain recording its binds and runs, fake timers
    and a counted capture check."""

    def setUp(self):
        super().setUp()
        self.binds, self.runs, self.checks = [], [], 0
        test = self

        def build_unfused(form):
            def run(x, w, out):
                run.bind(w)(x, out)

            def bind(w):
                test.binds.append(w.ptr)

                def run_w(x, out):
                    test.runs.append((x.ptr, w.ptr, out.ptr))
                return run_w
            run.bind = bind
            return run

        real_check = Kernel._unfused_args_ok

        def check(kernel, args, m):
            test.checks += 1
            return real_check(kernel, args, m)

        def event_timer(stream):
            def timer(fn, warmup, reps):
                for _ in range(3):
                    fn()
                return test.times.pop(0)
            return timer

        def graph_timer(stream):
            # A warm-up run, then the "capture" on the side stream.
            def timer(fn, warmup, reps):
                before = fake.current_stream
                fake.current_stream = SIDE
                try:
                    fn()
                    fake.capturing = True
                    fn()
                finally:
                    fake.current_stream = before
                    fake.capturing = False
                t = test.graph_times.pop(0)
                if isinstance(t, Exception):
                    raise t
                return t
            return timer

        fake = self.fake
        self.times, self.graph_times = [], []
        self.capture_checks = 0
        real_cap = fake.module.cuda.is_current_stream_capturing

        def is_capturing():
            test.capture_checks += 1
            return real_cap()
        fake.module.cuda.is_current_stream_capturing = is_capturing
        more = [mock.patch.object(kernel_mod, "build_unfused", build_unfused),
                mock.patch.object(Kernel, "_unfused_args_ok", check),
                mock.patch.object(kernel_mod, "event_timer", event_timer),
                mock.patch.object(kernel_mod, "graph_timer", graph_timer)]
        for p in more:
            p.start()
        self.patches += more



class UnfusedCacheTest(UnfusedCase):
    def test_always_binds_once_per_weight_set(self):
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        for _ in range(4):
            self.assertIs(k(x, w, out=out), out)
        self.assertEqual((len(self.binds), self.checks, len(self.runs)),
                         (1, 1, 4))
        self.assertEqual(self.rec.launches, [])
        # New x and out pointers: the same bound chain.
        x2, _, out2 = self.args(x=X + 0x100000, out=OUT + 0x100000)
        k(x2, w, out=out2)
        self.assertEqual((len(self.binds), self.checks), (1, 1))
        self.assertEqual(self.runs[-1], (X + 0x100000, W, OUT + 0x100000))
        # A new weight: bound again (its layout was checked already).
        w2 = self.args(w=W + 0x100000)[1]
        k(x, w2, out=out)
        self.assertEqual((self.binds, self.checks), ([W, W + 0x100000], 1))
        # A new M: checked again.
        k(*self.args(256)[:2], out=self.args(256)[2])
        self.assertEqual(self.checks, 2)
        # runtime validation once per M (Kernel.validate in _decide): 2 x 3.
        self.assertEqual(self.rec.make_tensor, 6)

    def test_always_new_arguments_get_the_same_errors(self):
        t = self.torch
        warm = load(self.dir, fallback="always")
        warm(*self.args()[:2], out=self.args()[2])
        for args, expected in [
                (self.args(x_strides=(256, 1)), "input 'x': not contiguous"),
                (self.args(out_m=64), "output 'out': M = 64"),
                (self.args(x_dtype=t.float16), "input 'x': dtype f16")]:
            message = self.error(warm, args)
            self.assertIn(expected, message)
            self.assertEqual(message,
                             self.error(load(self.dir, fallback="always"),
                                        args))

    def test_always_allocated_out_and_stream(self):
        k = load(self.dir, fallback="always")
        x, w, _ = self.args()
        a, b = k(x, w), k(x, w)
        self.assertIsNot(a, b)
        self.assertEqual(self.runs[-1], (X, W, b.ptr))
        k(x, w, stream=0x1234)
        k(x, w, stream=0x1234)
        # One bind per (weights, stream); one check for the layout.
        self.assertEqual((len(self.binds), self.checks), (2, 1))

    def test_auto_times_cached_paths_then_runs_them(self):
        k = load(self.dir, fallback="auto")
        x, w, out = self.args(128)
        self.times = eager_order(2.0, 1.0)         # bin 0: unfused faster
        self.graph_times = [0.5, 0.25]  # in graphs too
        k(x, w, out=out)
        self.assertEqual(k.choice(128), UNFUSED)
        # Timing: three rounds of three runs per path; each path's first
        # run took the uncached path, the others the cached one; the graph
        # timer's two runs per path took the cached one (the fused launch
        # bound again for the side stream); then the call itself ran
        # unfused, checked.
        self.assertEqual(len(self.rec.launches), 11)
        self.assertEqual(self.rec.launchers, 2)
        self.assertEqual([s for _, s in self.rec.launches],
                         [0] * 9 + [SIDE, SIDE])
        self.assertEqual((len(self.binds), len(self.runs)), (1, 12))
        self.assertEqual(self.checks, 2)
        # Kernel.validate in _decide and the first fused launch.
        self.assertEqual(self.rec.make_tensor, 6)
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual((self.rec.make_tensor, self.checks, len(self.binds),
                          len(self.runs), len(self.rec.launches)),
                         (6, 2, 1, 15, 11))
        # Both choices agree: the cached path makes no capture check.
        self.assertEqual(self.capture_checks, 1)    # _decide's
        # Bin 1: fused faster; from then on the fused launch is reused.
        x, w, out = self.args(256)
        self.times = eager_order(1.0, 2.0)
        self.graph_times = [0.5, 0.75]
        k(x, w, out=out)
        self.assertEqual(k.choice(256), FUSED)
        launches, made = len(self.rec.launches), self.rec.make_tensor
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual(len(self.rec.launches), launches + 3)
        self.assertEqual(self.rec.make_tensor, made)
        self.assertEqual(k.timings(256), {FUSED: 1.0, UNFUSED: 2.0,
                                          FUSED_GRAPH: 0.5,
                                          UNFUSED_GRAPH: 0.75})
        self.assertEqual(self.capture_checks, 2)

    def test_auto_graph_choice_on_the_cached_path(self):
        k = load(self.dir, fallback="auto")
        x, w, out = self.args(128)
        self.times = eager_order(1.0, 2.0)         # fused eagerly
        self.graph_times = [0.5, 0.25]  # unfused in a graph
        k(x, w, out=out)
        self.assertEqual(k.choices(128), {"eager": FUSED, "graph": UNFUSED})
        # The deciding call's last act: the eager choice, run for real.
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0))
        launches, runs = len(self.rec.launches), len(self.runs)
        checks, made = self.checks, self.rec.make_tensor
        # Eager calls: the cached fused launch, one capture check each.
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual((len(self.rec.launches), len(self.runs)),
                         (launches + 3, runs))
        self.assertEqual(self.capture_checks, 1 + 3)
        # Under capture: the unfused chain; its layout check ran in the
        # timing already, and the bound chain is reused.
        self.fake.capturing = True
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual((len(self.rec.launches), len(self.runs)),
                         (launches + 3, runs + 3))
        self.assertEqual(self.runs[-1], (X, W, OUT))
        self.assertEqual(len(self.binds), 1)
        # The first captured call took the checked path (the layout's
        # graph path was not yet known), the next ones the cached path.
        self.assertEqual(self.checks, checks + 1)
        self.assertEqual(self.rec.make_tensor, made)
        self.fake.capturing = False
        k(x, w, out=out)
        self.assertEqual(len(self.rec.launches), launches + 4)
        # A new out pointer, captured: the same bound chain.
        self.fake.capturing = True
        out2 = self.args(out=OUT + 0x100000)[2]
        k(x, w, out=out2)
        self.assertEqual(self.runs[-1], (X, W, OUT + 0x100000))
        self.assertEqual(self.checks, checks + 1)

    def test_auto_graph_choice_with_stream_and_allocated_out(self):
        k = load(self.dir, fallback="auto")
        x, w, _ = self.args(128)
        self.times = eager_order(2.0, 1.0)         # unfused eagerly
        self.graph_times = [0.25, 0.5]  # fused in a graph
        k(x, w, stream=0x1234)
        self.assertEqual(k.choices(128), {"eager": UNFUSED, "graph": FUSED})
        # Timed eagerly on stream=, captured on the current stream.
        self.assertEqual([s for _, s in self.rec.launches],
                         [0x1234] * 9 + [SIDE] * 2)
        self.fake.capturing = True
        a = k(x, w, stream=0x1234)
        b = k(x, w, stream=0x1234)
        self.assertIsNot(a, b)
        self.assertEqual(self.rec.launches[-1], ((X, W, b.ptr), 0x1234))
        runs = len(self.runs)
        self.fake.capturing = False
        c = k(x, w, stream=0x1234)
        self.assertEqual(self.runs[-1], (X, W, c.ptr))
        self.assertEqual(len(self.runs), runs + 1)

    def test_auto_failing_graph_timing(self):
        k = load(self.dir, fallback="auto")
        x, w, out = self.args(128)
        self.times = eager_order(2.0, 1.0)
        self.graph_times = [RuntimeError("capture invalidated")]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.assertIs(k(x, w, out=out), out)
        self.assertIn("capture invalidated", str(caught[0].message))
        self.assertEqual(k.choices(128), {"eager": UNFUSED,
                                          "graph": UNFUSED})
        self.assertEqual(self.runs[-1], (X, W, OUT))
        runs = len(self.runs)
        self.fake.capturing = True
        k(x, w, out=out)
        self.assertEqual(len(self.runs), runs + 1)

    def test_auto_undecided_capture_is_not_cached(self):
        k = load(self.dir, fallback="auto")
        x, w, out = self.args()
        self.fake.capturing = True
        k(x, w, out=out)
        k(x, w, out=out)
        self.assertIsNone(k.choice(128))
        self.assertEqual(len(self.rec.launches), 2)
        self.fake.capturing = False
        self.times = eager_order(2.0, 1.0)
        self.graph_times = [2.0, 1.0]
        k(x, w, out=out)
        self.assertEqual(k.choice(128), UNFUSED)
        runs = len(self.runs)
        k(x, w, out=out)
        self.assertEqual(len(self.runs), runs + 1)


@unittest.skipUnless(runtime_available(), "libffrt.so not built")
class RuntimeLauncherTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, "b")
        write_bundle(self.dir, manifest(), FILES)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_with_pointers_copies(self):
        arr = _runtime.tensor_array([
            _runtime.make_tensor(X, "bf16", (128, 128)),
            _runtime.make_tensor(W, "bf16", (128, 256), (256, 1))])
        copy = _runtime.with_pointers(arr, (X + 16, W + 32))
        self.assertEqual([t.data for t in arr], [X, W])
        self.assertEqual([t.data for t in copy], [X + 16, W + 32])
        self.assertEqual([(t.dtype, t.ndim, t.has_strides, list(t.shape[:2]),
                           list(t.strides[:2])) for t in copy],
                         [(t.dtype, t.ndim, t.has_strides, list(t.shape[:2]),
                           list(t.strides[:2])) for t in arr])
        self.assertEqual(copy[1].dtype, b"bf16")

    def test_closed_handle_launchers_fail_cleanly(self):
        h = _runtime.Handle(self.dir)
        arr = _runtime.tensor_array([
            _runtime.make_tensor(X, "bf16", (128, 128)),
            _runtime.make_tensor(W, "bf16", (128, 256)),
            _runtime.make_tensor(OUT, "f32", (128, 256))])
        go = h.launcher(arr, 0)
        h.close()
        self.assertEqual(go(), _runtime.ERROR_INVALID_ARGUMENT)
        self.assertEqual(_runtime.last_error(), "null bundle")
        self.assertIsInstance(arr, ctypes.Array)


if __name__ == "__main__":
    unittest.main()


class GraphTest(UnfusedCase):
    """Eager calls from CUDA graphs, over a stand-in torch.cuda with
    CUDAGraph: unfused runs are recorded as (x, w, out), fused launches as
    (pointers, stream), and whether each ran captured."""

    def setUp(self):
        super().setUp()
        fake, test = self.fake, self
        self.graph_log = []         # ("capture" | "replay", graph id)
        self.fail_capture = False
        cuda = fake.module.cuda

        class Stream:
            def __init__(self, handle=0, device=None):
                self.cuda_stream, self.device = handle, device

            def wait_stream(self, other):
                pass

        class CUDAGraph:
            count = 0

            def capture_begin(self, pool=None, capture_error_mode=None):
                CUDAGraph.count += 1
                self.id, self.pool = CUDAGraph.count, pool
                test.assertEqual(capture_error_mode, "thread_local")
                fake.capturing = True

            def capture_end(self):
                fake.capturing = False
                if test.fail_capture:
                    raise RuntimeError("operation not permitted when "
                                       "stream is capturing")
                test.graph_log.append(("capture", self.id))

            def replay(self):
                test.graph_log.append(("replay", self.id))

        cuda.Stream, cuda.CUDAGraph = Stream, CUDAGraph
        cuda.current_stream = lambda device=None: Stream(
            fake.current_stream, CUDA0)
        cuda.graph_pool_handle = lambda: ("pool", len(self.graph_log))

    def how(self):
        """The runs so far as 'eager' or 'captured'."""
        return ["captured" if c else "eager" for c in self.captured]

    def test_repeated_arguments_replay_one_graph(self):
        self.captured = []
        real = self.runs.append
        self.runs = types.SimpleNamespace(
            append=lambda r: (real(r), self.captured.append(
                self.fake.capturing)))
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        for _ in range(6):
            self.assertIs(k(x, w, out=out), out)
        # The first call fills the caches; the cached path's third call of
        # the set runs once uncaptured (its result) and once into the graph;
        # the rest replay it.
        self.assertEqual(self.how(), ["eager"] * 4 + ["captured"])
        self.assertEqual(self.graph_log, [("capture", 1)] +
                         [("replay", 1)] * 2)
        # Another out pointer is another argument set, counted afresh.
        out2 = self.args(out=OUT + 0x100000)[2]
        for _ in range(3):
            k(x, w, out=out2)
        self.assertEqual(self.how()[5:], ["eager"] * 3 + ["captured"])
        self.assertEqual(self.graph_log[-1], ("capture", 2))
        # Both graphs share the stream's pool.
        self.assertEqual([n for _, n in k._graph_pools.values()], [2])
        k(x, w, out=out)
        self.assertEqual(self.graph_log[-1], ("replay", 1))
        # A call while the caller captures a graph runs into it, unreplayed.
        self.fake.capturing = True
        k(x, w, out=out)
        self.fake.capturing = False
        self.assertEqual(self.how()[-1], "captured")
        self.assertEqual(self.graph_log[-1], ("replay", 1))
        # stream= keeps the chain eager; clear_cache forgets the graphs.
        for _ in range(4):
            k(x, w, out=out, stream=0x1234)
        self.assertEqual(self.graph_log[-1], ("replay", 1))
        k.clear_cache()
        self.assertEqual(k._graph_pools, {})
        k(x, w, out=out)
        self.assertEqual(self.how()[-1], "eager")
        self.assertEqual(self.graph_log[-1], ("replay", 1))

    def test_the_last_graph_of_a_pool_takes_the_pool_along(self):
        # PyTorch frees a private pool with its last graph; a capture into
        # the freed pool's handle fails, so a new one is made.
        handles = []
        self.fake.module.cuda.graph_pool_handle = \
            lambda: handles.append(len(handles)) or ("pool", len(handles))
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        out2 = self.args(out=OUT + 0x100000)[2]
        with mock.patch.object(kernel_mod, "_MAX_GRAPHS", 1):
            for _ in range(4):
                k(x, w, out=out)
            self.assertEqual(k._graph_pools, {0: [("pool", 1), 1]})
            # On another stream, out2's graph (its stream's own pool)
            # evicts out's, the last graph in stream 0's pool.
            self.fake.current_stream = 7
            for _ in range(4):
                k(x, w, out=out2)
        self.assertEqual(self.graph_log[-2:], [("capture", 2), ("replay", 2)])
        self.assertEqual(len(k._graphs), 1)
        self.assertEqual(k._graph_pools, {7: [("pool", 2), 1]})
        # Back on stream 0: a new pool for the new graph.
        self.fake.current_stream = 0
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual(k._graph_pools[0], [("pool", 3), 1])

    def test_failed_capture_runs_eagerly_from_then_on(self):
        self.fail_capture = True
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(5):
                k(x, w, out=out)
        self.assertEqual(len(caught), 1)
        self.assertIn("capturing the unfused path into a CUDA graph failed",
                      str(caught[0].message))
        self.assertEqual(self.graph_log, [])
        # 3 eager, the capture's warm-up (the call's result) and its
        # attempt, 1 eager.
        self.assertEqual(len(self.runs), 6)

    def test_sets_that_stay_eager_take_no_graph_place(self):
        # A set whose capture failed is marked in the count table: with one
        # graph place, it does not evict the live graph of another set.
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        out2 = self.args(out=OUT + 0x100000)[2]
        with mock.patch.object(kernel_mod, "_MAX_GRAPHS", 1), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(5):
                k(x, w, out=out)
            self.assertEqual(self.graph_log, [("capture", 1), ("replay", 1)])
            self.fail_capture = True
            for _ in range(5):
                k(x, w, out=out2)
            self.fail_capture = False
            k(x, w, out=out)
            k(x, w, out=out2)
        self.assertEqual(self.graph_log, [("capture", 1)] + [("replay", 1)] * 2)
        self.assertEqual(len(k._graphs), 1)
        self.assertIn(kernel_mod._EAGER, k._graph_counts.values())

    def six_fused_calls(self):
        """(kernel, its runtime epoch [value], x, w, out) after six fused
        calls with one argument set."""
        epoch = [7]
        k = load(self.dir)
        k._epoch = lambda: epoch[0]
        x, w, out = self.args()
        for _ in range(6):
            self.assertIs(k(x, w, out=out), out)
        return k, epoch, x, w, out

    def test_fused_launches_replay_runtime_graphs(self):
        # The runtime records the launch itself (ffrt_graph_capture) and a
        # replay is its ffrt_graph_launch: no PyTorch graph.
        k, epoch, x, w, out = self.six_fused_calls()
        # The first call checks and launches, two cached launches, the
        # capture's call launches (its result) and the runtime records the
        # same launch on stream 0; two replays.
        self.assertEqual(len(self.rec.launches), 4)
        self.assertEqual(self.rec.captures, [((X, W, OUT), 0)])
        self.assertEqual(self.rec.replays, [1, 1])
        self.assertEqual(self.graph_log, [])
        # A freed runtime buffer retires the graph; the set is counted
        # afresh and captured again.
        epoch[0] += 1
        for _ in range(4):
            k(x, w, out=out)
        self.assertEqual(len(self.rec.captures), 2)
        self.assertEqual(self.rec.replays, [1, 1, 2])
        # A failed replay raises like a failed launch.
        self.rec.replay_rc = _runtime.ERROR_CUDA
        with self.assertRaises(_runtime.FFRTError):
            k(x, w, out=out)

    def test_fused_launches_replay_until_the_runtime_frees_a_buffer(self):
        # An older library without ffrt_graph_capture: PyTorch's graphs.
        self.patches.append(
            mock.patch.object(_runtime.Handle, "can_capture", False))
        self.patches[-1].start()
        captured = []
        real = self.rec.launches.append
        self.rec.launches = types.SimpleNamespace(
            append=lambda r: (real(r), captured.append(self.fake.capturing)))
        k, epoch, x, w, out = self.six_fused_calls()
        # The first call checks and launches, two cached launches, then the
        # capture's uncaptured launch (the call's result) and the captured
        # one; two replays.
        self.assertEqual(captured, [False] * 4 + [True])
        self.assertEqual(self.graph_log, [("capture", 1)] +
                         [("replay", 1)] * 2)
        # The runtime freed a buffer (a grown workspace, flushed tensor
        # maps): the graph is dropped and the set counted afresh.
        epoch[0] += 1
        for _ in range(3):
            k(x, w, out=out)
        self.assertEqual(captured[5:], [False] * 3 + [True])
        self.assertEqual(self.graph_log[-1], ("capture", 2))
        k(x, w, out=out)
        self.assertEqual(self.graph_log[-1], ("replay", 2))
        # Calls under the caller's capture launch into it.
        self.fake.capturing = True
        k(x, w, out=out)
        self.fake.capturing = False
        self.assertEqual(captured[-1], True)
        self.assertEqual(self.graph_log[-1], ("replay", 2))
        # Without the runtime's epoch (an older library) fused calls stay
        # eager.
        k2 = load(self.dir)
        k2._epoch = None
        n = len(captured)
        for _ in range(5):
            k2(x, w, out=out)
        self.assertEqual(captured[n:], [False] * 5)

    def test_large_intermediates_stay_eager(self):
        # 3 x M x N elements of x's dtype: 3 * 128 * 256 * 2 bytes here.
        k = load(self.dir, fallback="always")
        x, w, out = self.args()
        with mock.patch.object(kernel_mod, "_MAX_UNFUSED_GRAPH_BYTES",
                               3 * 128 * 256 * 2 - 1), \
                warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(6):
                k(x, w, out=out)
        self.assertEqual((self.graph_log, len(self.runs)), ([], 6))
        # Marked eager in the count table, not in the graphs' places.
        self.assertEqual(k._graphs, {})
        self.assertEqual(list(k._graph_counts.values()), [kernel_mod._EAGER])
        k2 = load(self.dir, fallback="always")
        with mock.patch.object(kernel_mod, "_MAX_UNFUSED_GRAPH_BYTES",
                               3 * 128 * 256 * 2):
            for _ in range(4):
                k2(x, w, out=out)
        self.assertEqual(self.graph_log, [("capture", 1)])

    def test_off_when_asked(self):
        k = load(self.dir, fallback="always", graphs=False)
        x, w, out = self.args()
        for _ in range(5):
            k(x, w, out=out)
        self.assertEqual((self.graph_log, len(self.runs)), ([], 5))


class FastPathTest(GraphTest):
    """The registered launches run from _ffrt_fastcall: steady calls skip
    Kernel._cached entirely, and every change of the arguments, the stream
    or the runtime's epoch goes back through it."""

    def setUp(self):
        # Before the patches start: a skip raised in setUp runs no tearDown.
        if _runtime.fastcall_module() is None:
            self.skipTest("_ffrt_fastcall not built")
        super().setUp()
        self.cached = 0
        real = Kernel._cached
        test = self

        def counted(*a, **kw):
            test.cached += 1
            return real(*a, **kw)
        self.patches.append(mock.patch.object(Kernel, "_cached", counted))
        self.patches[-1].start()

    def test_graph_replays_skip_the_python_path(self):
        k, epoch, x, w, out = self.six_fused_calls()
        # Calls 1-4 took _cached (a miss, two launches, the capture); 5 and
        # 6 were replayed from C.
        self.assertEqual(self.cached, 4)
        self.assertEqual(k._fast.stats()["hits"], 2)
        self.assertEqual(self.rec.replays, [1, 1])
        # A freed buffer: the replay misses, _cached drops the graph (and
        # its registration), counts afresh and captures again.
        epoch[0] += 1
        for _ in range(4):
            k(x, w, out=out)
        self.assertEqual(self.cached, 7)
        self.assertEqual(len(self.rec.captures), 2)
        self.assertEqual(self.rec.replays, [1, 1, 2])
        self.assertEqual(len(k._fast), 1)
        # Another pointer misses in C and takes _cached.
        x2 = self.args(x=X + 0x100000)[0]
        k(x2, w, out=out)
        self.assertEqual(self.cached, 8)
        self.assertEqual(self.rec.launches[-1], ((X + 0x100000, W, OUT), 0))
        k.clear_cache()
        self.assertEqual(len(k._fast), 0)

    def test_layouts_checked_by_pytorchs_tensor_guard(self):
        # Where PyTorch has dynamo's TensorGuards, a registered launch
        # checks its arguments' layouts with one (made from the registering
        # call's tensors) instead of reading them; a guard that refuses
        # sends the call back through _cached.
        made, checks, verdict = [], [], [True]
        test = self

        class TensorGuards:
            def __init__(self, *tensors, dynamic_dims_sizes=None,
                         dynamic_dims_strides=None):
                test.assertIsNone(dynamic_dims_sizes)
                test.assertIsNone(dynamic_dims_strides)
                made.append([t.ptr for t in tensors])

            def check(self, *tensors):
                checks.append(len(tensors))
                return verdict[0]
        self.torch.Tensor = Tensor
        self.torch._C = types.SimpleNamespace(_dynamo=types.SimpleNamespace(
            guards=types.SimpleNamespace(TensorGuards=TensorGuards)))
        k, epoch, x, w, out = self.six_fused_calls()
        self.assertEqual(self.cached, 4)
        self.assertEqual(made, [[X, W, OUT]])
        # The guard's own check when made, then one per call from C.
        self.assertEqual(checks, [3, 3, 3])
        self.assertEqual(self.rec.replays, [1, 1])
        verdict[0] = False
        k(x, w, out=out)
        self.assertEqual(self.cached, 5)
        # A guard that refuses the tensors it was made from is not used:
        # the launch registers without one and still runs from C.
        k.clear_cache()
        made.clear()
        for _ in range(6):
            k(x, w, out=out)
        self.assertEqual(len(made), 1)
        self.assertEqual(k._fast.stats()["hits"], 4)

    def test_given_stream_launches_from_c(self):
        k = load(self.dir)
        x, w, out = self.args()
        for _ in range(5):
            k(x, w, out=out, stream=0x51)
        # The first call misses and checks, the second registers, three
        # run from C.
        self.assertEqual(self.cached, 2)
        self.assertEqual(self.rec.launches, [((X, W, OUT), 0x51)] * 5)
        self.assertEqual(self.rec.captures, [])
        # On PyTorch's current stream the graph path counts as before.
        for _ in range(5):
            k(x, w, out=out)
        self.assertEqual(self.rec.captures, [((X, W, OUT), 0)])
        self.assertEqual(self.rec.replays, [1, 1])

    def test_graphs_off_launches_from_c(self):
        k = load(self.dir, graphs=False)
        x, w, out = self.args()
        for _ in range(4):
            k(x, w, out=out)
        self.assertEqual((self.cached, len(self.rec.launches)), (2, 4))
        self.assertEqual(k._fast.stats()["hits"], 2)

    def test_capture_takes_the_python_path(self):
        k, epoch, x, w, out = self.six_fused_calls()
        # The C path asked the runtime's capture check about the current
        # stream before each replay, not PyTorch's hook.
        self.assertEqual(self.rec.capture_queries, [0, 0])
        self.fake.capturing = True
        k(x, w, out=out)
        # Launched into the caller's capture, not replayed.
        self.assertEqual(self.cached, 5)
        self.assertEqual(self.rec.launches[-1], ((X, W, OUT), 0))
        self.assertEqual(self.rec.replays, [1, 1])

    def test_native_capture_check_asks_about_the_call_stream(self):
        self.fake.current_stream = 0x5a
        k, epoch, x, w, out = self.six_fused_calls()
        self.assertEqual(self.rec.replays, [1, 1])
        self.assertEqual(self.rec.capture_queries, [0x5a, 0x5a])
        # Where the runtime lacks the call, PyTorch's hook answers.
        with mock.patch.object(_runtime, "stream_capturing", lambda: None):
            k2, _, _, _, _ = self.six_fused_calls()
        self.assertEqual(k2._fast.stats()["hits"], 2)
        self.assertEqual(len(self.rec.capture_queries), 2)
        self.fake.capturing = True
        k2(x, w, out=out)
        self.assertEqual(k2._fast.stats()["hits"], 2)

    def test_kernel_call_in_c(self):
        # Kernel.__call__ becomes the module's KernelCall: the same calls,
        # replayed from C without the Python __call__'s frame.
        import inspect
        k, epoch, x, w, out = self.six_fused_calls()
        call = Kernel.__dict__["__call__"]
        self.assertIs(type(call), _runtime.fastcall_module().KernelCall)
        self.assertEqual(list(inspect.signature(call).parameters),
                         ["self", "inputs", "out", "stream"])
        self.assertEqual(k._fast.stats()["hits"], 2)
        self.assertIs(k.__call__(x, w, out=out), out)     # bound, as before
        self.assertIs(k(x, w, out=out, stream=None), out)
        self.assertEqual(k._fast.stats()["hits"], 4)
        # What the Python __call__ refuses, it still refuses.
        with self.assertRaises(TypeError):
            k(x, w, out=out, streams=0)
        with self.assertRaises(TypeError):
            Kernel.__call__()
        # A failed replay from C raises like a failed launch.
        self.rec.replay_rc = _runtime.ERROR_CUDA
        with self.assertRaises(_runtime.FFRTError):
            k(x, w, out=out)
        self.assertEqual(self.cached, 4)

    def test_allocated_out(self):
        k = load(self.dir)
        x, w, _ = self.args()
        outs = [k(x, w) for _ in range(6)]
        # Every call gets its own output; the graph, captured for the
        # fourth call's, replays only while the allocator hands back that
        # address (never here: the stand-in allocator never reuses one).
        self.assertEqual(len({o.ptr for o in outs}), 6)
        self.assertEqual(self.rec.replays, [])


class _NoFastCall:
    """Runs a test case's tests without _ffrt_fastcall: the pure-Python
    path."""

    def setUp(self):
        super().setUp()
        p = mock.patch.object(_runtime, "fastcall_module", lambda: None)
        p.start()
        self.patches.append(p)


class PythonPathTest(_NoFastCall, FusedCacheTest):
    """FusedCacheTest on the pure-Python path."""

    def test_no_fast_path(self):
        k = load(self.dir)
        k(*self.args()[:2], out=self.args()[2])
        self.assertIsNone(k._fast)


class PythonPathGraphTest(_NoFastCall, GraphTest):
    """GraphTest on the pure-Python path."""
