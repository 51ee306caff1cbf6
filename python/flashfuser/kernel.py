"""A loaded bundle as a callable over GPU tensors."""

from __future__ import annotations

import functools
import os
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _runtime
from .bundle import BundleError, select_kernel, verify_bundle
from .fallback import (FUSED, MODES, UNFUSED, ChainForm, Dispatcher,
                       FallbackUnavailable, _capture_begin, build_unfused,
                       chain_form, event_timer, graph_timer)

# Element sizes and dtype names across PyTorch and __cuda_array_interface__.
_TORCH_DTYPES = {"torch.bfloat16": "bf16", "torch.float16": "f16",
                 "torch.float32": "f32"}
_TYPESTRS = {"<f4": "f32", "<f2": "f16", "<V2": "bf16", "|V2": "bf16",
             "bf16": "bf16"}
_SIZES = {"bf16": 2, "f16": 2, "f32": 4}


class ValidationError(ValueError):
    """A launch argument does not match the bundle (names the argument)."""


def describe_tensor(t: Any):
    """(data pointer, dtype name, shape, strides in elements or None, device
    ordinal or None) of a PyTorch tensor or any object with
    __cuda_array_interface__."""
    if hasattr(t, "data_ptr") and hasattr(t, "stride") and \
            hasattr(t, "dtype"):
        dtype = _TORCH_DTYPES.get(str(t.dtype))
        if dtype is None:
            raise ValidationError(f"unsupported tensor dtype {t.dtype} "
                                  f"(expected bfloat16, float16, float32)")
        dev = getattr(t, "device", None)
        if dev is not None and getattr(dev, "type", "cuda") != "cuda":
            raise ValidationError(f"tensor is on {dev}, not on a CUDA device")
        is_neg = getattr(t, "is_neg", None)
        if is_neg is not None and is_neg():
            # A lazy negation view: its memory holds the unnegated values.
            raise ValidationError("tensor has PyTorch's negative bit set "
                                  "(a lazy negation view): pass "
                                  "t.resolve_neg()")
        return (int(t.data_ptr()), dtype, tuple(t.shape), tuple(t.stride()),
                getattr(dev, "index", None))
    cai = getattr(t, "__cuda_array_interface__", None)
    if cai is None:
        raise ValidationError(
            f"{type(t).__name__} is neither a torch.Tensor nor an object with "
            f"__cuda_array_interface__")
    dtype = _TYPESTRS.get(cai.get("typestr"))
    if dtype is None:
        raise ValidationError(f"unsupported typestr {cai.get('typestr')!r} "
                              f"(expected <f4, <f2, or <V2 for bf16)")
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is not None:
        size = _SIZES[dtype]
        if any(s % size for s in strides):
            raise ValidationError(f"byte strides {tuple(strides)} are not "
                                  f"multiples of the element size {size}")
        strides = tuple(s // size for s in strides)
    return int(cai["data"][0]), dtype, shape, strides, None


def _signature(args: Sequence[Any]):
    """(layout, pointers) of a call's tensors, the key of its cached launch
    path: per tensor, (shape, strides, dtype, device) of a torch tensor or
    (typestr, shape, byte strides) of a __cuda_array_interface__ object, and
    the data pointers. Everything describe_tensor checks is a function of
    the layout, and the runtime checks the pointers at every launch. None
    when the arguments cannot be keyed (mixed kinds, unhashable fields):
    such calls always take the uncached path.

    Kernel._cached inlines the torch branch; the two must agree."""
    try:
        lay = tuple([(t.shape, t.stride(), t.dtype, t.device) for t in args])
        ptrs = tuple([t.data_ptr() for t in args])
    except AttributeError:
        return _cai_signature(args)
    try:
        hash(lay)
    except TypeError:
        return None
    return lay, ptrs


def _cai_signature(args: Sequence[Any]):
    """_signature's __cuda_array_interface__ branch (None unless every
    argument is such an object and no torch-like one)."""
    lay, ptrs = [], []
    try:
        for t in args:
            if hasattr(t, "data_ptr"):
                return None         # describe_tensor reads it as torch's
            cai = t.__cuda_array_interface__
            strides = cai.get("strides")
            lay.append((cai.get("typestr"), tuple(cai["shape"]),
                        None if strides is None else tuple(strides)))
            ptrs.append(cai["data"][0])
        lay = tuple(lay)
        hash(lay)
    except (AttributeError, KeyError, TypeError, IndexError):
        return None
    return lay, tuple(ptrs)


def _torch_hooks(torch) -> Tuple[Callable[[], int], Callable[[int], int]]:
    """(current device index, current stream handle of a device index): the
    cheapest calls this PyTorch has (the C bindings torch.cuda's own
    functions wrap; inductor's generated code uses the second)."""
    C = getattr(torch, "_C", None)
    cur = getattr(C, "_cuda_getDevice", None)
    if cur is None:
        def cur():
            return torch.cuda.current_device()
    raw = getattr(C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        def raw(index):
            return int(torch.cuda.current_stream(index).cuda_stream)
    return cur, raw


def _capture_hook(torch) -> Callable[[], bool]:
    """Whether PyTorch's current stream is capturing a CUDA graph: the C
    binding torch.cuda.is_current_stream_capturing wraps, where it exists."""
    cap = getattr(getattr(torch, "_C", None),
                  "_cuda_isCurrentStreamCapturing", None)
    if cap is None:
        def cap():
            return torch.cuda.is_current_stream_capturing()
    return cap


def _tensor_guards(torch):
    """PyTorch's C++ check of tensor layouts (dynamo's TensorGuards), or
    None where this PyTorch has none."""
    try:
        return torch._C._dynamo.guards.TensorGuards
    except AttributeError:
        pass
    try:
        from torch._C._dynamo.guards import TensorGuards
        return TensorGuards
    except Exception:  # noqa: BLE001 (an internal API: any failure, none)
        return None


def _install_kernel_call(mod):
    """Kernel.__call__ = mod.KernelCall (once): Kernel's call in C, falling
    back to the Python __call__ (its __wrapped__) and _call_missed."""
    kc = getattr(mod, "KernelCall", None)
    current = Kernel.__dict__["__call__"]
    if kc is None or isinstance(current, kc):
        return
    Kernel.__call__ = kc(current, Kernel._call_missed)


def _dlpack_api(torch):
    """PyTorch's DLPack C exchange API (the capsule
    torch.Tensor.__dlpack_c_exchange_api__, PyTorch 2.10+), through which
    the fast path reads tensors' pointers and layouts and the current
    stream in C; None where this PyTorch has none."""
    return getattr(getattr(torch, "Tensor", None),
                   "__dlpack_c_exchange_api__", None)


def _dlpack_types(torch):
    """The tensor types the fast path reads through _dlpack_api: plain
    tensors and parameters (subclasses keep the checks in Python)."""
    nn = getattr(torch, "nn", None)
    param = getattr(nn, "Parameter", None) if nn is not None else None
    return tuple(t for t in (torch.Tensor, param) if isinstance(t, type))


def _tensor_guard(guards, tensor_type, args):
    """guard(*args) -> whether tensors have the layouts `args` have now
    (dtype, device, sizes and strides, as the fast path's layout key; also
    requires_grad and dispatch keys, which only make it stricter), checked
    in C++ by `guards` (_tensor_guards): a fraction of what reading the key
    costs the fast path (docs/runtime.md, "The cached call in C"). None
    without `guards`, for arguments that are not `tensor_type`, and where
    the guard does not accept the very tensors it was made from (it
    refuses one tensor passed twice)."""
    if guards is None or tensor_type is None or \
            not all(isinstance(t, tensor_type) for t in args):
        return None
    try:
        # No dynamic dimensions: every size and stride is compared.
        check = guards(*args, dynamic_dims_sizes=None,
                       dynamic_dims_strides=None).check
        return check if check(*args) is True else None
    except Exception:  # noqa: BLE001 (an internal API: any failure, none)
        return None


def _put(cache: dict, key, value, limit: int):
    """cache[key] = value, dropping the oldest entries beyond `limit`."""
    while len(cache) >= limit:
        try:
            cache.pop(next(iter(cache)), None)
        except (StopIteration, RuntimeError):   # emptied by another thread
            break
    cache[key] = value


def _capture_failed(path: str, exc: Exception) -> None:
    """Warns that `path`'s calls with these arguments now run eagerly; None,
    the graph _capture could not make."""
    warnings.warn(f"flashfuser: capturing the {path} path into a CUDA graph "
                  f"failed ({exc}); its calls with these arguments run "
                  f"eagerly")


class _FusedLaunch:
    """body() of a fused launch for Kernel._capture: its ffrt_tensor array
    (which the runtime's own capture takes) and the launch on the current
    stream, raising on failure."""

    def __init__(self, kernel, arr, dev):
        self.kernel, self.arr, self.dev = kernel, arr, dev

    def __call__(self):
        k = self.kernel
        rc = k._handle.launcher(self.arr, k._raw_stream(self.dev))()
        if rc:
            k._launch_failed(rc)


class _Entry:
    """What a call with one argument layout (and out given, or allocated
    from `alloc`) needs on its cached path."""
    __slots__ = ("dev", "alloc", "tmpl", "ptrs", "unfused_ok", "path",
                 "gpath", "lay", "alloc_fn")

    def __init__(self, dev, alloc, lay=None):
        self.dev = dev              # CUDA device index of x (torch), or None
        self.alloc = alloc          # (shape, torch dtype, device) or None
        self.lay = lay              # the layout key (the fast path's too)
        self.alloc_fn = None        # () -> out, for the fast path
        self.tmpl = None            # ffrt_tensor array of a fused launch
        self.ptrs = None            # the data pointers in tmpl
        self.unfused_ok = False     # the unfused chain's check passed
        self.path = None            # the decided eager path, once decided
        self.gpath = None           # the decided path under graph capture


# Cache sizes (per Kernel, oldest dropped first). Layouts and fused launches
# hold only integers; unfused runners hold views of the weights, which keeps
# those weights allocated until dropped (Kernel.clear_cache).
_MAX_LAYOUTS = 64
_MAX_LAUNCHES = 256
_MAX_RUNNERS = 8
# Eager calls replayed from CUDA graphs: a graph per argument set seen
# _GRAPH_AFTER times on the cached path, at most _MAX_GRAPHS of them (the
# unfused chains' intermediates live in one memory pool per stream), and
# the call counts of at most _MAX_GRAPH_COUNTS sets not yet captured, where
# _EAGER marks a set that stays eager (its capture failed, or its chain is
# not worth a graph) without taking one of the graphs' places.
_GRAPH_AFTER = 3
_MAX_GRAPHS = 8
_MAX_GRAPH_COUNTS = 256
_EAGER = -1
# An unfused chain whose intermediates would hold more than this in a
# graph's pool stays eager: its GPU time dwarfs the host launches a graph
# saves, and the pool's memory would be kept from every other allocation.
_MAX_UNFUSED_GRAPH_BYTES = 64 << 20


def _stream_handle(stream) -> int:
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    if hasattr(stream, "cuda_stream"):
        return int(stream.cuda_stream)
    raise TypeError(f"cannot use {type(stream).__name__} as a CUDA stream")


class Kernel:
    """A bundle loaded with the runtime: ``kernel(x, w1, w2, out=None,
    stream=None)`` launches it on CUDA tensors and returns ``out``.

    Arguments are the chain's inputs in manifest order; ``out`` (allocated
    with PyTorch when omitted) must match the manifest's output. Every
    argument is validated by the runtime before anything is launched. The
    Python side's own checks and the ctypes arguments are made once per
    argument layout and cached (``clear_cache()``); docs/runtime.md, "Per
    call".

    ``fallback`` picks between the fused kernel and the same chain as plain
    PyTorch ops (flashfuser.fallback): "never" (default) always launches the
    fused kernel; "always" runs the unfused chain; "auto" times both on the
    first call whose M falls in each kernel's M bin, both as eager calls
    and as CUDA graph replays, and from then on runs the faster eager path,
    or while a CUDA graph is being captured the faster graph path
    (``choice(m)``, ``choice(m, graph=True)``, ``choices(m)``,
    ``timings(m)``). docs/runtime.md, "Fallback".

    ``graphs`` (default True): an eager call on PyTorch's current stream
    whose arguments (data pointers included) took the cached path twice
    before captures what it runs, the fused launch or the unfused chain,
    into a CUDA graph and from then on replays it: one host launch, none
    of the launch path's checks (docs/runtime.md, "Eager calls from CUDA
    graphs")."""

    def __init__(self, path: str, verify: bool = True,
                 fallback: str = "never", graphs: bool = True):
        if fallback not in MODES:
            raise ValueError(f"fallback must be one of {', '.join(MODES)}, "
                             f"got {fallback!r}")
        self.path = os.path.abspath(path)
        self.manifest = verify_bundle(self.path) if verify else None
        if self.manifest is None:
            from .bundle import read_bundle
            self.manifest = read_bundle(self.path)[0]
        try:
            self._form: Optional[ChainForm] = chain_form(self.manifest)
            #: Why the chain has no unfused form (None when it has one).
            self.unfused_reason: Optional[str] = None
        except FallbackUnavailable as e:
            self._form, self.unfused_reason = None, str(e)
        if fallback == "always" and self._form is None:
            raise FallbackUnavailable(
                f"bundle {self.path}: fallback='always' needs the chain's "
                f"unfused form: {self.unfused_reason}")
        self.fallback = fallback
        self._dispatcher = None if fallback == "never" else \
            Dispatcher(fallback)
        try:
            self._handle = _runtime.Handle(self.path, verify_hash=verify)
        except _runtime.FFRTError as e:
            raise BundleError(str(e)) from e
        chain = self.manifest["chain"]
        self.inputs: List[dict] = chain["inputs"]
        self.outputs: List[dict] = chain["outputs"]
        # How a call's M is read: the leading extent when dynamic (-1).
        self._dynamic_m = self.inputs[0]["shape"][0] == -1
        self._static_m = chain["m"]
        self._unfused = None        # built on first use (needs PyTorch)
        # M -> decided (eager path, path under graph capture)
        self._by_m: Dict[int, Tuple[str, str]] = {}
        self._expect: Dict[int, list] = {}  # M -> [(shape, torch dtype)]
        self._n_in = len(self.inputs)
        # The steady-state path (_cached): argument layout -> _Entry;
        # (entry, pointers, stream) -> bound ffrt_launch; (entry, weight
        # pointers, stream) -> unfused runner. docs/runtime.md, "Per call".
        self._layouts: Dict[Any, _Entry] = {}
        self._launches: Dict[Any, Callable[[], int]] = {}
        self._runners: Dict[Any, Callable] = {}
        self._torch = None          # set with the first torch call
        self._cur_dev = self._raw_stream = self._is_capturing = None
        self._guards = None
        # _cached's registered launches, run in C (_use_torch makes it).
        self._fast = None
        # Eager calls from CUDA graphs, keyed by (path, entry, pointers...,
        # stream handle): calls so far (_EAGER: stays eager), and (graph,
        # runtime epoch at capture, its pool's stream); per stream a side
        # stream and [unfused graphs' pool, graphs in it].
        self.graphs = graphs
        self._graphs_ok = False     # this PyTorch has CUDA graphs
        # The runtime's count of freed buffers (fused graphs need it).
        self._epoch = self._handle.epoch_reader()
        self._graph_counts: Dict[Any, int] = {}
        self._graphs: Dict[Any, Any] = {}
        self._graph_pools: Dict[int, Any] = {}
        self._graph_sides: Dict[int, Any] = {}

    def __repr__(self):
        c = self.manifest["chain"]
        return (f"<flashfuser.Kernel {c['kind']} {c.get('activation', '')} "
                f"{c['dtype']} M={c['m']} N={c['n']} K={c['k']} "
                f"L={c.get('l', 0)} fallback={self.fallback} from "
                f"{self.path}>")

    def clear_cache(self):
        """Forgets every cached launch path (prebuilt arguments, and the
        weight views the unfused chain holds); decided fallback choices are
        kept."""
        if self._fast is not None:
            self._fast.clear()
        self._layouts.clear()
        self._launches.clear()
        self._runners.clear()
        self._graph_counts.clear()
        self._graphs.clear()
        self._graph_pools.clear()
        self._graph_sides.clear()

    def _convert(self, tensors: Sequence[Any], start: int = 0):
        """ffrt tensors of arguments start, start+1, ... (for messages)."""
        specs = self.inputs + self.outputs
        out = []
        for i, t in enumerate(tensors, start):
            name = specs[i]["name"] if i < len(specs) else f"#{i}"
            try:
                ptr, dtype, shape, strides, _ = describe_tensor(t)
            except ValidationError as e:
                raise ValidationError(f"argument '{name}': {e}") from None
            out.append(_runtime.make_tensor(ptr, dtype, shape, strides))
        return out

    def validate(self, *tensors, query_pointers: bool = False):
        """Checks arguments (inputs then outputs) without launching; returns
        the plan (m, kernel index, grid)."""
        try:
            return self._handle.validate(self._convert(tensors),
                                         query_pointers)
        except _runtime.FFRTError as e:
            raise ValidationError(str(e)) from None

    def prepare(self):
        """Loads every kernel into the current CUDA context now rather than
        at the first launch, e.g. before capturing a CUDA graph."""
        try:
            self._handle.prepare()
        except _runtime.FFRTError as e:
            if e.code == _runtime.ERROR_BUNDLE:
                raise BundleError(str(e)) from None
            raise

    def kernel_for(self, m: int) -> Optional[dict]:
        """The manifest kernel whose M bin holds m."""
        return select_kernel(self.manifest, m)

    def _bin(self, m: int) -> Optional[int]:
        """Index of the manifest kernel whose M bin holds m."""
        for i, k in enumerate(self.manifest.get("kernels", [])):
            if k["m_lo"] <= m <= k["m_hi"]:
                return i
        return None

    def choice(self, m: int, graph: bool = False) -> Optional[str]:
        """The path an eager call with this M takes (graph=True: a call
        made while a CUDA graph is being captured): "fused" or "unfused";
        None when no kernel's bin holds m, or with fallback="auto" while
        m's bin is undecided (before its first call outside graph
        capture)."""
        b = self._bin(m)
        if b is None:
            return None
        if self.fallback == "never":
            return FUSED
        if self.fallback == "always":
            return UNFUSED
        return self._dispatcher.choice(b, graph=graph)

    def choices(self, m: int) -> Optional[Dict[str, str]]:
        """{"eager": path, "graph": path}: choice(m) and choice(m,
        graph=True); None when either is None."""
        eager, graph = self.choice(m), self.choice(m, graph=True)
        if eager is None or graph is None:
            return None
        return {"eager": eager, "graph": graph}

    def timings(self, m: int) -> Optional[Dict[str, Optional[float]]]:
        """{"fused": ms, "unfused": ms, "fused_graph": ms, "unfused_graph":
        ms} measured when m's bin was decided: medians per eager call and
        per CUDA graph replay (the graph ones None when graph timing failed
        or was skipped); None when nothing was timed for it."""
        b = self._bin(m)
        if b is None or self._dispatcher is None:
            return None
        return self._dispatcher.times(b)

    def _check_count(self, inputs):
        if len(inputs) != len(self.inputs):
            names = ", ".join(t["name"] for t in self.inputs)
            raise ValidationError(f"expected {len(self.inputs)} inputs "
                                  f"({names}), got {len(inputs)}")

    def _alloc_spec(self, x, torch):
        """(shape, dtype, device) of the output a call with input x gets."""
        spec = self.outputs[0]
        shape = tuple(x.shape[0] if d == -1 else d for d in spec["shape"])
        dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                 "f32": torch.float32}[spec["dtype"]]
        return shape, dtype, x.device

    def _alloc_out(self, x, torch):
        shape, dtype, device = self._alloc_spec(x, torch)
        return torch.empty(shape, dtype=dtype, device=device)

    def __call__(self, *inputs, out=None, stream=None):
        # Where _ffrt_fastcall loads, _use_torch installs its KernelCall in
        # this method's place: the same steps without this Python frame.
        fast = self._fast
        if fast is not None:
            # The launches _cached registered, matched and run in C
            # (_ffrt_fastcall): out, None when none matches, or ffrt's
            # status of a failed launch.
            r = fast(inputs, out, stream)
            if r is not None:
                if r.__class__ is int:
                    self._launch_failed(r)
                return r
        return self._call_missed(inputs, out, stream)

    def _call_missed(self, inputs, out, stream):
        """A call the fast path did not run: the Python caches, else the
        first call's checks."""
        if len(inputs) == self._n_in:
            r = self._cached(inputs, out, stream, None)
            if r is not None:
                return r
        if self._dispatcher is None:
            return self._call_fused(inputs, out, stream)
        return self._call_dispatched(inputs, out, stream)

    # ------------------------------------------------------------------
    # The cached path: a call whose argument layout was seen before
    # ------------------------------------------------------------------

    def _cached(self, inputs, out, stream, path, graphs=True):
        """Runs the call from the caches and returns out; None, having done
        nothing, when they do not cover it. `path`: FUSED or UNFUSED, or
        None for the layout's decided path; `graphs`: False keeps the call
        off the CUDA graphs of its argument set."""
        args = inputs if out is None else (*inputs, out)
        try:
            # _signature's torch branch, inline: the layout first, the
            # pointers only when it is known.
            lay = tuple([(t.shape, t.stride(), t.dtype, t.device)
                         for t in args])
            ptrs = None
        except AttributeError:
            sig = _cai_signature(args)
            if sig is None:
                return None
            lay, ptrs = sig
        try:
            e = self._layouts.get(lay)
        except TypeError:           # an unhashable field
            return None
        if e is None:
            return None
        try:
            # A negation view has its tensor's key: the full path refuses it.
            if any([t.is_neg() for t in args]):
                return None
        except AttributeError:      # not PyTorch's
            pass
        # Only a regular call of a layout whose eager and captured paths are
        # both the fused launch registers with the fast path.
        fast = self._fast if path is None and graphs and \
            e.path == FUSED and e.gpath == FUSED and e.dev is not None and \
            e.lay is not None else None
        if path is None:
            path = e.path
            # Differing eager and graph choices: one capture check.
            if path is not e.gpath and self._capturing(stream, e.dev):
                path = e.gpath
        if path == FUSED:
            if e.tmpl is None:
                return None
            if ptrs is None:
                try:
                    ptrs = tuple([t.data_ptr() for t in args])
                except AttributeError:
                    return None
            if e.alloc is not None:
                shape, dtype, device = e.alloc
                out = self._torch.empty(shape, dtype=dtype, device=device)
                ptrs += (out.data_ptr(),)
            dev = e.dev
            if stream is None:
                h = 0 if dev is None else self._raw_stream(dev)
            else:
                h = _stream_handle(stream)
            graphed = stream is None and graphs and self._graphs_ok and \
                self._epoch is not None and dev is not None
            key = (FUSED, e, ptrs, h)
            if graphed and self._cur_dev() == dev:
                if self._replay(key, lambda: self._fused_body(e, ptrs, dev),
                                self._epoch):
                    if fast is not None:
                        self._fast_graph(fast, key, args)
                    return out
            go = self._launches.get((e, ptrs, h))
            if go is None:
                go = self._new_launch(e, ptrs, h)
            if fast is not None and (
                    not graphed or self._graph_counts.get(key) == _EAGER):
                # Launched directly now and on every such call: a given
                # stream, no graphs, or a set that stays eager.
                fast.add((e, ptrs, h), e.lay, self._fast_alloc(e), ptrs,
                         dev, h, _runtime.native(go), False, stream is None,
                         guard=self._guard(args), exemplars=args)
            if dev is None or self._cur_dev() == dev:
                rc = go()
            else:
                with self._torch.cuda.device(dev):
                    rc = go()
            if rc:
                self._launch_failed(rc)
            return out
        if path == UNFUSED and e.unfused_ok:
            try:
                wptrs = tuple([t.data_ptr() for t in inputs[1:]])
            except AttributeError:
                return None
            hs = None if stream is None else _stream_handle(stream)
            run = self._runners.get((e, wptrs, hs))
            if run is None:
                run = self._new_runner(e, inputs, wptrs, stream, hs)
            if e.alloc is not None:
                shape, dtype, device = e.alloc
                out = self._torch.empty(shape, dtype=dtype, device=device)
            if hs is None and graphs and self._graphs_ok and \
                    e.dev is not None and self._cur_dev() == e.dev:
                x = inputs[0]
                if self._replay((UNFUSED, e, x.data_ptr(), wptrs,
                                 out.data_ptr(), self._raw_stream(e.dev)),
                                lambda: self._unfused_body(run, x, out), None):
                    return out
            run(inputs[0], out)
            return out
        return None

    def _replay(self, key, make_body, epoch) -> bool:
        """Runs the call as a replay of its CUDA graph for argument set
        `key` (path, entry, pointers..., stream handle), capturing it on
        the set's _GRAPH_AFTER-th call here; False, with nothing run, while
        the set has been seen fewer times, while a graph is being captured
        (the caller's launches belong in it), after capturing failed, or
        when `epoch` (the runtime's count of freed buffers, None for the
        unfused chain) moved since the capture. make_body() gives body(),
        which runs the path on the current stream, or None when the set
        should stay eager."""
        g = self._graphs.get(key)
        if g is None:
            n = self._graph_counts.get(key, 0)
            if n == _EAGER:
                return False
            n += 1
            if n < _GRAPH_AFTER or self._is_capturing():
                _put(self._graph_counts, key, n, _MAX_GRAPH_COUNTS)
                return False
            body = make_body()
            g = None
            ran = False
            if body is not None:    # else not worth a graph: eager for good
                ran, g = self._capture(body, key[0], key[-1], epoch)
            if g is None:
                _put(self._graph_counts, key, _EAGER, _MAX_GRAPH_COUNTS)
                return ran
            self._graph_counts.pop(key, None)
            self._store_graph(key, g)
            return ran
        if self._is_capturing():
            return False
        graph, at, _ = g
        if epoch is not None and epoch() != at:
            # The runtime freed a buffer the graph may use: count afresh,
            # this call the first.
            self._drop_graph(key)
            _put(self._graph_counts, key, 1, _MAX_GRAPH_COUNTS)
            return False
        rc = graph.replay()         # None from PyTorch, ffrt's status else
        if rc:
            self._launch_failed(rc)
        return True

    def _fast_alloc(self, e: _Entry):
        """() -> a new out for entry e (None when calls pass out)."""
        if e.alloc is None:
            return None
        if e.alloc_fn is None:
            shape, dtype, device = e.alloc
            e.alloc_fn = functools.partial(self._torch.empty, shape,
                                           dtype=dtype, device=device)
        return e.alloc_fn

    def _guard(self, args):
        """The fast path's layout guard for a launch registered with
        `args` (_tensor_guard), or None."""
        return _tensor_guard(self._guards,
                             getattr(self._torch, "Tensor", None), args)

    def _fast_graph(self, fast, key, args):
        """Registers the fused graph of argument set `key` (path, entry,
        pointers, stream), called with `args`, with the fast path, which
        replays it while the runtime's epoch keeps its capture-time value
        and no capture is under way (as _replay)."""
        g = self._graphs.get(key)
        if g is None:
            return
        _, e, ptrs, h = key
        fast.add(key, e.lay, self._fast_alloc(e), ptrs, e.dev, h,
                 _runtime.native(g[0].replay), True, False, g[1],
                 guard=self._guard(args), exemplars=args)

    def _store_graph(self, key, value):
        """self._graphs[key] = value, the oldest graphs dropped beyond
        _MAX_GRAPHS."""
        while len(self._graphs) >= _MAX_GRAPHS:
            try:
                self._drop_graph(next(iter(self._graphs)))
            except (StopIteration, RuntimeError):   # emptied meanwhile
                break
        self._graphs[key] = value

    def _drop_graph(self, key):
        """Forgets a graph; its stream's memory pool with the last graph
        in it (PyTorch frees a private pool with its last graph, and a
        capture into a freed pool's handle fails)."""
        if self._fast is not None:
            self._fast.discard(key)
        g = self._graphs.pop(key, None)
        if g is None or g[2] is None:
            return
        pool = self._graph_pools.get(g[2])
        if pool is not None:
            pool[1] -= 1
            if pool[1] <= 0:
                del self._graph_pools[g[2]]

    def _capture(self, body, path: str, h: int, epoch):
        """(whether this call's run happened, (the graph of body(), epoch()
        before the capture, the pool's stream or None) or None when
        capturing failed). A fused launch goes to the runtime's own
        recording (_capture_launch) where the library has it; otherwise a
        torch.cuda.CUDAGraph: one uncaptured body() on a side stream
        (this call's result; cuBLAS's per-stream state; the runtime's
        buffers), then the capture there. The unfused graphs of one stream
        share a memory pool: they replay one at a time, and none keeps an
        intermediate past its replay. Fused graphs allocate nothing."""
        if isinstance(body, _FusedLaunch) and self._handle.can_capture:
            return self._capture_launch(body, h, epoch)
        torch = self._torch
        cur = torch.cuda.current_stream()
        side = self._graph_sides.get(h)
        if side is None:
            side = self._graph_sides[h] = torch.cuda.Stream(device=cur.device)
        pool = None
        if path == UNFUSED:
            pool = self._graph_pools.get(h)
            if pool is None:
                pool = [torch.cuda.graph_pool_handle(), 0]
        side.wait_stream(cur)
        graph = torch.cuda.CUDAGraph()
        ran = False
        try:
            with torch.cuda.stream(side):
                body()
                ran = True
                at = epoch() if epoch is not None else None
                _capture_begin(graph, pool[0] if pool is not None else None)
                try:
                    body()
                finally:
                    graph.capture_end()
        except Exception as exc:  # noqa: BLE001 (any failure: run eagerly)
            return ran, _capture_failed(path, exc)
        finally:
            cur.wait_stream(side)
        if pool is None:
            return ran, (graph, at, None)
        pool[1] += 1
        self._graph_pools[h] = pool
        return ran, (graph, at, h)

    def _capture_launch(self, body: "_FusedLaunch", h: int, epoch):
        """_capture for a fused launch through the runtime
        (ffrt_graph_capture): the call's launch on its own stream, then the
        runtime records the same launch on a stream of its own without
        running it; a replay is one cuGraphLaunch, without PyTorch's
        CUDAGraph.replay() on the way (2.5-6.5 us of host time)."""
        ran = False
        try:
            body()
            ran = True
            at = epoch() if epoch is not None else None
            graph = self._handle.capture(body.arr, h)
        except Exception as exc:  # noqa: BLE001 (any failure: run eagerly)
            return ran, _capture_failed(FUSED, exc)
        return ran, (graph, at, None)

    def _unfused_body(self, run, x, out) -> Optional[Callable[[], None]]:
        """run(x, out) for _capture; None when the chain's intermediates
        (at most 3 x M x N elements of the GEMMs' dtype: the gated chain's
        gate|up product and its gate product) exceed
        _MAX_UNFUSED_GRAPH_BYTES."""
        c = self.manifest["chain"]
        rows = x.numel() // max(x.shape[-1], 1)     # M, or N*H*W of images
        if 3 * rows * c["n"] * x.element_size() > _MAX_UNFUSED_GRAPH_BYTES:
            return None
        return lambda: run(x, out)

    def _fused_body(self, e: _Entry, ptrs, dev: int) -> "_FusedLaunch":
        """The fused launch of entry e's arguments at `ptrs` on the
        current stream, raising on a failed launch (for _capture)."""
        return _FusedLaunch(self, self._args_at(e, ptrs), dev)

    @staticmethod
    def _args_at(e: _Entry, ptrs):
        """Entry e's ffrt_tensor array with the data pointers `ptrs`."""
        return e.tmpl if ptrs == e.ptrs else \
            _runtime.with_pointers(e.tmpl, ptrs)

    def _new_launch(self, e: _Entry, ptrs, h: int) -> Callable[[], int]:
        """The bound launch of entry e's arguments at `ptrs` on stream h."""
        go = self._handle.launcher(self._args_at(e, ptrs), h)
        _put(self._launches, (e, ptrs, h), go, _MAX_LAUNCHES)
        return go

    def _new_runner(self, e: _Entry, inputs, wptrs, stream, hs):
        """The unfused chain over these weights (views made once) as
        run(x, out), on `stream` when one was given."""
        torch = self._torch
        if self._unfused is None:
            self._unfused = build_unfused(self._form)
        bind = getattr(self._unfused, "bind", None)
        weights = tuple(inputs[1:])
        if bind is not None:
            core = bind(*weights)
        else:
            unfused = self._unfused

            def core(x, out):
                unfused(x, *weights, out)
        if hs is None:
            run = core
        else:
            ts = _torch_stream(torch, stream, inputs[0].device)

            def run(x, out):
                with torch.cuda.stream(ts):
                    core(x, out)
        _put(self._runners, (e, wptrs, hs), run, _MAX_RUNNERS)
        return run

    def _launch_failed(self, rc: int):
        message = _runtime.last_error()
        if rc == _runtime.ERROR_INVALID_ARGUMENT:
            raise ValidationError(message) from None
        raise _runtime.FFRTError(rc, message)

    def _entry(self, args, alloc, dev) -> Optional[_Entry]:
        """The cache entry of these arguments' layout (inputs, then out
        unless it was allocated from `alloc`), made when new; None when
        they cannot be keyed. Called once the arguments passed a check."""
        sig = _signature(args)
        if sig is None:
            return None
        e = self._layouts.get(sig[0])
        if e is None:
            e = _Entry(dev, alloc, sig[0])
            _put(self._layouts, sig[0], e, _MAX_LAYOUTS)
        return e

    def _use_torch(self, torch):
        if self._torch is not torch:
            self._cur_dev, self._raw_stream = _torch_hooks(torch)
            self._is_capturing = _capture_hook(torch)
            self._graphs_ok = self.graphs and all(
                hasattr(torch.cuda, a) for a in
                ("CUDAGraph", "graph_pool_handle", "Stream"))
            self._torch = torch
            self._guards = _tensor_guards(torch)
            mod = _runtime.fastcall_module()
            # The capture and device checks in C ask the driver (about the
            # call's stream handle and the thread's context: what PyTorch's
            # hooks would ask about); tensors and the current stream are
            # read through DLPack's exchange API where PyTorch has one.
            dl = _dlpack_api(torch)
            if mod is not None:
                _install_kernel_call(mod)
            self._fast = None if mod is None else mod.FastCall(
                self._cur_dev, self._raw_stream, self._is_capturing,
                None if self._epoch is None else
                _runtime.native(self._epoch),
                stream_capturing=_runtime.stream_capturing(),
                current_device=_runtime.current_device(),
                dlpack=dl, tensor_types=_dlpack_types(torch) if dl else None)

    def _capturing(self, stream, dev) -> bool:
        """Whether the stream a call runs on (`stream`, else PyTorch's
        current stream of device `dev`) is capturing a CUDA graph."""
        if stream is None and (dev is None or self._cur_dev() == dev):
            return bool(self._is_capturing())
        torch = self._torch
        with torch.cuda.stream(_torch_stream(torch, stream, dev)):
            return bool(self._is_capturing())

    # ------------------------------------------------------------------
    # The first call of a layout: every check, then the cache entry
    # ------------------------------------------------------------------

    def _m_of(self, x) -> int:
        return x.shape[0] if self._dynamic_m else self._static_m

    def _call_fused(self, inputs, out, stream):
        self._check_count(inputs)
        # Describe (and so type- and device-check) the inputs before
        # anything touches their device.
        args = self._convert(inputs)
        torch = None
        x = inputs[0]
        if hasattr(x, "data_ptr"):
            import torch  # noqa: F811 (only when given torch tensors)
            self._use_torch(torch)
        alloc = None
        if out is None:
            if torch is None:
                raise ValidationError("out= is required without PyTorch")
            alloc = self._alloc_spec(x, torch)
            out = torch.empty(alloc[0], dtype=alloc[1], device=alloc[2])
        args += self._convert([out], start=len(inputs))
        dev = None
        if torch is not None:
            dev = x.device.index
            h = self._raw_stream(dev) if stream is None else \
                _stream_handle(stream)
        else:
            h = _stream_handle(stream)
        arr = _runtime.tensor_array(args)
        go = self._handle.launcher(arr, h)
        if torch is not None:
            with torch.cuda.device(x.device):
                rc = go()
        else:
            rc = go()
        if rc:
            self._launch_failed(rc)
        # Launched: later calls with this layout skip every step above. A
        # call of an undecided M (timing) fills the cache but does not
        # decide the layout's path.
        called = inputs if alloc is not None else (*inputs, out)
        e = self._entry(called, alloc, dev)
        if e is not None:
            ptrs = tuple([t.data for t in arr])
            if e.tmpl is None:
                e.tmpl, e.ptrs = arr, ptrs
            _put(self._launches, (e, ptrs, h), go, _MAX_LAUNCHES)
            if self._dispatcher is None or torch is None:
                e.path = e.gpath = FUSED
            else:
                paths = self._by_m.get(self._m_of(x))
                if paths is not None:
                    if paths[0] == FUSED:
                        e.path = FUSED
                    if paths[1] == FUSED:
                        e.gpath = FUSED
        return out

    def _call_dispatched(self, inputs, out, stream):
        self._check_count(inputs)
        x = inputs[0]
        if not hasattr(x, "data_ptr"):
            if self.fallback == "always":
                raise ValidationError(
                    "fallback='always' runs the chain as PyTorch ops and "
                    f"needs torch tensors, got {type(x).__name__}")
            return self._call_fused(inputs, out, stream)
        m = self._m_of(x)
        import torch
        self._use_torch(torch)
        path = None
        paths = self._by_m.get(m)
        if paths is not None:
            path = paths[0]
            if path != paths[1] and self._capturing(stream, x.device.index):
                path = paths[1]
        if path == FUSED:
            return self._call_fused(inputs, out, stream)
        alloc = None
        if out is None:
            alloc = self._alloc_spec(x, torch)
            out = torch.empty(alloc[0], dtype=alloc[1], device=alloc[2])
        if path is None:
            path = self._decide(m, inputs, out, stream)
        if path == UNFUSED:
            return self._call_unfused(inputs, out, stream, m, alloc)
        return self._call_fused(inputs, out, stream)

    def _decide(self, m, inputs, out, stream) -> str:
        """The path for M's bin in this call's context (capturing or not),
        deciding it on its first call outside capture: in "auto", both
        paths timed eagerly and as CUDA graph replays (into `out`; the
        caller then runs the chosen path for real). The answer is cached per
        M once the bin is decided."""
        import torch
        b = self._bin(m)
        if b is None:
            return FUSED    # its launch reports the M outside every bin
        # The runtime's complete check, once per M; the unfused path's
        # own check covers shapes, dtypes and contiguity only.
        self.validate(*inputs, out)
        if self._form is not None and self._unfused is None:
            self._unfused = build_unfused(self._form)
        ts = _torch_stream(torch, stream, inputs[0].device)

        # Each path is timed as later calls will run it: its first run
        # fills the cache, the others take the cached path.
        def run(path, on, graphs=True):
            def call():
                if self._cached(inputs, out, on, path, graphs) is not None:
                    return
                if path == FUSED:
                    self._call_fused(inputs, out, on)
                else:
                    self._call_unfused(inputs, out, on, m)
            return call

        # Graph paths are captured as a later captured call runs: on the
        # current (the capturing) stream, whatever stream= this call named.
        with torch.cuda.stream(ts):
            path = self._dispatcher.choose(
                b, run(FUSED, stream),
                run(UNFUSED, stream) if self._unfused is not None else None,
                event_timer(ts), bool(self._is_capturing()),
                graph_timer=graph_timer(ts),
                # The graph timer's side streams get no graphs of their own.
                graph_paths=(run(FUSED, None, False),
                             run(UNFUSED, None, False)))
        choices = self._dispatcher.choices(b)
        if choices is not None:
            self._by_m[m] = (choices["eager"], choices["graph"])
        return path

    def _unfused_args_ok(self, args, m) -> bool:
        expect = self._expect.get(m)
        if expect is None:
            import torch
            dtypes = {"bf16": torch.bfloat16, "f16": torch.float16,
                      "f32": torch.float32}
            expect = self._expect[m] = [
                (tuple(m if d == -1 else d for d in s["shape"]),
                 dtypes[s["dtype"]]) for s in self.inputs + self.outputs]
        try:
            for t, (shape, dtype) in zip(args, expect):
                if t.dtype != dtype or t.shape != shape or not t.is_cuda \
                        or not t.is_contiguous():
                    return False
        except AttributeError:      # not a torch tensor
            return False
        return True

    def _call_unfused(self, inputs, out, stream, m, alloc=None):
        """The unfused chain; `alloc`: the spec out was allocated from when
        the caller passed none."""
        args = (*inputs, out)
        if not self._unfused_args_ok(args, m):
            self.validate(*args)    # the runtime's message names the argument
            raise ValidationError(
                "the unfused chain needs contiguous CUDA torch tensors of the "
                "manifest's shapes and dtypes (inputs then out)")
        if self._unfused is None:
            self._unfused = build_unfused(self._form)
        e = self._entry(inputs if alloc is not None else args, alloc,
                        inputs[0].device.index)
        if e is None:
            if stream is None:
                self._unfused(*args)
            else:
                import torch
                with torch.cuda.stream(_torch_stream(torch, stream,
                                                     inputs[0].device)):
                    self._unfused(*args)
            return out
        e.unfused_ok = True
        paths = self._by_m.get(m)
        if paths is not None:
            if paths[0] == UNFUSED:
                e.path = UNFUSED
            if paths[1] == UNFUSED:
                e.gpath = UNFUSED
        wptrs = tuple(t.data_ptr() for t in inputs[1:])
        hs = None if stream is None else _stream_handle(stream)
        run = self._runners.get((e, wptrs, hs))
        if run is None:
            run = self._new_runner(e, inputs, wptrs, stream, hs)
        run(inputs[0], out)
        return out


def _torch_stream(torch, stream, device):
    """The torch.cuda.Stream that `stream` (None, a torch stream, a handle
    or a __cuda_stream__ object) names, for running torch ops on it."""
    if stream is None:
        return torch.cuda.current_stream(device)
    if isinstance(stream, torch.cuda.Stream):
        return stream
    handle = _stream_handle(stream)
    if handle == 0:
        return torch.cuda.default_stream(device)
    return torch.cuda.ExternalStream(handle, device=device)


def load(path: str, verify: bool = True, fallback: str = "never",
         graphs: bool = True) -> Kernel:
    """Loads a bundle directory (hash-checked) with the runtime library.
    ``fallback``: "never" (default), "auto" or "always"; ``graphs``: replay
    repeated eager calls from CUDA graphs; see Kernel."""
    return Kernel(path, verify=verify, fallback=fallback, graphs=graphs)
