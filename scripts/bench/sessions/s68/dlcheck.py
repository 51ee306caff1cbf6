import torch, ctypes
for n in ("__dlpack_c_exchange_api__", "__c_dlpack_exchange_api__"):
    print(n, hasattr(torch.Tensor, n), type(getattr(torch.Tensor, n, None)))
cap = getattr(torch.Tensor, "__dlpack_c_exchange_api__", None) or getattr(torch.Tensor, "__c_dlpack_exchange_api__", None)
if cap is not None:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p; get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    name = ctypes.pythonapi.PyCapsule_GetName; name.restype = ctypes.c_char_p; name.argtypes=[ctypes.py_object]
    nm = name(cap); print("capsule name", nm)
    p = get(cap, nm)
    words = (ctypes.c_uint64 * 7).from_address(p)
    ver = (ctypes.c_uint32 * 2).from_address(p)
    print("version", ver[0], ver[1], "ptrs", [hex(w) for w in words[1:]])
    class DLDevice(ctypes.Structure): _fields_=[("t",ctypes.c_int32),("id",ctypes.c_int32)]
    class DLDataType(ctypes.Structure): _fields_=[("code",ctypes.c_uint8),("bits",ctypes.c_uint8),("lanes",ctypes.c_uint16)]
    class DLTensor(ctypes.Structure): _fields_=[("data",ctypes.c_void_p),("device",DLDevice),("ndim",ctypes.c_int32),("dtype",DLDataType),("shape",ctypes.POINTER(ctypes.c_int64)),("strides",ctypes.POINTER(ctypes.c_int64)),("byte_offset",ctypes.c_uint64)]
    F = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(DLTensor))
    S = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))
    f = F(words[5]); s = S(words[6])
    x = torch.randn(64, 32, device="cuda", dtype=torch.bfloat16)[:, 8:]
    d = DLTensor(); rc = f(x, ctypes.byref(d))
    print("rc", rc, hex(d.data or 0), hex(x.data_ptr()), d.device.t, d.device.id, d.ndim, d.dtype.code, d.dtype.bits, d.dtype.lanes, [d.shape[i] for i in range(d.ndim)], [d.strides[i] for i in range(d.ndim)], d.byte_offset)
    pp = torch.nn.Parameter(torch.randn(4, device="cuda"))
    print("param rc", f(pp, ctypes.byref(d)), d.ndim)
    for st in (None, torch.cuda.Stream()):
        if st is None:
            out = ctypes.c_void_p(); print("stream rc", s(2, 0, ctypes.byref(out)), out.value, torch._C._cuda_getCurrentRawStream(0))
        else:
            with torch.cuda.stream(st):
                out = ctypes.c_void_p(); print("stream rc", s(2, 0, ctypes.byref(out)), out.value, torch._C._cuda_getCurrentRawStream(0))
    try:
        n = x._neg_view(); print("neg rc", f(n, ctypes.byref(d)))
    except Exception as e: print("neg exc", e)
    import time
    t0=time.perf_counter()
    for _ in range(100000): f(x, ctypes.byref(d))
    print("ctypes conv us", (time.perf_counter()-t0)*10)
