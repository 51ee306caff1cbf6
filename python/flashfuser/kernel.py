"""A loaded bundle as a callable over GPU tensors."""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

from . import _runtime
from .bundle import BundleError, select_kernel, verify_bundle

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
    argument is validated by the runtime before anything is launched."""

    def __init__(self, path: str, verify: bool = True):
        self.path = os.path.abspath(path)
        self.manifest = verify_bundle(self.path) if verify else None
        if self.manifest is None:
            from .bundle import read_bundle
            self.manifest = read_bundle(self.path)[0]
        try:
            self._handle = _runtime.Handle(self.path, verify_hash=verify)
        except _runtime.FFRTError as e:
            raise BundleError(str(e)) from e
        chain = self.manifest["chain"]
        self.inputs: List[dict] = chain["inputs"]
        self.outputs: List[dict] = chain["outputs"]

    def __repr__(self):
        c = self.manifest["chain"]
        return (f"<flashfuser.Kernel {c['kind']} {c.get('activation', '')} "
                f"{c['dtype']} M={c['m']} N={c['n']} K={c['k']} "
                f"L={c.get('l', 0)} from {self.path}>")

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

    def kernel_for(self, m: int) -> Optional[dict]:
        """The manifest kernel whose M bin holds m."""
        return select_kernel(self.manifest, m)

    def __call__(self, *inputs, out=None, stream=None):
        if len(inputs) != len(self.inputs):
            names = ", ".join(t["name"] for t in self.inputs)
            raise ValidationError(f"expected {len(self.inputs)} inputs "
                                  f"({names}), got {len(inputs)}")
        # Describe (and so type- and device-check) the inputs before
        # anything touches their device.
        args = self._convert(inputs)
        torch = None
        if hasattr(inputs[0], "data_ptr"):
            import torch  # noqa: F811 (only when given torch tensors)
        if out is None:
            if torch is None:
                raise ValidationError("out= is required without PyTorch")
            x = inputs[0]
            spec = self.outputs[0]
            shape = [x.shape[0] if d == -1 else d for d in spec["shape"]]
            dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                     "f32": torch.float32}[spec["dtype"]]
            out = torch.empty(shape, dtype=dtype, device=x.device)
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


def load(path: str, verify: bool = True) -> Kernel:
    """Loads a bundle directory (hash-checked) with the runtime library."""
    return Kernel(path, verify=verify)
