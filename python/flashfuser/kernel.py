"""A loaded bundle as a callable over GPU tensors."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from . import _runtime
from .bundle import BundleError, select_kernel, verify_bundle
from .fallback import (FUSED, MODES, UNFUSED, ChainForm, Dispatcher,
                       FallbackUnavailable, build_unfused, chain_form,
                       event_timer)

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
    argument is validated by the runtime before anything is launched.

    ``fallback`` picks between the fused kernel and the same chain as plain
    PyTorch ops (flashfuser.fallback): "never" (default) always launches the
    fused kernel; "always" runs the unfused chain; "auto" times both on the
    first call whose M falls in each kernel's M bin and runs the faster one
    from then on (``choice(m)``, ``timings(m)``). docs/runtime.md,
    "Fallback"."""

    def __init__(self, path: str, verify: bool = True,
                 fallback: str = "never"):
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
        self._by_m: Dict[int, str] = {}     # M -> decided path: the fast path
        self._expect: Dict[int, list] = {}  # M -> [(shape, torch dtype)]

    def __repr__(self):
        c = self.manifest["chain"]
        return (f"<flashfuser.Kernel {c['kind']} {c.get('activation', '')} "
                f"{c['dtype']} M={c['m']} N={c['n']} K={c['k']} "
                f"L={c.get('l', 0)} fallback={self.fallback} from "
                f"{self.path}>")

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

    def choice(self, m: int) -> Optional[str]:
        """The path a call with this M takes: "fused" or "unfused"; None
        when no kernel's bin holds m, or with fallback="auto" while m's bin
        is undecided (before its first call outside graph capture)."""
        b = self._bin(m)
        if b is None:
            return None
        if self.fallback == "never":
            return FUSED
        if self.fallback == "always":
            return UNFUSED
        return self._dispatcher.choice(b)

    def timings(self, m: int) -> Optional[Dict[str, Optional[float]]]:
        """{"fused": ms, "unfused": ms} measured when m's bin was decided
        (median per call); None when nothing was timed for it."""
        b = self._bin(m)
        if b is None or self._dispatcher is None:
            return None
        return self._dispatcher.times(b)

    def _check_count(self, inputs):
        if len(inputs) != len(self.inputs):
            names = ", ".join(t["name"] for t in self.inputs)
            raise ValidationError(f"expected {len(self.inputs)} inputs "
                                  f"({names}), got {len(inputs)}")

    def _alloc_out(self, x, torch):
        spec = self.outputs[0]
        shape = [x.shape[0] if d == -1 else d for d in spec["shape"]]
        dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                 "f32": torch.float32}[spec["dtype"]]
        return torch.empty(shape, dtype=dtype, device=x.device)

    def __call__(self, *inputs, out=None, stream=None):
        if self._dispatcher is None:
            return self._call_fused(inputs, out, stream)
        return self._call_dispatched(inputs, out, stream)

    def _call_fused(self, inputs, out, stream):
        self._check_count(inputs)
        # Describe (and so type- and device-check) the inputs before
        # anything touches their device.
        args = self._convert(inputs)
        torch = None
        if hasattr(inputs[0], "data_ptr"):
            import torch  # noqa: F811 (only when given torch tensors)
        if out is None:
            if torch is None:
                raise ValidationError("out= is required without PyTorch")
            out = self._alloc_out(inputs[0], torch)
        args += self._convert([out], start=len(inputs))
        if stream is None and torch is not None:
            stream = torch.cuda.current_stream(inputs[0].device)
        try:
            if torch is not None:
                with torch.cuda.device(inputs[0].device):
                    self._handle.launch(args, _stream_handle(stream))
            else:
                self._handle.launch(args, _stream_handle(stream))
        except _runtime.FFRTError as e:
            if e.code == _runtime.ERROR_INVALID_ARGUMENT:
                raise ValidationError(str(e)) from None
            raise
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
        if out is None:
            import torch
            out = self._alloc_out(x, torch)
        m = x.shape[0] if self._dynamic_m else self._static_m
        path = self._by_m.get(m)
        if path is None:
            path = self._decide(m, inputs, out, stream)
        if path == UNFUSED:
            return self._call_unfused(inputs, out, stream, m)
        return self._call_fused(inputs, out, stream)

    def _decide(self, m, inputs, out, stream) -> str:
        """The path for M's bin, deciding it (timing both, in "auto") on its
        first call; the answer is cached per M once the bin is decided."""
        import torch
        b = self._bin(m)
        if b is None:
            return FUSED    # its launch reports the M outside every bin
        # The runtime's complete check, once per M; the unfused path's
        # per-call check covers shapes, dtypes and contiguity only.
        self.validate(*inputs, out)
        if self._form is not None and self._unfused is None:
            self._unfused = build_unfused(self._form)
        ts = _torch_stream(torch, stream, inputs[0].device)

        def fused():
            return self._call_fused(inputs, out, stream)

        def unfused():
            return self._call_unfused(inputs, out, stream, m)

        with torch.cuda.stream(ts):
            path = self._dispatcher.choose(
                b, fused, unfused if self._unfused is not None else None,
                event_timer(ts), torch.cuda.is_current_stream_capturing())
        if self._dispatcher.choice(b) is not None:
            self._by_m[m] = path
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

    def _call_unfused(self, inputs, out, stream, m):
        args = (*inputs, out)
        if not self._unfused_args_ok(args, m):
            self.validate(*args)    # the runtime's message names the argument
            raise ValidationError(
                "the unfused chain needs contiguous CUDA torch tensors of the "
                "manifest's shapes and dtypes (inputs then out)")
        if stream is None:
            self._unfused(*args)
        else:
            import torch
            with torch.cuda.stream(_torch_stream(torch, stream,
                                                 inputs[0].device)):
                self._unfused(*args)
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


def load(path: str, verify: bool = True, fallback: str = "never") -> Kernel:
    """Loads a bundle directory (hash-checked) with the runtime library.
    ``fallback``: "never" (default), "auto" or "always"; see Kernel."""
    return Kernel(path, verify=verify, fallback=fallback)
