"""Shared helpers of the flashfuser tests."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from flashfuser import _runtime  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUNDLES = os.environ.get("FLASHFUSER_TEST_BUNDLES",
                         os.path.join(ROOT, "scripts", "gpu", "bundles"))


def runtime_available() -> bool:
    try:
        _runtime.lib()
        return True
    except _runtime.RuntimeUnavailable:
        return False


def gpu_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available() and runtime_available() and \
        _runtime.driver_available()


class FakeTensor:
    """A device-array stand-in exposing only __cuda_array_interface__."""

    def __init__(self, ptr, shape, typestr="<V2", strides=None):
        self.__cuda_array_interface__ = {
            "data": (ptr, False), "shape": tuple(shape), "typestr": typestr,
            "strides": strides, "version": 3}


def eager_order(fused, unfused, rounds=3):
    """What flashfuser.fallback.Dispatcher times its two eager paths with,
    in order: `rounds` rounds, alternately fused first and unfused first
    (pass the paths, or their fake timings)."""
    out = []
    for r in range(rounds):
        out += [fused, unfused] if r % 2 == 0 else [unfused, fused]
    return out
