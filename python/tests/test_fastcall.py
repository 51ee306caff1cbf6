"""_ffrt_fastcall (lib/Runtime/PyFastCall.cpp), the per-call path in C,
without PyTorch or a GPU: a registered launch runs only when every argument's
shape, strides, dtype, device and pointer, the current device and stream
(and, for a graph, no capture and the runtime's epoch) are the registered
ones; anything else is a miss that launches nothing. Native targets are
ctypes callbacks standing in for ffrt_launch, ffrt_graph_launch and
ffrt_bundle_epoch, so the arguments the module passes them are checked."""

import collections
import ctypes
import unittest

from _util import runtime_available  # noqa: F401 (sets sys.path)
from flashfuser import _runtime

MOD = _runtime.fastcall_module() if runtime_available() else None

Device = collections.namedtuple("Device", "type index")
CUDA0, CUDA1 = Device("cuda", 0), Device("cuda", 1)


class Tensor:
    """What the module reads of a torch.Tensor."""

    def __init__(self, ptr, shape, dtype="bf16", strides=None,
                 device=CUDA0):
        self.ptr, self.shape, self.dtype, self.device = \
            ptr, tuple(shape), dtype, device
        self.strides = tuple(strides) if strides else \
            (shape[1], 1) if len(shape) == 2 else (1,)

    def data_ptr(self):
        return self.ptr

    def stride(self):
        return self.strides

    def layout(self):
        return (self.shape, self.strides, self.dtype, self.device)


class Stream:
    def __init__(self, handle):
        self.cuda_stream = handle


X, W, OUT, S = 0x1000, 0x2000, 0x3000, 0x77

LAUNCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_int, ctypes.c_void_p)
GRAPH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
EPOCH = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_void_p)
CAPTURING = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


@unittest.skipIf(MOD is None, "_ffrt_fastcall not built")
class FastCallTest(unittest.TestCase):
    def setUp(self):
        self.device, self.stream, self.capturing = 0, 0, False
        self.epoch = 5
        self.ran = []
        self.fast = MOD.FastCall(lambda: self.device,
                                 lambda d: self.stream + 100 * d,
                                 lambda: self.capturing,
                                 lambda: self.epoch)

    def args(self, x=X, m=128, **kw):
        return (Tensor(x, (m, 64), **kw), Tensor(W, (256, 64)),
                Tensor(OUT, (m, 256), "f32"))

    def target(self, name, rc=0):
        def go():
            self.ran.append(name)
            return rc
        return go

    def add_launch(self, args, token="L", stream=0, eager_ok=True, rc=0,
                   **kw):
        self.fast.add(token, tuple(t.layout() for t in args), None,
                      tuple(t.ptr for t in args), 0, stream,
                      self.target(token, rc), False, eager_ok, **kw)

    def add_graph(self, args, token="G", epoch_at=5, stream=0):
        self.fast.add(token, tuple(t.layout() for t in args), None,
                      tuple(t.ptr for t in args), 0, stream,
                      self.target(token), True, False, epoch_at)

    def call(self, args, stream=None):
        return self.fast(tuple(args[:-1]), args[-1], stream)

    def test_a_registered_launch_runs(self):
        a = self.args()
        self.add_launch(a)
        self.assertIs(self.call(a), a[-1])
        # Equal arguments in new objects match too.
        b = self.args()
        self.assertIs(self.call(b), b[-1])
        self.assertEqual(self.ran, ["L", "L"])
        self.assertEqual(self.fast.stats(),
                         {"hits": 2, "misses": 0, "entries": 1})

    def test_any_difference_is_a_miss(self):
        a = self.args()
        self.add_launch(a)
        for changed in (self.args(x=X + 16), self.args(m=256),
                        self.args(strides=(128, 1)),
                        self.args(dtype="f16"), self.args(device=CUDA1)):
            self.assertIsNone(self.call(changed))
        self.assertIsNone(self.fast((a[0],), a[2], None))  # an input short
        self.assertIsNone(self.fast(a[:2], None, None))    # out omitted
        self.assertIsNone(self.fast((a[0], object()), a[2], None))
        self.device = 1                # another current device
        self.assertIsNone(self.call(a))
        self.device, self.stream = 0, 3    # another current stream
        self.assertIsNone(self.call(a))
        self.assertEqual(self.ran, [])
        self.assertEqual(self.fast.stats()["misses"], 10)

    def test_streams(self):
        a = self.args()
        # A launch made for a given stream serves calls given that stream
        # (an int or an object with cuda_stream), never stream=None ones.
        self.add_launch(a, token="given", stream=S, eager_ok=False)
        self.assertIsNone(self.call(a))
        self.assertIs(self.call(a, S), a[-1])
        self.assertIs(self.call(a, Stream(S)), a[-1])
        self.assertIsNone(self.call(a, S + 1))
        self.assertIsNone(self.call(a, "not a stream"))
        self.assertEqual(self.ran, ["given", "given"])

    def test_graphs_replay_only_uncaptured_at_their_epoch(self):
        a = self.args()
        self.add_graph(a)
        self.assertIs(self.call(a), a[-1])
        self.assertIsNone(self.call(a, 0))     # a given stream: never
        self.capturing = True
        self.assertIsNone(self.call(a))
        self.capturing = False
        self.epoch = 6                         # the runtime freed a buffer
        self.assertIsNone(self.call(a))
        self.assertEqual(self.ran, ["G"])

    def test_newest_entry_wins(self):
        a = self.args()
        self.add_launch(a)
        self.add_graph(a)
        self.call(a)
        self.capturing = True                  # the graph steps aside
        self.call(a)
        self.assertEqual(self.ran, ["G", "L"])

    def test_out_allocated_per_call(self):
        made = []

        def alloc():
            made.append(Tensor(OUT, (128, 256), "f32"))
            return made[-1]
        x, w, _ = self.args()
        self.fast.add("A", (x.layout(), w.layout()), alloc, (X, W, OUT), 0, 0,
                      self.target("A"), False, True)
        self.assertIs(self.fast((x, w), None, None), made[0])
        self.assertIsNone(self.fast((x, w), made[0], None))  # out given
        # An allocation at another address misses (and is dropped).
        alloc_at = [OUT + 64]
        self.fast.add("B", (x.layout(), w.layout()),
                      lambda: Tensor(alloc_at[0], (128, 256), "f32"),
                      (X + 16, W, OUT), 0, 0, self.target("B"), False, True)
        self.assertIsNone(self.fast((Tensor(X + 16, (128, 64)), w), None,
                                    None))
        self.assertEqual(self.ran, ["A"])

    def test_a_failed_launch_returns_its_status(self):
        a = self.args()
        self.add_launch(a, rc=_runtime.ERROR_CUDA)
        self.assertEqual(self.call(a), _runtime.ERROR_CUDA)

    def test_discard_clear_and_replace(self):
        a = self.args()
        self.add_launch(a, token=("k", 1))
        self.add_launch(a, token=("k", 1))    # replaces
        self.assertEqual(len(self.fast), 1)
        self.add_graph(a, token=("g", 1))
        self.fast.discard(("k", 1))
        self.assertEqual(len(self.fast), 1)
        self.fast.clear()
        self.assertEqual(len(self.fast), 0)
        self.assertIsNone(self.call(a))

    def test_at_most_32_entries(self):
        for i in range(40):
            self.add_launch(self.args(x=X + 16 * i), token=i)
        self.assertEqual(len(self.fast), 32)
        self.assertIsNone(self.call(self.args(x=X)))
        b = self.args(x=X + 16 * 39)
        self.assertIs(self.call(b), b[-1])

    def test_hook_changing_the_entries_is_a_miss(self):
        a = self.args()
        self.add_launch(a)
        fast = self.fast

        def device():
            fast.clear()
            return 0
        self.fast = MOD.FastCall(device, lambda d: 0, lambda: False, None)
        fast = self.fast
        self.add_launch(a)
        self.assertIsNone(self.call(a))
        self.assertEqual(self.ran, [])

    def test_hook_errors_propagate(self):
        a = self.args()
        self.fast = MOD.FastCall(lambda: 1 / 0, lambda d: 0, lambda: False,
                                 None)
        self.add_launch(a)
        with self.assertRaises(ZeroDivisionError):
            self.call(a)

    def test_a_guard_checks_the_layouts(self):
        # A guard, where given, decides the layouts instead of the
        # registered ones (it sees every argument, out last); pointers,
        # device and stream are still compared, and no layout is read.
        a = self.args()
        seen, verdict = [], [True]

        def guard(*args):
            seen.append(args)
            return verdict[0]
        self.add_launch(a, guard=guard)
        self.assertIs(self.call(a), a[-1])
        self.assertEqual(seen, [a])
        # It is the layout check: a shape it accepts runs, a call it
        # refuses misses although its layouts are the registered ones.
        b = self.args(m=256)
        self.assertIs(self.call(b), b[-1])
        verdict[0] = False
        self.assertIsNone(self.call(a))
        verdict[0] = True
        self.assertIsNone(self.call(self.args(x=X + 16)))  # pointer
        self.device = 1
        self.assertIsNone(self.call(a))                    # device
        # Asked for every call whose pointers match (the device after it).
        self.assertEqual(len(seen), 4)
        self.assertEqual(self.ran, ["L", "L"])

        class NoLayout:
            """A tensor whose layout reads fail: only a guard can match."""
            def __init__(self, t):
                self.ptr = t.ptr

            def data_ptr(self):
                return self.ptr
        self.device = 0
        bare = tuple(NoLayout(t) for t in a)
        self.assertIs(self.call(bare), bare[-1])
        self.fast.clear()
        self.add_launch(a)                                 # no guard
        self.assertIsNone(self.call(bare))

    def test_guard_errors_propagate_and_bad_guards_are_refused(self):
        a = self.args()
        self.add_launch(a, guard=lambda *args: 1 / 0)
        with self.assertRaises(ZeroDivisionError):
            self.call(a)
        with self.assertRaisesRegex(TypeError, "guard must be callable"):
            self.add_launch(a, token="bad", guard=42)

    def test_native_capture_check(self):
        # ffrt_stream_capturing: asked with the current stream's handle, in
        # place of the Python hook; -1 (the driver cannot tell) is a miss.
        asked, answer = [], [0]

        def capturing(stream):
            asked.append(stream or 0)
            return answer[0]
        cb = CAPTURING(capturing)
        hook = []
        fast = MOD.FastCall(lambda: 0, lambda d: 0x40 + d,
                            lambda: hook.append(1) or False, lambda: 5,
                            stream_capturing=(
                                "ffrt_stream_capturing",
                                ctypes.cast(cb, ctypes.c_void_p).value))
        a = self.args()
        fast.add("G", tuple(t.layout() for t in a), None,
                 tuple(t.ptr for t in a), 0, 0x40, self.target("G"), True,
                 False, 5)
        call = lambda: fast(tuple(a[:-1]), a[-1], None)  # noqa: E731
        self.assertIs(call(), a[-1])
        for answer[0] in (1, -1):
            self.assertIsNone(call())
        self.assertEqual(asked, [0x40] * 3)
        self.assertEqual(hook, [])
        self.assertEqual(self.ran, ["G"])
        for bad in (("ffrt_stream_capturing", 0), ("other", 1), 5,
                    ("ffrt_stream_capturing",)):
            with self.assertRaises(ValueError):
                MOD.FastCall(lambda: 0, lambda d: 0, lambda: False, None,
                             stream_capturing=bad)

    def test_bad_registrations(self):
        a = self.args()
        lay = tuple(t.layout() for t in a)
        ptrs = tuple(t.ptr for t in a)
        go = self.target("x")
        for args, err in [
                (("t", lay, None, ptrs[:2], 0, 0, go), ValueError),
                (("t", (), None, (), 0, 0, go), ValueError),
                (("t", ((1, 2),), None, (X,), 0, 0, go), ValueError),
                (("t", lay, 5, ptrs + (OUT,), 0, 0, go), TypeError),
                (("t", lay, None, ptrs, 0, 0, 42), TypeError),
                (("t", lay, None, ptrs, 0, 0, ("nope", 1, None)),
                 TypeError)]:
            with self.assertRaises(err):
                self.fast.add(*args)
        nog = MOD.FastCall(lambda: 0, lambda d: 0, lambda: False, None)
        with self.assertRaisesRegex(ValueError, "need an epoch"):
            nog.add("g", lay, None, ptrs, 0, 0, go, True)
        with self.assertRaisesRegex(TypeError, "positionally"):
            self.fast(a[:2], out=a[2], stream=None)
        self.assertEqual(len(self.fast), 0)


@unittest.skipIf(MOD is None, "_ffrt_fastcall not built")
class NativeTargetTest(unittest.TestCase):
    """ffrt's entry points called directly with what Python bound."""

    def setUp(self):
        self.calls = []
        self.rc = 0

        def launch(bundle, args, nargs, stream):
            self.calls.append(("launch", bundle, args, nargs, stream))
            return self.rc

        def graph(g, stream):
            self.calls.append(("graph", g, stream))
            return self.rc

        def epoch(bundle):
            self.calls.append(("epoch", bundle))
            return 9
        self.cbs = LAUNCH(launch), GRAPH(graph), EPOCH(epoch)
        self.addr = [ctypes.cast(c, ctypes.c_void_p).value for c in self.cbs]
        self.bundle = ctypes.c_void_p(0xb0)
        self.fast = MOD.FastCall(
            lambda: 0, lambda d: 0, lambda: False,
            ("ffrt_bundle_epoch", self.addr[2], self.bundle))
        self.a = (Tensor(X, (128, 64)), Tensor(W, (256, 64)),
                  Tensor(OUT, (128, 256), "f32"))
        self.lay = tuple(t.layout() for t in self.a)
        self.ptrs = (X, W, OUT)

    def test_launch(self):
        arr = _runtime.tensor_array([_runtime.make_tensor(p, "bf16", (1, 1))
                                     for p in self.ptrs])
        self.fast.add("L", self.lay, None, self.ptrs, 0, S,
                      ("ffrt_launch", self.addr[0], self.bundle, arr, S),
                      False, False)
        self.assertIs(self.fast(self.a[:2], self.a[2], S), self.a[2])
        self.assertEqual(self.calls, [("launch", 0xb0, ctypes.addressof(arr),
                                       3, S)])
        self.rc = _runtime.ERROR_INVALID_ARGUMENT
        self.assertEqual(self.fast(self.a[:2], self.a[2], S),
                         _runtime.ERROR_INVALID_ARGUMENT)
        # A closed bundle (NULL) is a miss: nothing is called.
        self.bundle.value = None
        self.assertIsNone(self.fast(self.a[:2], self.a[2], S))
        self.assertEqual(len(self.calls), 2)

    def test_graph_reads_the_epoch(self):
        g = ctypes.c_void_p(0x9a)
        self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                      ("ffrt_graph_launch", self.addr[1], g, 0), True, False, 9)
        self.assertIs(self.fast(self.a[:2], self.a[2], None), self.a[2])
        self.assertEqual(self.calls, [("epoch", 0xb0), ("graph", 0x9a, None)])
        # Another epoch: a miss.
        self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                      ("ffrt_graph_launch", self.addr[1], g, 0), True, False, 8)
        self.assertIsNone(self.fast(self.a[:2], self.a[2], None))
        # A destroyed graph (NULL): a miss.
        self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                      ("ffrt_graph_launch", self.addr[1], g, 0), True, False, 9)
        g.value = None
        self.assertIsNone(self.fast(self.a[:2], self.a[2], None))
        self.assertEqual(len([c for c in self.calls if c[0] == "graph"]), 1)

    def test_targets_must_fit_the_entry(self):
        g = ctypes.c_void_p(0x9a)
        with self.assertRaisesRegex(ValueError, "does not fit"):
            self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                          ("ffrt_graph_launch", self.addr[1], g, 0), False)
        with self.assertRaisesRegex(ValueError, "null function"):
            self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                          ("ffrt_graph_launch", 0, g, 0), True)
        with self.assertRaisesRegex(ValueError, "unknown target"):
            self.fast.add("G", self.lay, None, self.ptrs, 0, 0,
                          ("ffrt_graph_launch", self.addr[1], g), True)

    def test_runtime_binds_native_targets(self):
        # What _runtime attaches to its callables is what the module takes.
        lib = _runtime.lib()
        arr = _runtime.tensor_array([_runtime.make_tensor(X, "bf16", (1, 1))])
        bundle = ctypes.c_void_p(None)
        h = _runtime.Handle.__new__(_runtime.Handle)
        h._lib, h._ptr = lib, bundle
        go = h.launcher(arr, S)
        self.assertEqual(_runtime.native(go)[:2],
                         ("ffrt_launch",
                          ctypes.cast(lib.ffrt_launch, ctypes.c_void_p).value))
        self.assertIs(_runtime.native(go)[2], bundle)
        self.fast.add("L", (self.lay[0],), None, (X,), 0, S,
                      _runtime.native(go), False, False)
        ep = h.epoch_reader()
        self.assertEqual(_runtime.native(ep)[0], "ffrt_bundle_epoch")
        MOD.FastCall(lambda: 0, lambda d: 0, lambda: False,
                     _runtime.native(ep))
        # A closed handle: the module calls nothing.
        self.assertIsNone(self.fast((), self.a[0], S))
        # A plain callable is its own target.
        f = lambda: 0  # noqa: E731
        self.assertIs(_runtime.native(f), f)


# DLPack's exchange API (dlpack.h 1.2+) in its ABI layout, for a stand-in
# producer whose "tensors" are DlTensor objects.
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


DL_FROM = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object,
                            ctypes.POINTER(DLTensor))
DL_STREAM = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32,
                              ctypes.POINTER(ctypes.c_void_p))
CURRENT_DEVICE = ctypes.CFUNCTYPE(ctypes.c_int)


class DLPackExchangeAPI(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("prev_api", ctypes.c_void_p),
                ("managed_tensor_allocator", ctypes.c_void_p),
                ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
                ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
                ("dltensor_from_py_object_no_sync", DL_FROM),
                ("current_work_stream", DL_STREAM)]


DL_CODES = {"bf16": (4, 16), "f16": (2, 16), "f32": (2, 32)}


class DlTensor(Tensor):
    """A Tensor the stand-in producer reads; data_ptr() and stride() count
    their calls (the DLPack path makes none)."""
    reads = 0

    def data_ptr(self):
        DlTensor.reads += 1
        return self.ptr

    def stride(self):
        DlTensor.reads += 1
        return self.strides


class OtherTensor(DlTensor):
    """A subclass the fast path does not read through DLPack."""


def capsule(api, name=b"dlpack_exchange_api"):
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(api), name, None)


@unittest.skipIf(MOD is None, "_ffrt_fastcall not built")
class DLPackTest(unittest.TestCase):
    """The fast path with DLPack's exchange API: pointers, layouts and the
    current stream read in C, the driver's current device, the guard only
    for arguments that are not the registered objects."""

    def setUp(self):
        self.device, self.stream = 0, 0x40
        self.refuse = False
        self.hooks, self.ran, self.guarded = [], [], []
        self.keep = []

        def from_py(obj, out):
            if self.refuse:     # a producer's failure (its exception
                return -1       # is cleared: ctypes cannot leave one set)
            t = out.contents
            t.data = obj.ptr
            t.device = DLDevice(2, obj.device.index)
            t.ndim = len(obj.shape)
            t.dtype = DLDataType(*DL_CODES[obj.dtype], 1)
            shape = (ctypes.c_int64 * len(obj.shape))(*obj.shape)
            strides = (ctypes.c_int64 * len(obj.shape))(*obj.strides)
            self.keep += [shape, strides]
            t.shape, t.strides = shape, strides
            t.byte_offset = 0
            return 0

        def work_stream(dev_type, dev, out):
            self.assertEqual(dev_type, 2)
            out[0] = self.stream + 100 * dev
            return 0

        self.api = DLPackExchangeAPI(1, 3, None, None, None, None,
                                     DL_FROM(from_py), DL_STREAM(work_stream))
        self.cur = CURRENT_DEVICE(lambda: self.device)
        self.fast = self.make()

    def make(self, **kw):
        def hook(name, value):
            def f(*a):
                self.hooks.append(name)
                return value(*a)
            return f
        kw.setdefault("dlpack", capsule(self.api))
        kw.setdefault("tensor_types", (DlTensor,))
        kw.setdefault("current_device", (
            "ffrt_current_device",
            ctypes.cast(self.cur, ctypes.c_void_p).value))
        return MOD.FastCall(hook("device", lambda: self.device),
                            hook("stream", lambda d: self.stream + 100 * d),
                            hook("capturing", lambda: False), lambda: 5,
                            **kw)

    def args(self, x=X, cls=DlTensor, **kw):
        return (cls(x, (128, 64), **kw), cls(W, (256, 64)),
                cls(OUT, (128, 256), "f32"))

    def guard(self, verdict=True):
        def g(*args):
            self.guarded.append(len(args))
            return verdict
        return g

    def add(self, a, graph=True, guard=None, exemplars=True, fast=None):
        def go():
            self.ran.append("G")
        (fast or self.fast).add(
            "G", tuple(t.layout() for t in a), None, tuple(t.ptr for t in a),
            0, self.stream, go, graph, not graph, 5, guard=guard,
            exemplars=a if exemplars else None)

    def call(self, a, fast=None):
        return (fast or self.fast)(tuple(a[:-1]), a[-1], None)

    def test_registered_objects_run_without_python_reads(self):
        a = self.args()
        self.add(a, guard=self.guard())
        DlTensor.reads = 0
        self.assertIs(self.call(a), a[-1])
        self.assertIs(self.call(a), a[-1])
        # No data_ptr()/stride(), no guard, no device or stream hook.
        self.assertEqual((DlTensor.reads, self.guarded, self.hooks),
                         (0, [], ["capturing"] * 2))
        self.assertEqual(self.ran, ["G", "G"])

    def test_changes_of_the_registered_objects_are_misses(self):
        a = self.args()
        self.add(a)
        for field, value in (("ptr", X + 16), ("shape", (256, 64)),
                             ("strides", (128, 1)), ("dtype", "f16"),
                             ("device", CUDA1)):
            old = getattr(a[0], field)
            setattr(a[0], field, value)
            self.assertIsNone(self.call(a), field)
            setattr(a[0], field, old)
        self.assertIs(self.call(a), a[-1])
        self.assertEqual(self.ran, ["G"])

    def test_other_objects_pass_the_guard_first(self):
        a = self.args()
        self.add(a, guard=self.guard())
        b = self.args()             # equal, other objects
        self.assertIs(self.call(b), b[-1])
        self.assertEqual(self.guarded, [3])
        # A guard that refuses them (PyTorch's negative bit, say): a miss.
        fast = self.make()
        self.add(a, guard=self.guard(False), fast=fast)
        self.assertIsNone(self.call(b, fast))
        self.assertIs(self.call(a, fast), a[-1])
        self.assertEqual(self.ran, ["G", "G"])

    def test_current_stream_and_device_from_c(self):
        a = self.args()
        self.add(a)
        self.stream = 0x50          # PyTorch's current stream changed
        self.assertIsNone(self.call(a))
        self.stream, self.device = 0x40, 1
        self.assertIsNone(self.call(a))
        # No current context (-1): PyTorch's hook answers.
        self.device = -1
        self.assertIsNone(self.call(a))
        self.assertIn("device", self.hooks)
        self.assertEqual(self.ran, [])

    def test_unread_arguments_take_the_python_checks(self):
        # Another type, or a producer that refuses: data_ptr() and the
        # registered layout decide, and nothing leaks.
        a = self.args(cls=OtherTensor)
        self.add(a)
        DlTensor.reads = 0
        self.assertIs(self.call(a), a[-1])
        self.assertGreater(DlTensor.reads, 0)
        b = self.args()
        self.add(b)
        self.refuse = True
        self.assertIs(self.call(b), b[-1])
        self.refuse = False
        self.assertEqual(self.ran, ["G", "G"])

    def test_entries_without_exemplars(self):
        a = self.args()
        self.add(a, exemplars=False, guard=self.guard())
        self.assertIs(self.call(a), a[-1])
        self.assertEqual(self.guarded, [3])
        with self.assertRaises(ValueError):
            self.fast.add("G", tuple(t.layout() for t in a), None,
                          tuple(t.ptr for t in a), 0, self.stream, print,
                          True, False, 5, exemplars=a[:2])

    def test_bad_apis(self):
        with self.assertRaises(ValueError):
            self.make(dlpack=capsule(self.api, b"other"))
        old = DLPackExchangeAPI(1, 1, None, None, None, None,
                                self.api.dltensor_from_py_object_no_sync,
                                self.api.current_work_stream)
        with self.assertRaises(ValueError):
            self.make(dlpack=capsule(old))
        with self.assertRaises(TypeError):
            self.make(tensor_types=None)
        with self.assertRaises(TypeError):
            self.make(tensor_types=(1,))
        with self.assertRaises(ValueError):
            self.make(current_device=("ffrt_stream_capturing", 1))


if __name__ == "__main__":
    unittest.main()
