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
// capture check asks the driver about the call's stream handle instead of
// calling PyTorch's hook (the costliest of the three).
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

using LaunchFn = int (*)(void *bundle, const void *args, int nargs,
                         void *stream);
using GraphLaunchFn = int (*)(void *graph, void *stream);
using EpochFn = uint64_t (*)(const void *bundle);
using CapturingFn = int (*)(void *stream);

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
  Target epoch;                  ///< () -> the runtime's freed-buffer count
  unsigned long long hits, misses;
};

void clearTarget(Target &t) { Py_CLEAR(t.keep); }

void clearEntry(Entry &e) {
  Py_CLEAR(e.token);
  Py_CLEAR(e.layout);
  Py_CLEAR(e.guard);
  Py_CLEAR(e.alloc);
  clearTarget(e.target);
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
  PyObject *cur, *raw, *cap, *epoch, *streamCap = Py_None;
  static const char *kwlist[] = {"cur_device",       "raw_stream",
                                 "is_capturing",     "epoch",
                                 "stream_capturing", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|O",
                                   const_cast<char **>(kwlist), &cur, &raw,
                                   &cap, &epoch, &streamCap))
    return nullptr;
  void *capFn = nullptr;
  if (streamCap != Py_None) {
    // ("ffrt_stream_capturing", address)
    const char *name = nullptr;
    PyObject *fn = nullptr;
    if (!PyTuple_Check(streamCap) ||
        !PyArg_ParseTuple(streamCap, "sO", &name, &fn) ||
        std::string(name) != "ffrt_stream_capturing") {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError,
                   "stream_capturing must be (\"ffrt_stream_capturing\", "
                   "address), not %R",
                   streamCap);
      return nullptr;
    }
    if (!functionAddress(fn, capFn))
      return nullptr;
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
  Py_VISIT(self->epoch.keep);
  if (self->entries) {
    for (Entry &e : *self->entries) {
      Py_VISIT(e.token);
      Py_VISIT(e.layout);
      Py_VISIT(e.guard);
      Py_VISIT(e.alloc);
      Py_VISIT(e.target.keep);
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
  PyObject *token, *layout, *alloc, *ptrs, *target, *guard = Py_None;
  long long device;
  unsigned long long stream, epochAt = 0;
  int graph = 0, eagerOk = 0;
  static const char *kwlist[] = {"token",    "layout",   "alloc",  "ptrs",
                                 "device",   "stream",   "target", "graph",
                                 "eager_ok", "epoch_at", "guard",  nullptr};
  if (!PyArg_ParseTupleAndKeywords(
          args, kwds, "OO!OO!LKO|ppKO", const_cast<char **>(kwlist), &token,
          &PyTuple_Type, &layout, &alloc, &PyTuple_Type, &ptrs, &device,
          &stream, &target, &graph, &eagerOk, &epochAt, &guard))
    return nullptr;
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

/// fast(inputs, out, stream): out after launching a registered launch that
/// matches; None, having launched nothing, when none does; ffrt's nonzero
/// status (an int) when the launch failed.
PyObject *fastCall(FastCall *self, PyObject *const *argv, size_t nargsf,
                   PyObject *kwnames) {
  Py_ssize_t argc = PyVectorcall_NARGS(nargsf);
  if (argc != 3 || (kwnames && PyTuple_GET_SIZE(kwnames))) {
    PyErr_SetString(PyExc_TypeError,
                    "FastCall takes (inputs, out, stream) positionally");
    return nullptr;
  }
  PyObject *inputs = argv[0], *out = argv[1], *stream = argv[2];
  if (!PyTuple_Check(inputs)) {
    PyErr_SetString(PyExc_TypeError, "inputs must be a tuple");
    return nullptr;
  }
  std::vector<Entry> &entries = *self->entries;
  Py_ssize_t nin = PyTuple_GET_SIZE(inputs);
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
  PyObject *argv2[kMaxArgs];
  ArgInfo info[kMaxArgs];
  for (Py_ssize_t i = 0; i < n; ++i) {
    argv2[i] = i < nin ? PyTuple_GET_ITEM(inputs, i) : out;
    if (!info[i].readPtr(argv2[i])) {
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
    int ok = guard ? guardPasses(guard) : layoutsMatch(layout);
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

PyObject *fastVectorcall(PyObject *callable, PyObject *const *args,
                         size_t nargsf, PyObject *kwnames) {
  return fastCall(reinterpret_cast<FastCall *>(callable), args, nargsf,
                  kwnames);
}

PyMethodDef fastMethods[] = {
    {"add",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastAdd)),
     METH_VARARGS | METH_KEYWORDS,
     "add(token, layout, alloc, ptrs, device, stream, target, graph=False, "
     "eager_ok=False, epoch_at=0, guard=None): registers a validated "
     "launch (a launch with the same token is replaced); guard(*args), "
     "where given, checks the arguments' layouts instead of `layout`"},
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

PyTypeObject FastCallType = {PyVarObject_HEAD_INIT(nullptr, 0)};

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
      "stream_capturing=None): the launches Kernel registered, run by "
      "calling fast(inputs, out, stream)";
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
  PyObject *m = PyModule_Create(&moduleDef);
  if (!m)
    return nullptr;
  Py_INCREF(&FastCallType);
  if (PyModule_AddObject(m, "FastCall",
                         reinterpret_cast<PyObject *>(&FastCallType)) < 0) {
    Py_DECREF(&FastCallType);
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
