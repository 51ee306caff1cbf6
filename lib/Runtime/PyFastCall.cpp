//===- PyFastCall.cpp - flashfuser.Kernel's cached call in C --------------===//
//
// The CPython extension module _ffrt_fastcall. flashfuser.Kernel's cached
// per-call path (python/flashfuser/kernel.py, Kernel._cached) costs ~11 us
// of host time in Python, several times a small chain's GPU time; this
// module runs the steady state of that path in C. Python registers each
// launch it has validated (the argument layout, pointers, device and stream
// it was made for, and what to run: ffrt_launch with a prebuilt ffrt_tensor
// array, or ffrt_graph_launch of a recorded CUDA graph); a call whose
// arguments match one is launched here, any other call returns None and
// takes the Python path, which decides and registers. Nothing is decided
// here: a miss always falls back, so this module can only skip work whose
// outcome Python already fixed (docs/runtime.md, "Per call").
//
// No link dependencies: the ffrt entry points arrive as addresses from
// ctypes, the torch hooks as Python callables. Where ffrt offers it, the
// capture and device checks ask the driver instead of PyTorch's hooks.
// Where PyTorch publishes DLPack's C exchange API (2.10+), the tensors'
// pointers and layouts and the current stream are read through it: a few
// loads per tensor where calling data_ptr() and PyTorch's layout guard
// took ~1.5 us of a ~5.5 us call (docs/runtime.md, "The cached call in C").
//
//===----------------------------------------------------------------------===//

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr Py_ssize_t kMaxArgs = 16;
constexpr size_t kMaxEntries = 32;
constexpr int kMaxDims = 8;

// DLPack's C exchange API (dlpack.h 1.2+, DLPackExchangeAPI), mirrored in
// its ABI layout: PyTorch publishes one as the capsule
// torch.Tensor.__dlpack_c_exchange_api__ ("dlpack_exchange_api").
struct DLDevice {
  int32_t deviceType;
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; ///< elements; NULL: compact row-major
  uint64_t byteOffset;
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  DLPackExchangeAPIHeader *prevApi;
};
struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  void *managedTensorAllocator;
  void *managedTensorFromPyObjectNoSync;
  void *managedTensorToPyObjectNoSync;
  /// Fills a DLTensor viewing the object (no ownership, no sync): 0, or -1
  /// with a Python exception set.
  int (*dltensorFromPyObjectNoSync)(void *pyObject, DLTensor *out);
  /// The framework's current stream of a device: 0, or -1 with an
  /// exception set.
  int (*currentWorkStream)(int deviceType, int32_t deviceId, void **out);
};
constexpr int32_t kDLCUDA = 2;

/// What the fast path compares of a tensor read through DLPack: what
/// Kernel's layout key holds (shape, strides, dtype, device).
/// Left uninitialized (a call's arrays of them sit on its stack): readDl
/// fills every field that operator== reads.
struct DlLayout {
  int32_t ndim;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];
  DLDataType dtype;
  DLDevice device;

  bool operator==(const DlLayout &o) const {
    if (ndim != o.ndim || dtype.code != o.dtype.code ||
        dtype.bits != o.dtype.bits || dtype.lanes != o.dtype.lanes ||
        device.deviceType != o.device.deviceType ||
        device.deviceId != o.device.deviceId)
      return false;
    for (int32_t i = 0; i < ndim; ++i)
      if (shape[i] != o.shape[i] || strides[i] != o.strides[i])
        return false;
    return true;
  }
};

/// Reads `t` through the exchange API into its layout and data pointer;
/// false (no exception) when the API refuses it or it has too many dims.
bool readDl(const DLPackExchangeAPI *api, PyObject *t, DlLayout &lay,
            uint64_t &ptr) {
  DLTensor dt = {};
  if (api->dltensorFromPyObjectNoSync(t, &dt) != 0) {
    PyErr_Clear();
    return false;
  }
  if (dt.ndim < 0 || dt.ndim > kMaxDims || (dt.ndim && !dt.shape))
    return false;
  lay.ndim = dt.ndim;
  lay.dtype = dt.dtype;
  lay.device = dt.device;
  int64_t stride = 1;
  for (int32_t i = dt.ndim; i-- > 0;) {
    lay.shape[i] = dt.shape[i];
    lay.strides[i] = dt.strides ? dt.strides[i] : stride;
    stride *= dt.shape[i];
  }
  ptr = reinterpret_cast<uintptr_t>(dt.data) + dt.byteOffset;
  return true;
}

/// The object a weak reference points to (borrowed, compared by identity
/// only), or nullptr where it is gone.
PyObject *weakTarget(PyObject *ref) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject *obj = nullptr;
  if (PyWeakref_GetRef(ref, &obj) < 0) {
    PyErr_Clear();
    return nullptr;
  }
  Py_XDECREF(obj); // identity only: the caller holds the argument
  return obj;
#else
  PyObject *obj = PyWeakref_GetObject(ref);
  return obj == Py_None ? nullptr : obj;
#endif
}

using LaunchFn = int (*)(void *bundle, const void *args, int nargs,
                         void *stream);
using GraphLaunchFn = int (*)(void *graph, void *stream);
using EpochFn = uint64_t (*)(const void *bundle);
using CapturingFn = int (*)(void *stream);
using CurrentDeviceFn = int (*)();

/// What an entry runs: an ffrt entry point called directly, or a Python
/// callable (tests' stand-ins; PyTorch's CUDAGraph.replay) returning None
/// or ffrt's status. `handle` points at the bundle or graph pointer inside a
/// ctypes object `keep` holds, so a handle Python closes (NULL) is seen.
struct Target {
  enum Kind { Callable, Launch, GraphLaunch, Epoch } kind = Callable;
  void *fn = nullptr;
  void **handle = nullptr;
  const void *args = nullptr;
  int nargs = 0;
  void *stream = nullptr;
  PyObject *keep = nullptr; ///< owns handle/args, or is the callable
};

struct Entry {
  PyObject *token = nullptr;  ///< Python's key of the launch (discard())
  PyObject *layout = nullptr; ///< per argument (shape, strides, dtype, device)
  /// Optional: called with the arguments, true where their layouts are the
  /// registered ones (a check in C++ that PyTorch offers, cheaper than
  /// reading shape, stride(), dtype and device of each; kernel.py). Where
  /// set it replaces the comparison with `layout`; it may be stricter.
  PyObject *guard = nullptr;
  PyObject *alloc = nullptr;  ///< makes `out` when the call omits it
  std::vector<uint64_t> ptrs; ///< data pointers, out's last
  /// Where registered with the call's arguments and the exchange API: per
  /// argument its layout, exact type (owned) and a weak reference to it
  /// (nullptr where the type takes none). Calls whose arguments match these
  /// skip `guard`/`layout`; the guard still runs for an argument that is
  /// not the registered object, as what DLPack does not show (PyTorch's
  /// negative and conjugate bits) can differ only between objects.
  std::vector<DlLayout> dl;
  std::vector<PyObject *> types;
  std::vector<PyObject *> refs;
  long long device = 0;
  uint64_t stream = 0;
  bool graph = false;   ///< current stream only, not capturing, same epoch
  bool eagerOk = false; ///< a launch usable when no stream is given
  uint64_t epochAt = 0;
  Target target;

  /// Arguments a call passes (out included if given): one layout each.
  Py_ssize_t nargs() const { return PyTuple_GET_SIZE(layout); }
};

struct FastCall {
  PyObject_HEAD vectorcallfunc vectorcall;
  std::vector<Entry> *entries;
  unsigned long long generation; ///< bumped whenever the entries change
  PyObject *curDevice;           ///< () -> current device index
  PyObject *rawStream;           ///< (device) -> current stream handle
  PyObject *isCapturing;         ///< () -> whether the current stream captures
  /// Optional ffrt_stream_capturing: asks the driver about the call's stream
  /// handle in place of isCapturing, whose Python call costs more.
  CapturingFn streamCapturing;
  /// Optional ffrt_current_device: asks the driver in place of curDevice.
  CurrentDeviceFn currentDevice;
  /// Optional DLPack exchange API (owned by `dlCapsule`) and the types it
  /// reads (a tuple: torch.Tensor, torch.nn.Parameter).
  const DLPackExchangeAPI *dl;
  PyObject *dlCapsule;
  PyObject *tensorTypes;
  Target epoch;                  ///< () -> the runtime's freed-buffer count
  unsigned long long hits, misses;
};

void clearTarget(Target &t) { Py_CLEAR(t.keep); }

void clearEntry(Entry &e) {
  Py_CLEAR(e.token);
  Py_CLEAR(e.layout);
  Py_CLEAR(e.guard);
  Py_CLEAR(e.alloc);
  for (PyObject *&o : e.types)
    Py_CLEAR(o);
  for (PyObject *&o : e.refs)
    Py_CLEAR(o);
  clearTarget(e.target);
}

/// Whether `type` is one of the types the exchange API reads.
bool trustedType(const FastCall *self, PyTypeObject *type) {
  if (!self->tensorTypes)
    return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->tensorTypes); ++i)
    if (PyTuple_GET_ITEM(self->tensorTypes, i) ==
        reinterpret_cast<PyObject *>(type))
      return true;
  return false;
}

/// Reads every argument through the exchange API: false (no exception)
/// unless all are of a trusted type and read.
bool readAllDl(const FastCall *self, PyObject *const *argv, Py_ssize_t n,
               DlLayout *lay, uint64_t *ptrs) {
  if (!self->dl)
    return false;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!trustedType(self, Py_TYPE(argv[i])) ||
        !readDl(self->dl, argv[i], lay[i], ptrs[i]))
      return false;
  return true;
}

/// The address a ctypes object's buffer starts at (a c_void_p's value
/// slot, an array's first element); nullptr with an exception set.
void *bufferOf(PyObject *obj) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0)
    return nullptr;
  void *p = view.buf;
  PyBuffer_Release(&view);
  if (!p)
    PyErr_SetString(PyExc_ValueError, "empty buffer");
  return p;
}

bool toU64(PyObject *o, uint64_t &out) {
  if (o == Py_None) {
    out = 0;
    return true;
  }
  out = PyLong_AsUnsignedLongLong(o);
  return !(out == static_cast<uint64_t>(-1) && PyErr_Occurred());
}

/// An ffrt entry point's address (a Python int, never 0); false with an
/// exception set.
bool functionAddress(PyObject *fn, void *&out) {
  uint64_t addr = 0;
  if (!toU64(fn, addr))
    return false;
  if (!addr) {
    PyErr_SetString(PyExc_ValueError, "null function address");
    return false;
  }
  out = reinterpret_cast<void *>(static_cast<uintptr_t>(addr));
  return true;
}

/// Parses a target: a callable, or ("ffrt_launch", fn, bundle, array,
/// stream), ("ffrt_graph_launch", fn, graph, stream), ("ffrt_bundle_epoch",
/// fn, bundle) with fn an address and bundle/graph ctypes c_void_p objects.
bool parseTarget(PyObject *spec, Target &t) {
  if (!PyTuple_Check(spec)) {
    if (!PyCallable_Check(spec)) {
      PyErr_SetString(PyExc_TypeError, "target must be callable or a tuple");
      return false;
    }
    t.kind = Target::Callable;
    Py_INCREF(spec);
    t.keep = spec;
    return true;
  }
  const char *name = nullptr;
  PyObject *fn = nullptr, *handle = nullptr, *a = nullptr, *b = nullptr;
  if (!PyArg_ParseTuple(spec, "sOO|OO", &name, &fn, &handle, &a, &b))
    return false;
  if (!functionAddress(fn, t.fn))
    return false;
  t.handle = static_cast<void **>(bufferOf(handle));
  if (!t.handle)
    return false;
  uint64_t stream = 0;
  PyObject *keep = nullptr;
  std::string kind(name);
  if (kind == "ffrt_launch" && a && b) {
    if (!toU64(b, stream))
      return false;
    t.kind = Target::Launch;
    t.args = bufferOf(a);
    if (!t.args)
      return false;
    Py_ssize_t n = PyObject_Length(a);
    if (n < 0)
      return false;
    t.nargs = static_cast<int>(n);
    keep = PyTuple_Pack(2, handle, a);
  } else if (kind == "ffrt_graph_launch" && a && !b) {
    if (!toU64(a, stream))
      return false;
    t.kind = Target::GraphLaunch;
    keep = PyTuple_Pack(1, handle);
  } else if (kind == "ffrt_bundle_epoch" && !a) {
    t.kind = Target::Epoch;
    keep = PyTuple_Pack(1, handle);
  } else {
    PyErr_Format(PyExc_ValueError, "unknown target %R", spec);
    return false;
  }
  if (!keep)
    return false;
  t.stream = reinterpret_cast<void *>(static_cast<uintptr_t>(stream));
  t.keep = keep;
  return true;
}

/// Runs a launch target: 0 on success, ffrt's nonzero status, or -1 with a
/// Python exception set. A native target whose handle was closed is a miss
/// (1 in *closed): Python's path then reports it.
int runTarget(const Target &t, bool &closed) {
  closed = false;
  if (t.kind == Target::Callable) {
    PyObject *r = PyObject_CallNoArgs(t.keep);
    if (!r)
      return -1;
    long rc = r == Py_None ? 0 : PyLong_AsLong(r);
    Py_DECREF(r);
    if (rc == -1 && PyErr_Occurred())
      return -1;
    return static_cast<int>(rc);
  }
  void *h = *t.handle;
  if (!h) {
    closed = true;
    return 0;
  }
  int rc = 0;
  Py_BEGIN_ALLOW_THREADS;
  if (t.kind == Target::Launch)
    rc = reinterpret_cast<LaunchFn>(t.fn)(h, t.args, t.nargs, t.stream);
  else
    rc = reinterpret_cast<GraphLaunchFn>(t.fn)(h, t.stream);
  Py_END_ALLOW_THREADS;
  return rc;
}

/// The epoch target's value; false with an exception set.
bool readEpoch(const Target &t, uint64_t &out) {
  if (t.kind == Target::Epoch) {
    void *h = *t.handle;
    out = h ? reinterpret_cast<EpochFn>(t.fn)(h) : 0;
    return true;
  }
  PyObject *r = PyObject_CallNoArgs(t.keep);
  if (!r)
    return false;
  bool ok = toU64(r, out);
  Py_DECREF(r);
  return ok;
}

/// Kernel's _stream_handle: an int, __cuda_stream__()[1] or .cuda_stream;
/// false (no exception) for anything else.
bool streamHandle(PyObject *stream, uint64_t &out) {
  PyObject *v = nullptr;
  if (PyLong_Check(stream)) {
    Py_INCREF(stream);
    v = stream;
  } else if (PyObject_HasAttrString(stream, "__cuda_stream__")) {
    PyObject *pair = PyObject_CallMethod(stream, "__cuda_stream__", nullptr);
    if (pair && PySequence_Check(pair))
      v = PySequence_GetItem(pair, 1);
    Py_XDECREF(pair);
  } else {
    v = PyObject_GetAttrString(stream, "cuda_stream");
  }
  bool ok = v && toU64(v, out);
  Py_XDECREF(v);
  if (!ok)
    PyErr_Clear();
  return ok;
}

/// What the call's arguments are, read the way Kernel._cached reads them.
struct ArgInfo {
  PyObject *shape = nullptr, *strides = nullptr, *dtype = nullptr,
           *device = nullptr;
  uint64_t ptr = 0;

  ~ArgInfo() {
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    Py_XDECREF(dtype);
    Py_XDECREF(device);
  }

  /// The data pointer; false (no exception) when `t` has none.
  bool readPtr(PyObject *t) {
    static PyObject *sDataPtr = PyUnicode_InternFromString("data_ptr");
    PyObject *p = PyObject_CallMethodNoArgs(t, sDataPtr);
    bool ok = p && toU64(p, ptr);
    Py_XDECREF(p);
    if (!ok)
      PyErr_Clear();
    return ok;
  }

  /// Shape, strides, dtype and device; false (no exception) when `t` is
  /// not a tensor-like object.
  bool readLayout(PyObject *t) {
    static PyObject *sShape = PyUnicode_InternFromString("shape");
    static PyObject *sStride = PyUnicode_InternFromString("stride");
    static PyObject *sDtype = PyUnicode_InternFromString("dtype");
    static PyObject *sDevice = PyUnicode_InternFromString("device");
    bool ok = (shape = PyObject_GetAttr(t, sShape)) &&
              (strides = PyObject_CallMethodNoArgs(t, sStride)) &&
              (dtype = PyObject_GetAttr(t, sDtype)) &&
              (device = PyObject_GetAttr(t, sDevice));
    if (!ok)
      PyErr_Clear();
    return ok;
  }
};

/// Whether `a` equals `b` (identity first); -1 with an exception set.
int equal(PyObject *a, PyObject *b) {
  return a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ);
}

/// Whether the n args match a registered layout; -1 with an exception set.
int layoutMatches(PyObject *layout, Py_ssize_t n, const ArgInfo *args) {
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *lay = PyTuple_GET_ITEM(layout, i);
    const ArgInfo &a = args[i];
    PyObject *want[4] = {PyTuple_GET_ITEM(lay, 0), PyTuple_GET_ITEM(lay, 1),
                         PyTuple_GET_ITEM(lay, 2), PyTuple_GET_ITEM(lay, 3)};
    PyObject *got[4] = {a.shape, a.strides, a.dtype, a.device};
    for (int j = 0; j < 4; ++j) {
      int eq = equal(got[j], want[j]);
      if (eq <= 0)
        return eq;
    }
  }
  return 1;
}

// ---------------------------------------------------------------------------
// The FastCall type
// ---------------------------------------------------------------------------

PyObject *fastVectorcall(PyObject *callable, PyObject *const *args,
                         size_t nargsf, PyObject *kwnames);

PyObject *fastNew(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  PyObject *cur, *raw, *cap, *epoch, *streamCap = Py_None, *curDev = Py_None,
                                     *dlpack = Py_None, *types = Py_None;
  static const char *kwlist[] = {
      "cur_device", "raw_stream",       "is_capturing",
      "epoch",      "stream_capturing", "current_device",
      "dlpack",     "tensor_types",     nullptr};
  if (!PyArg_ParseTupleAndKeywords(
          args, kwds, "OOOO|OOOO", const_cast<char **>(kwlist), &cur, &raw,
          &cap, &epoch, &streamCap, &curDev, &dlpack, &types))
    return nullptr;
  // (name, address) of an ffrt entry point, or None.
  auto entryPoint = [](PyObject *spec, const char *want, void *&out) {
    out = nullptr;
    if (spec == Py_None)
      return true;
    const char *name = nullptr;
    PyObject *fn = nullptr;
    if (!PyTuple_Check(spec) || !PyArg_ParseTuple(spec, "sO", &name, &fn) ||
        std::string(name) != want) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "expected (\"%s\", address), not %R", want,
                   spec);
      return false;
    }
    return functionAddress(fn, out);
  };
  void *capFn = nullptr, *devFn = nullptr;
  if (!entryPoint(streamCap, "ffrt_stream_capturing", capFn) ||
      !entryPoint(curDev, "ffrt_current_device", devFn))
    return nullptr;
  const DLPackExchangeAPI *dl = nullptr;
  if (dlpack != Py_None) {
    dl = static_cast<const DLPackExchangeAPI *>(
        PyCapsule_GetPointer(dlpack, "dlpack_exchange_api"));
    if (!dl)
      return nullptr;
    if (dl->header.version.major != 1 || dl->header.version.minor < 2 ||
        !dl->dltensorFromPyObjectNoSync || !dl->currentWorkStream) {
      PyErr_Format(PyExc_ValueError,
                   "dlpack: exchange API %u.%u without the DLTensor and "
                   "stream queries",
                   dl->header.version.major, dl->header.version.minor);
      return nullptr;
    }
    if (!PyTuple_Check(types) || PyTuple_GET_SIZE(types) < 1) {
      PyErr_SetString(PyExc_TypeError,
                      "dlpack needs tensor_types: a tuple of the types it "
                      "reads");
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(types); ++i)
      if (!PyType_Check(PyTuple_GET_ITEM(types, i))) {
        PyErr_SetString(PyExc_TypeError, "tensor_types must hold types");
        return nullptr;
      }
  }
  if (!PyCallable_Check(cur) || !PyCallable_Check(raw) ||
      !PyCallable_Check(cap)) {
    PyErr_SetString(PyExc_TypeError, "torch hooks must be callable");
    return nullptr;
  }
  Target ep;
  if (epoch != Py_None && !parseTarget(epoch, ep))
    return nullptr;
  if (epoch != Py_None && ep.kind != Target::Callable &&
      ep.kind != Target::Epoch) {
    clearTarget(ep);
    PyErr_SetString(PyExc_ValueError, "epoch must be an ffrt_bundle_epoch");
    return nullptr;
  }
  auto *self = reinterpret_cast<FastCall *>(type->tp_alloc(type, 0));
  if (!self) {
    clearTarget(ep);
    return nullptr;
  }
  self->vectorcall = fastVectorcall;
  self->entries = new std::vector<Entry>();
  self->generation = 0;
  Py_INCREF(cur);
  Py_INCREF(raw);
  Py_INCREF(cap);
  self->curDevice = cur;
  self->rawStream = raw;
  self->isCapturing = cap;
  self->streamCapturing = reinterpret_cast<CapturingFn>(capFn);
  self->currentDevice = reinterpret_cast<CurrentDeviceFn>(devFn);
  self->dl = dl;
  self->dlCapsule = dl ? (Py_INCREF(dlpack), dlpack) : nullptr;
  self->tensorTypes = dl ? (Py_INCREF(types), types) : nullptr;
  self->epoch = ep;
  self->hits = self->misses = 0;
  return reinterpret_cast<PyObject *>(self);
}

void clearEntries(FastCall *self) {
  ++self->generation;
  // Entries go before anything they reference is released: a destructor
  // run by a DECREF may re-enter this object.
  std::vector<Entry> old;
  old.swap(*self->entries);
  for (Entry &e : old)
    clearEntry(e);
}

int fastTraverse(FastCall *self, visitproc visit, void *arg) {
  Py_VISIT(self->curDevice);
  Py_VISIT(self->rawStream);
  Py_VISIT(self->isCapturing);
  Py_VISIT(self->dlCapsule);
  Py_VISIT(self->tensorTypes);
  Py_VISIT(self->epoch.keep);
  if (self->entries) {
    for (Entry &e : *self->entries) {
      Py_VISIT(e.token);
      Py_VISIT(e.layout);
      Py_VISIT(e.guard);
      Py_VISIT(e.alloc);
      Py_VISIT(e.target.keep);
      for (PyObject *o : e.types)
        Py_VISIT(o);
      for (PyObject *o : e.refs)
        Py_VISIT(o);
    }
  }
  return 0;
}

int fastClearRefs(FastCall *self) {
  if (self->entries)
    clearEntries(self);
  Py_CLEAR(self->curDevice);
  Py_CLEAR(self->rawStream);
  Py_CLEAR(self->isCapturing);
  Py_CLEAR(self->dlCapsule);
  Py_CLEAR(self->tensorTypes);
  self->dl = nullptr;
  clearTarget(self->epoch);
  return 0;
}

void fastDealloc(FastCall *self) {
  PyObject_GC_UnTrack(self);
  fastClearRefs(self);
  delete self->entries;
  self->entries = nullptr;
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

/// Removes the entries whose token equals `token`; -1 with an exception.
int discardToken(FastCall *self, PyObject *token) {
  std::vector<Entry> &v = *self->entries;
  for (size_t i = 0; i < v.size();) {
    int eq = equal(v[i].token, token);
    if (eq < 0)
      return -1;
    if (!eq) {
      ++i;
      continue;
    }
    Entry e = v[i];
    v.erase(v.begin() + i);
    ++self->generation;
    clearEntry(e);
  }
  return 0;
}

PyObject *fastAdd(FastCall *self, PyObject *args, PyObject *kwds) {
  PyObject *token, *layout, *alloc, *ptrs, *target, *guard = Py_None,
                                                    *exemplars = Py_None;
  long long device;
  unsigned long long stream, epochAt = 0;
  int graph = 0, eagerOk = 0;
  static const char *kwlist[] = {
      "token", "layout",   "alloc",    "ptrs",  "device",    "stream", "target",
      "graph", "eager_ok", "epoch_at", "guard", "exemplars", nullptr};
  if (!PyArg_ParseTupleAndKeywords(
          args, kwds, "OO!OO!LKO|ppKOO", const_cast<char **>(kwlist), &token,
          &PyTuple_Type, &layout, &alloc, &PyTuple_Type, &ptrs, &device,
          &stream, &target, &graph, &eagerOk, &epochAt, &guard, &exemplars))
    return nullptr;
  if (exemplars != Py_None &&
      (!PyTuple_Check(exemplars) ||
       PyTuple_GET_SIZE(exemplars) != PyTuple_GET_SIZE(layout))) {
    PyErr_SetString(PyExc_ValueError,
                    "exemplars must be the call's arguments, one per layout");
    return nullptr;
  }
  if (guard != Py_None && !PyCallable_Check(guard)) {
    PyErr_SetString(PyExc_TypeError, "guard must be callable or None");
    return nullptr;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(layout);
  bool allocates = alloc != Py_None;
  if (n < 1 || n > kMaxArgs ||
      PyTuple_GET_SIZE(ptrs) != n + (allocates ? 1 : 0)) {
    PyErr_SetString(PyExc_ValueError,
                    "layout and pointers disagree or exceed 16 arguments");
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *lay = PyTuple_GET_ITEM(layout, i);
    if (!PyTuple_Check(lay) || PyTuple_GET_SIZE(lay) != 4) {
      PyErr_SetString(PyExc_ValueError,
                      "a layout item is (shape, strides, dtype, device)");
      return nullptr;
    }
  }
  if (allocates && !PyCallable_Check(alloc)) {
    PyErr_SetString(PyExc_TypeError, "alloc must be callable or None");
    return nullptr;
  }
  Entry e;
  e.ptrs.resize(PyTuple_GET_SIZE(ptrs));
  for (size_t i = 0; i < e.ptrs.size(); ++i)
    if (!toU64(PyTuple_GET_ITEM(ptrs, i), e.ptrs[i]))
      return nullptr;
  if (!parseTarget(target, e.target))
    return nullptr;
  if (e.target.kind == Target::Epoch ||
      (graph && e.target.kind == Target::Launch) ||
      (!graph && e.target.kind == Target::GraphLaunch)) {
    clearTarget(e.target);
    PyErr_SetString(PyExc_ValueError, "target does not fit the entry kind");
    return nullptr;
  }
  if (graph && !self->epoch.keep) {
    clearTarget(e.target);
    PyErr_SetString(PyExc_ValueError, "graph entries need an epoch");
    return nullptr;
  }
  if (discardToken(self, token) < 0) {
    clearTarget(e.target);
    return nullptr;
  }
  Py_INCREF(token);
  Py_INCREF(layout);
  Py_XINCREF(allocates ? alloc : nullptr);
  e.token = token;
  e.layout = layout;
  if (guard != Py_None) {
    Py_INCREF(guard);
    e.guard = guard;
  }
  e.alloc = allocates ? alloc : nullptr;
  // The registering call's arguments, read through the exchange API: kept
  // only where every one reads and points where `ptrs` says.
  if (exemplars != Py_None) {
    PyObject *const *ex = PySequence_Fast_ITEMS(exemplars);
    DlLayout lay[kMaxArgs];
    uint64_t at[kMaxArgs];
    bool ok = readAllDl(self, ex, n, lay, at);
    for (Py_ssize_t i = 0; ok && i < n; ++i)
      ok = at[i] == e.ptrs[i];
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
      e.dl.push_back(lay[i]);
      PyObject *type = reinterpret_cast<PyObject *>(Py_TYPE(ex[i]));
      Py_INCREF(type);
      e.types.push_back(type);
      PyObject *ref = PyWeakref_NewRef(ex[i], nullptr);
      if (!ref)
        PyErr_Clear();
      e.refs.push_back(ref);
    }
  }
  e.device = device;
  e.stream = stream;
  e.graph = graph;
  e.eagerOk = eagerOk;
  e.epochAt = epochAt;
  std::vector<Entry> &v = *self->entries;
  if (v.size() >= kMaxEntries) { // the oldest goes
    Entry old = v.front();
    v.erase(v.begin());
    clearEntry(old);
  }
  v.push_back(e);
  ++self->generation;
  Py_RETURN_NONE;
}

PyObject *fastDiscard(FastCall *self, PyObject *token) {
  if (discardToken(self, token) < 0)
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *fastClear(FastCall *self, PyObject *) {
  clearEntries(self);
  Py_RETURN_NONE;
}

PyObject *fastStats(FastCall *self, PyObject *) {
  return Py_BuildValue("{sKsKsn}", "hits", self->hits, "misses", self->misses,
                       "entries",
                       static_cast<Py_ssize_t>(self->entries->size()));
}

Py_ssize_t fastLength(FastCall *self) {
  return static_cast<Py_ssize_t>(self->entries->size());
}

/// Lazily read call state: each hook runs at most once per call.
struct CallState {
  FastCall *self;
  PyObject *stream;
  bool haveDevice = false, haveHandle = false, haveCapturing = false,
       haveEpoch = false;
  long long device = 0;
  uint64_t handle = 0, epoch = 0;
  bool handleOk = false, capturing = false;

  /// -1 with an exception set, else whether the current device is `want`.
  int onDevice(long long want) {
    if (!haveDevice && self->currentDevice) {
      // -1 (no current context) leaves the question to PyTorch's hook.
      int d = self->currentDevice();
      if (d >= 0) {
        device = d;
        haveDevice = true;
      }
    }
    if (!haveDevice) {
      PyObject *r = PyObject_CallNoArgs(self->curDevice);
      if (!r)
        return -1;
      device = PyLong_AsLongLong(r);
      Py_DECREF(r);
      if (device == -1 && PyErr_Occurred())
        return -1;
      haveDevice = true;
    }
    return device == want;
  }

  /// -1 with an exception set, else whether the call's stream is `want`.
  /// Only asked once onDevice() held, so the current device is the one.
  int onStream(uint64_t want) {
    if (!haveHandle && stream == Py_None && self->dl) {
      void *s = nullptr;
      if (self->dl->currentWorkStream(kDLCUDA, static_cast<int32_t>(device),
                                      &s) == 0) {
        handle = reinterpret_cast<uintptr_t>(s);
        handleOk = haveHandle = true;
      } else {
        PyErr_Clear(); // PyTorch's hook below
      }
    }
    if (!haveHandle) {
      if (stream == Py_None) {
        PyObject *dev = PyLong_FromLongLong(device);
        if (!dev)
          return -1;
        PyObject *r = PyObject_CallOneArg(self->rawStream, dev);
        Py_DECREF(dev);
        if (!r)
          return -1;
        bool ok = toU64(r, handle);
        Py_DECREF(r);
        if (!ok)
          return -1;
        handleOk = true;
      } else {
        handleOk = streamHandle(stream, handle);
      }
      haveHandle = true;
    }
    return handleOk && handle == want;
  }

  /// Only asked once onStream() held, so `handle` is the current stream's.
  int isCapturing() {
    if (!haveCapturing && self->streamCapturing && haveHandle && handleOk) {
      // -1 (the driver cannot tell) counts as capturing: a miss, and the
      // Python path asks PyTorch. A short driver query: the GIL stays held.
      capturing = self->streamCapturing(reinterpret_cast<void *>(
                      static_cast<uintptr_t>(handle))) != 0;
      haveCapturing = true;
    }
    if (!haveCapturing) {
      PyObject *r = PyObject_CallNoArgs(self->isCapturing);
      if (!r)
        return -1;
      int t = PyObject_IsTrue(r);
      Py_DECREF(r);
      if (t < 0)
        return -1;
      capturing = t;
      haveCapturing = true;
    }
    return capturing;
  }

  int epochIs(uint64_t want) {
    if (!haveEpoch) {
      if (!readEpoch(self->epoch, epoch))
        return -1;
      haveEpoch = true;
    }
    return epoch == want;
  }
};

/// The call of `nin` inputs (out and stream None where not given): out after
/// launching a registered launch that matches; None, having launched
/// nothing, when none does; ffrt's nonzero status (an int) when the launch
/// failed.
PyObject *runCall(FastCall *self, PyObject *const *inputs, Py_ssize_t nin,
                  PyObject *out, PyObject *stream) {
  std::vector<Entry> &entries = *self->entries;
  bool given = out != Py_None;
  Py_ssize_t n = nin + (given ? 1 : 0);
  bool any = false;
  for (const Entry &e : entries)
    any |= e.nargs() == n && (e.alloc == nullptr) == given;
  if (!any || n > kMaxArgs) {
    ++self->misses;
    Py_RETURN_NONE;
  }
  // The arguments in call order (out last, if given), borrowed.
  PyObject *argv2[kMaxArgs] = {};
  ArgInfo info[kMaxArgs];
  for (Py_ssize_t i = 0; i < n; ++i)
    argv2[i] = i < nin ? inputs[i] : out;
  // Pointers and layouts through the exchange API where it reads them all,
  // else each data_ptr().
  DlLayout dlArgs[kMaxArgs];
  uint64_t dlPtrs[kMaxArgs];
  const bool dlRead = readAllDl(self, argv2, n, dlArgs, dlPtrs);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (dlRead) {
      info[i].ptr = dlPtrs[i];
    } else if (!info[i].readPtr(argv2[i])) {
      ++self->misses;
      Py_RETURN_NONE;
    }
  }
  // Layouts are read once, for the first candidate without a guard.
  int haveLayouts = 0; // 1 read, -1 not tensor-like
  auto layoutsMatch = [&](PyObject *layout) -> int {
    if (!haveLayouts) {
      haveLayouts = 1;
      for (Py_ssize_t i = 0; i < n && haveLayouts > 0; ++i)
        if (!info[i].readLayout(argv2[i]))
          haveLayouts = -1;
    }
    return haveLayouts < 0 ? 0 : layoutMatches(layout, n, info);
  };
  auto guardPasses = [&](PyObject *guard) -> int {
    PyObject *r = PyObject_Vectorcall(guard, argv2, n, nullptr);
    if (!r)
      return -1;
    int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
  };
  CallState st{self, stream};
  const unsigned long long generation = self->generation;
  PyObject *made = nullptr; // out allocated for the matching layout
  PyObject *madeBy = nullptr;
  uint64_t madePtr = 0;
  // Newest first: a graph registered after its key's launch wins. Hooks,
  // comparisons and alloc run Python code that may change the entries, so
  // a candidate is copied (its objects referenced) before any of them, and
  // a change of the entries ends the search as a miss.
  for (size_t k = entries.size(); k-- > 0;) {
    const Entry &e = entries[k];
    if (e.nargs() != n || (e.alloc == nullptr) != given)
      continue;
    bool ptrsMatch = true;
    for (Py_ssize_t i = 0; i < n && ptrsMatch; ++i)
      ptrsMatch = info[i].ptr == e.ptrs[i];
    if (!ptrsMatch)
      continue;
    if (e.graph && stream != Py_None)
      continue;
    if (!e.graph && stream == Py_None && !e.eagerOk)
      continue;
    // The registered layouts, compared in C: -1 none kept (the guard or
    // `layout` decides), 0 differ, 1 equal and every argument the
    // registered object, 2 equal but some argument another object.
    int dlMatch = -1;
    if (dlRead && !e.dl.empty()) {
      dlMatch = 1;
      for (Py_ssize_t i = 0; i < n && dlMatch; ++i) {
        if (reinterpret_cast<PyObject *>(Py_TYPE(argv2[i])) != e.types[i] ||
            !(dlArgs[i] == e.dl[i]))
          dlMatch = 0;
        else if (dlMatch == 1 &&
                 (!e.refs[i] || weakTarget(e.refs[i]) != argv2[i]))
          dlMatch = 2;
      }
      if (!dlMatch)
        continue;
    }
    // What the rest reads of `e`, its objects referenced just below.
    const Target target = e.target;
    PyObject *layout = e.layout, *alloc = e.alloc, *guard = e.guard;
    const long long device = e.device;
    const uint64_t want = e.stream, epochAt = e.epochAt;
    const uint64_t outPtr = alloc ? e.ptrs[n] : 0;
    const bool graph = e.graph;
    PyObject *refs[4] = {layout, alloc, target.keep, guard};
    for (PyObject *r : refs)
      Py_XINCREF(r);
    auto release = [&refs] {
      for (PyObject *r : refs)
        Py_XDECREF(r);
    };
    int ok = dlMatch == 1   ? 1
             : dlMatch == 2 ? (guard ? guardPasses(guard) : 1)
             : guard        ? guardPasses(guard)
                            : layoutsMatch(layout);
    if (ok > 0)
      ok = st.onDevice(device);
    if (ok > 0)
      ok = st.onStream(want);
    if (ok > 0 && graph) {
      ok = st.isCapturing();
      ok = ok < 0 ? -1 : !ok;
      if (ok > 0)
        ok = st.epochIs(epochAt);
    }
    if (ok > 0 && alloc) {
      // Entries of one layout share its alloc; out is made once per call.
      if (made && madeBy != alloc)
        Py_CLEAR(made);
      if (!made) {
        made = PyObject_CallNoArgs(alloc);
        PyObject *p =
            made ? PyObject_CallMethod(made, "data_ptr", nullptr) : nullptr;
        ok = p && toU64(p, madePtr) ? 1 : -1;
        Py_XDECREF(p);
        madeBy = alloc;
      }
      if (ok > 0)
        ok = madePtr == outPtr;
    }
    if (ok < 0) {
      release();
      Py_XDECREF(made);
      return nullptr;
    }
    if (!ok || self->generation != generation) {
      release();
      if (!ok && self->generation == generation)
        continue;
      break;
    }
    bool closed = false;
    int rc = runTarget(target, closed); // `refs` keep it alive
    release();
    if (rc < 0) {
      Py_XDECREF(made);
      return nullptr;
    }
    if (closed)
      break;
    ++self->hits;
    if (rc) {
      Py_XDECREF(made);
      return PyLong_FromLong(rc);
    }
    if (made)
      return made;
    Py_INCREF(out);
    return out;
  }
  Py_XDECREF(made);
  ++self->misses;
  Py_RETURN_NONE;
}

/// fast(inputs, out, stream): runCall with the inputs as a tuple.
PyObject *fastVectorcall(PyObject *callable, PyObject *const *argv,
                         size_t nargsf, PyObject *kwnames) {
  Py_ssize_t argc = PyVectorcall_NARGS(nargsf);
  if (argc != 3 || (kwnames && PyTuple_GET_SIZE(kwnames))) {
    PyErr_SetString(PyExc_TypeError,
                    "FastCall takes (inputs, out, stream) positionally");
    return nullptr;
  }
  PyObject *inputs = argv[0];
  if (!PyTuple_Check(inputs)) {
    PyErr_SetString(PyExc_TypeError, "inputs must be a tuple");
    return nullptr;
  }
  return runCall(reinterpret_cast<FastCall *>(callable),
                 PySequence_Fast_ITEMS(inputs), PyTuple_GET_SIZE(inputs),
                 argv[1], argv[2]);
}

// ---------------------------------------------------------------------------
// The KernelCall type: Kernel.__call__ in C
// ---------------------------------------------------------------------------

/// KernelCall(call, missed): a method descriptor that kernel.py installs as
/// Kernel.__call__ once this module loads. k(*inputs, out=, stream=) runs
/// k._fast's registered launches from here, without the Python frame of
/// `call` (the Python __call__, ~0.6 us of a cached call); a miss calls
/// missed(k, inputs, out, stream), anything else (other keywords, no
/// FastCall) `call` itself. `call` stays its __wrapped__, for
/// inspect.signature and help().
struct KernelCall {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject *call;
  PyObject *missed;
};

PyObject *kernelCallVectorcall(PyObject *callable, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames);

PyTypeObject FastCallType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject KernelCallType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyObject *kernelCallNew(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  PyObject *call, *missed;
  static const char *kwlist[] = {"call", "missed", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO",
                                   const_cast<char **>(kwlist), &call, &missed))
    return nullptr;
  if (!PyCallable_Check(call) || !PyCallable_Check(missed)) {
    PyErr_SetString(PyExc_TypeError, "call and missed must be callable");
    return nullptr;
  }
  auto *self = reinterpret_cast<KernelCall *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = kernelCallVectorcall;
  Py_INCREF(call);
  Py_INCREF(missed);
  self->call = call;
  self->missed = missed;
  return reinterpret_cast<PyObject *>(self);
}

int kernelCallTraverse(KernelCall *self, visitproc visit, void *arg) {
  Py_VISIT(self->call);
  Py_VISIT(self->missed);
  return 0;
}

int kernelCallClear(KernelCall *self) {
  Py_CLEAR(self->call);
  Py_CLEAR(self->missed);
  return 0;
}

void kernelCallDealloc(KernelCall *self) {
  PyObject_GC_UnTrack(self);
  kernelCallClear(self);
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

/// k.__call__: bound to the instance, as a function would be.
PyObject *kernelCallGet(PyObject *self, PyObject *obj, PyObject *) {
  if (!obj || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  return PyMethod_New(self, obj);
}

PyObject *kernelCallWrapped(KernelCall *self, void *) {
  Py_INCREF(self->call);
  return self->call;
}

PyObject *kernelCallVectorcall(PyObject *callable, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames) {
  static PyObject *sFast = PyUnicode_InternFromString("_fast");
  static PyObject *sOut = PyUnicode_InternFromString("out");
  static PyObject *sStream = PyUnicode_InternFromString("stream");
  static PyObject *sFailed = PyUnicode_InternFromString("_launch_failed");
  auto *kc = reinterpret_cast<KernelCall *>(callable);
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  // Only k(*inputs, out=..., stream=...) with k a Kernel: anything else is
  // the Python __call__'s to accept or refuse.
  PyObject *out = Py_None, *stream = Py_None;
  bool plain = nargs >= 1;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw && plain; ++i) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, i);
    if (name == sOut || PyUnicode_Compare(name, sOut) == 0)
      out = args[nargs + i];
    else if (name == sStream || PyUnicode_Compare(name, sStream) == 0)
      stream = args[nargs + i];
    else
      plain = false;
  }
  if (!plain)
    return PyObject_Vectorcall(kc->call, args, nargsf, kwnames);
  PyObject *self = args[0];
  PyObject *fast = PyObject_GetAttr(self, sFast);
  if (!fast)
    return nullptr;
  PyObject *r = Py_None;
  if (Py_TYPE(fast) == &FastCallType) {
    r = runCall(reinterpret_cast<FastCall *>(fast), args + 1, nargs - 1, out,
                stream);
    Py_DECREF(fast);
    if (!r || (r != Py_None && !PyLong_CheckExact(r)))
      return r;
    if (r != Py_None) { // ffrt's status of a failed launch: Python raises
      PyObject *res = PyObject_CallMethodOneArg(self, sFailed, r);
      if (!res) {
        Py_DECREF(r);
        return nullptr;
      }
      Py_DECREF(res);
      return r; // as the Python __call__ does where it did not raise
    }
    Py_DECREF(r);
  } else {
    bool none = fast == Py_None;
    Py_DECREF(fast);
    if (!none) // not this module's FastCall: Python's __call__ decides
      return PyObject_Vectorcall(kc->call, args, nargsf, kwnames);
  }
  PyObject *inputs = PyTuple_New(nargs - 1);
  if (!inputs)
    return nullptr;
  for (Py_ssize_t i = 1; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(inputs, i - 1, args[i]);
  }
  PyObject *missArgs[4] = {self, inputs, out, stream};
  PyObject *res = PyObject_Vectorcall(kc->missed, missArgs, 4, nullptr);
  Py_DECREF(inputs);
  return res;
}

PyGetSetDef kernelCallGetSet[] = {
    {"__wrapped__", reinterpret_cast<getter>(kernelCallWrapped), nullptr,
     "the Python __call__ this one runs ahead of", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef fastMethods[] = {
    {"add",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastAdd)),
     METH_VARARGS | METH_KEYWORDS,
     "add(token, layout, alloc, ptrs, device, stream, target, graph=False, "
     "eager_ok=False, epoch_at=0, guard=None, exemplars=None): registers a "
     "validated launch (a launch with the same token is replaced); "
     "guard(*args), where given, checks the arguments' layouts instead of "
     "`layout`; exemplars, the registering call's arguments, let the "
     "DLPack exchange API check them in C"},
    {"discard",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastDiscard)),
     METH_O, "discard(token): forgets the launches registered with token"},
    {"clear",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastClear)),
     METH_NOARGS, "clear(): forgets every launch"},
    {"stats",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastStats)),
     METH_NOARGS, "stats(): {'hits', 'misses', 'entries'}"},
    {nullptr, nullptr, 0, nullptr}};

PySequenceMethods fastSequence = {};

PyModuleDef moduleDef = {PyModuleDef_HEAD_INIT,
                         "_ffrt_fastcall",
                         "flashfuser.Kernel's cached per-call path in C.",
                         -1,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr};

} // namespace

PyMODINIT_FUNC PyInit__ffrt_fastcall(void) {
  fastSequence.sq_length = reinterpret_cast<lenfunc>(fastLength);
  FastCallType.tp_name = "_ffrt_fastcall.FastCall";
  FastCallType.tp_basicsize = sizeof(FastCall);
  FastCallType.tp_flags =
      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  FastCallType.tp_doc =
      "FastCall(cur_device, raw_stream, is_capturing, epoch, "
      "stream_capturing=None, current_device=None, dlpack=None, "
      "tensor_types=None): the launches Kernel registered, run by calling "
      "fast(inputs, out, stream)";
  FastCallType.tp_new = fastNew;
  FastCallType.tp_dealloc = reinterpret_cast<destructor>(fastDealloc);
  FastCallType.tp_traverse = reinterpret_cast<traverseproc>(fastTraverse);
  FastCallType.tp_clear = reinterpret_cast<inquiry>(fastClearRefs);
  FastCallType.tp_methods = fastMethods;
  FastCallType.tp_as_sequence = &fastSequence;
  FastCallType.tp_call = PyVectorcall_Call;
  FastCallType.tp_vectorcall_offset = offsetof(FastCall, vectorcall);
  if (PyType_Ready(&FastCallType) < 0)
    return nullptr;
  KernelCallType.tp_name = "_ffrt_fastcall.KernelCall";
  KernelCallType.tp_basicsize = sizeof(KernelCall);
  KernelCallType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                            Py_TPFLAGS_HAVE_VECTORCALL |
                            Py_TPFLAGS_METHOD_DESCRIPTOR;
  KernelCallType.tp_doc =
      "KernelCall(call, missed): Kernel.__call__ in C; runs the Kernel's "
      "FastCall, on a miss missed(kernel, inputs, out, stream)";
  KernelCallType.tp_new = kernelCallNew;
  KernelCallType.tp_dealloc = reinterpret_cast<destructor>(kernelCallDealloc);
  KernelCallType.tp_traverse =
      reinterpret_cast<traverseproc>(kernelCallTraverse);
  KernelCallType.tp_clear = reinterpret_cast<inquiry>(kernelCallClear);
  KernelCallType.tp_descr_get = kernelCallGet;
  KernelCallType.tp_getset = kernelCallGetSet;
  KernelCallType.tp_call = PyVectorcall_Call;
  KernelCallType.tp_vectorcall_offset = offsetof(KernelCall, vectorcall);
  if (PyType_Ready(&KernelCallType) < 0)
    return nullptr;
  PyObject *m = PyModule_Create(&moduleDef);
  if (!m)
    return nullptr;
  // The module holds a reference to each type it names.
  auto addType = [m](const char *name, PyTypeObject &type) {
    Py_INCREF(&type);
    if (PyModule_AddObject(m, name, reinterpret_cast<PyObject *>(&type)) == 0)
      return true;
    Py_DECREF(&type);
    return false;
  };
  if (!addType("FastCall", FastCallType) ||
      !addType("KernelCall", KernelCallType)) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
