"""ctypes binding of the runtime's C API (include/ff/Runtime/ffrt.h).

The library is found through $FLASHFUSER_RUNTIME_LIB, then
$FLASHFUSER_BUILD_DIR/lib, then next to this package (flashfuser/lib/
libffrt.so, for installed copies), then in the build trees of the source
checkout (build*/lib/libffrt.so). The fast-call module (_ffrt_fastcall,
lib/Runtime/PyFastCall.cpp) is loaded from the library's directory unless
$FLASHFUSER_NO_FASTCALL is set to a nonempty value other than 0.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import importlib.machinery
import importlib.util
import os
from typing import Callable, Optional, Sequence

MAX_RANK = 8

OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_BUNDLE = 2
ERROR_NO_DEVICE = 3
ERROR_CUDA = 4


class RuntimeUnavailable(Exception):
    """libffrt.so could not be found or loaded."""


class FFRTError(Exception):
    """A runtime call failed; `code` is one of the ERROR_* values."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class Tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_uint64),
        ("dtype", ctypes.c_char_p),
        ("ndim", ctypes.c_int32),
        ("has_strides", ctypes.c_int32),
        ("shape", ctypes.c_int64 * MAX_RANK),
        ("strides", ctypes.c_int64 * MAX_RANK),
    ]


class Plan(ctypes.Structure):
    _fields_ = [
        ("m", ctypes.c_int64),
        ("kernel", ctypes.c_int32),
        ("grid", ctypes.c_uint32 * 3),
    ]


_lib = None


def _candidates():
    env = os.environ.get("FLASHFUSER_RUNTIME_LIB")
    if env:
        yield env
        return
    build = os.environ.get("FLASHFUSER_BUILD_DIR")
    if build:
        yield os.path.join(build, "lib", "libffrt.so")
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", "libffrt.so")
    root = os.path.dirname(os.path.dirname(here))
    for pattern in ("build/lib/libffrt.so", "build*/lib/libffrt.so"):
        yield from sorted(glob.glob(os.path.join(root, pattern)))


def library_path() -> Optional[str]:
    for path in _candidates():
        if os.path.isfile(path):
            return path
    return None


def lib():
    """The loaded library; raises RuntimeUnavailable."""
    global _lib
    if _lib is not None:
        return _lib
    path = library_path()
    if path is None:
        raise RuntimeUnavailable(
            "libffrt.so not found: build the runtime (cmake -DFF_ENABLE_"
            "COMPILER=OFF ...) or set FLASHFUSER_RUNTIME_LIB")
    try:
        l = ctypes.CDLL(path)
    except OSError as e:
        raise RuntimeUnavailable(f"cannot load {path}: {e}") from e
    l.ffrt_last_error.restype = ctypes.c_char_p
    l.ffrt_version.restype = ctypes.c_char_p
    l.ffrt_driver_available.restype = ctypes.c_int
    l.ffrt_sha256_hex.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.c_char_p]
    l.ffrt_bundle_compute_hash.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    l.ffrt_bundle_open.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_void_p)]
    l.ffrt_bundle_close.argtypes = [ctypes.c_void_p]
    l.ffrt_bundle_close.restype = None
    l.ffrt_validate.argtypes = [ctypes.c_void_p, ctypes.POINTER(Tensor),
                                ctypes.c_int, ctypes.c_int,
                                ctypes.POINTER(Plan)]
    l.ffrt_prepare.argtypes = [ctypes.c_void_p]
    l.ffrt_launch.argtypes = [ctypes.c_void_p, ctypes.POINTER(Tensor),
                              ctypes.c_int, ctypes.c_void_p]
    try:
        l.ffrt_bundle_epoch.argtypes = [ctypes.c_void_p]
        l.ffrt_bundle_epoch.restype = ctypes.c_uint64
    except AttributeError:      # a library older than the call
        pass
    try:
        l.ffrt_graph_capture.argtypes = [ctypes.c_void_p,
                                         ctypes.POINTER(Tensor), ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_void_p)]
        l.ffrt_graph_launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        l.ffrt_graph_destroy.argtypes = [ctypes.c_void_p]
        l.ffrt_graph_destroy.restype = None
    except AttributeError:      # a library older than the calls
        pass
    try:
        l.ffrt_stream_capturing.argtypes = [ctypes.c_void_p]
        l.ffrt_stream_capturing.restype = ctypes.c_int
        if hasattr(l, "ffrt_current_device"):
            l.ffrt_current_device.argtypes = []
            l.ffrt_current_device.restype = ctypes.c_int
    except AttributeError:      # a library older than the call
        pass
    _lib = l
    return l


_fastcall = None
_fastcall_status = None


def _fastcall_disabled() -> bool:
    return os.environ.get("FLASHFUSER_NO_FASTCALL", "0") not in ("", "0")


def fastcall_module():
    """The _ffrt_fastcall module next to the loaded library, or None when
    it was not built, cannot be loaded by this Python, or is disabled
    ($FLASHFUSER_NO_FASTCALL); fastcall_status() says which."""
    global _fastcall, _fastcall_status
    if _fastcall_disabled():
        return None
    if _fastcall_status is not None:
        return _fastcall
    path = library_path()
    _fastcall_status = "not built"
    if path is None:
        return None
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for suffix in suffixes:
        cand = os.path.join(os.path.dirname(path), "_ffrt_fastcall" + suffix)
        if not os.path.isfile(cand):
            continue
        try:
            loader = importlib.machinery.ExtensionFileLoader(
                "_ffrt_fastcall", cand)
            spec = importlib.util.spec_from_file_location(
                "_ffrt_fastcall", cand, loader=loader)
            mod = importlib.util.module_from_spec(spec)
            loader.exec_module(mod)
        except ImportError as e:
            _fastcall_status = f"cannot load {cand}: {e}"
            continue
        _fastcall, _fastcall_status = mod, f"loaded from {cand}"
        return mod
    return None


def fastcall_status() -> str:
    """Why fastcall_module() returns what it does."""
    if _fastcall_disabled():
        return "disabled by FLASHFUSER_NO_FASTCALL"
    fastcall_module()
    return _fastcall_status


def _address(fn) -> int:
    """A ctypes function's entry point, for _ffrt_fastcall's targets."""
    return ctypes.cast(fn, ctypes.c_void_p).value


def _entry_point(name: str):
    """(name, address) of the loaded library's entry point `name`, as
    _ffrt_fastcall takes its native checks; None where the library lacks
    it."""
    f = getattr(lib(), name, None)
    return None if f is None else (name, _address(f))


def stream_capturing():
    """_ffrt_fastcall's native capture check (ffrt_stream_capturing)."""
    return _entry_point("ffrt_stream_capturing")


def current_device():
    """_ffrt_fastcall's native device check (ffrt_current_device)."""
    return _entry_point("ffrt_current_device")


def native(fn):
    """The _ffrt_fastcall target of a callable made here (a launcher, a
    graph's replay, an epoch reader): the ffrt entry point and its bound
    arguments; else fn itself, which the module calls as Python."""
    return getattr(fn, "ffrt_native", fn)


def last_error() -> str:
    """The calling thread's last runtime error message."""
    return lib().ffrt_last_error().decode()


def check(code: int):
    if code != OK:
        raise FFRTError(code, last_error())


def version() -> str:
    return lib().ffrt_version().decode()


def driver_available() -> bool:
    try:
        return lib().ffrt_driver_available() == OK
    except RuntimeUnavailable:
        return False


def sha256_hex(data: bytes) -> str:
    out = ctypes.create_string_buffer(65)
    check(lib().ffrt_sha256_hex(data, len(data), out))
    return out.value.decode()


def bundle_compute_hash(path: str) -> str:
    out = ctypes.create_string_buffer(65)
    check(lib().ffrt_bundle_compute_hash(path.encode(), out))
    return out.value.decode()


class _Owned:
    """A runtime object (`_ptr`) that `_free` (the C function's name)
    releases once. close() leaves NULL in place, so callables bound to the
    object pass NULL, which the runtime rejects, rather than a freed one."""
    _free = ""

    def close(self):
        if self._ptr:
            getattr(self._lib, self._free)(self._ptr)
            self._ptr.value = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Handle(_Owned):
    """An open bundle (ffrt_bundle*)."""
    _free = "ffrt_bundle_close"

    def __init__(self, path: str, verify_hash: bool = True):
        self._lib = lib()
        self._ptr = ctypes.c_void_p()
        check(self._lib.ffrt_bundle_open(path.encode(), int(verify_hash),
                                         ctypes.byref(self._ptr)))

    def validate(self, tensors, query_pointers: bool = False) -> Plan:
        arr = tensor_array(tensors)
        plan = Plan()
        check(self._lib.ffrt_validate(self._ptr, arr, len(tensors),
                                      int(query_pointers),
                                      ctypes.byref(plan)))
        return plan

    def prepare(self):
        check(self._lib.ffrt_prepare(self._ptr))

    def launch(self, tensors, stream: int = 0):
        """Launches with `tensors`: Tensor structures, or an array of them
        built once with tensor_array()."""
        arr = tensors if isinstance(tensors, ctypes.Array) else \
            tensor_array(tensors)
        check(self._lib.ffrt_launch(self._ptr, arr, len(arr), stream or None))

    def epoch_reader(self) -> Optional[Callable[[], int]]:
        """ffrt_bundle_epoch bound to this bundle (the count of device
        buffers freed that earlier launches may reference; a CUDA graph of
        a launch is valid while it is unchanged), or None when the library
        predates it."""
        f = getattr(self._lib, "ffrt_bundle_epoch", None)
        if f is None:
            return None
        p = functools.partial(f, self._ptr)
        p.ffrt_native = ("ffrt_bundle_epoch", _address(f), self._ptr)
        return p

    @property
    def can_capture(self) -> bool:
        """Whether the library records launches into CUDA graphs itself
        (ffrt_graph_capture)."""
        return hasattr(self._lib, "ffrt_graph_capture")

    def capture(self, arr: ctypes.Array, stream: int = 0) -> "Graph":
        """The launch of the prebuilt array `arr` recorded in a CUDA graph
        (not run), replayed on `stream` by Graph.replay(); launch the same
        arguments once before. Raises FFRTError when capturing fails."""
        ptr = ctypes.c_void_p()
        check(self._lib.ffrt_graph_capture(self._ptr, arr, len(arr),
                                           ctypes.byref(ptr)))
        return Graph(self._lib, ptr, stream)

    def launcher(self, arr: ctypes.Array, stream: int = 0) -> \
            Callable[[], int]:
        """A callable launching with the prebuilt array `arr` on `stream`
        (a CUstream handle; 0: the default stream) and returning ffrt's
        status (OK or an ERROR_* value; last_error() has the message): the
        C function with every argument bound, so a call does no Python work
        beyond ctypes' own. `arr` must not be modified afterwards."""
        f = self._lib.ffrt_launch
        p = functools.partial(f, self._ptr, arr, len(arr), stream or None)
        p.ffrt_native = ("ffrt_launch", _address(f), self._ptr, arr,
                         stream or 0)
        return p


class Graph(_Owned):
    """A launch recorded by ffrt_graph_capture. replay() launches it on the
    stream given at capture and returns ffrt's status, like a launcher."""
    _free = "ffrt_graph_destroy"

    def __init__(self, lib_, ptr: ctypes.c_void_p, stream: int):
        self._lib, self._ptr = lib_, ptr
        f = lib_.ffrt_graph_launch
        self.replay = functools.partial(f, ptr, stream or None)
        self.replay.ffrt_native = ("ffrt_graph_launch", _address(f), ptr,
                                   stream or 0)


# dtype names as the C strings ffrt_tensor points to: module constants, so
# an array copied byte-wise (with_pointers) never points at a freed string.
_DTYPE_NAMES = {"bf16": b"bf16", "f16": b"f16", "f32": b"f32"}


def make_tensor(data: int, dtype: str, shape, strides=None) -> Tensor:
    if len(shape) > MAX_RANK:
        raise ValueError(f"rank {len(shape)} exceeds {MAX_RANK}")
    t = Tensor()
    t.data = data
    name = _DTYPE_NAMES.get(dtype)
    t.dtype = name if name is not None else dtype.encode()
    t.ndim = len(shape)
    for i, s in enumerate(shape):
        t.shape[i] = int(s)
    if strides is not None:
        t.has_strides = 1
        for i, s in enumerate(strides):
            t.strides[i] = int(s)
    return t


def tensor_array(tensors: Sequence[Tensor]) -> ctypes.Array:
    """The ffrt_tensor array ffrt_launch/ffrt_validate take."""
    return (Tensor * len(tensors))(*tensors)


def with_pointers(arr: ctypes.Array, ptrs: Sequence[int]) -> ctypes.Array:
    """A copy of `arr` with its data pointers replaced by `ptrs` (shapes,
    strides and dtypes kept); `arr` itself is left as it is."""
    out = type(arr).from_buffer_copy(arr)
    for i, p in enumerate(ptrs):
        out[i].data = p
    return out
