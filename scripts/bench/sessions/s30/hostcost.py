"""Thirtieth session: what the C fast path's host time is made of, on G1's
bundle: each attribute and hook it reads, timed from Python (a loop of
200000, median of 5; the loop's own cost subtracted), the module called
with no matching entry (its read of the arguments), the graph replay
through ctypes, and the whole call."""
import ctypes
import statistics
import sys
import time
import torch
sys.path.insert(0, "python")
import flashfuser  # noqa: E402
from flashfuser import _runtime  # noqa: E402

k = flashfuser.load(sys.argv[1] if len(sys.argv) > 1 else ".device/s29y/G1")
ins = k.inputs
x = torch.randn(128, ins[0]["shape"][1], device="cuda").bfloat16()
ws = [torch.randn(*t["shape"], device="cuda").bfloat16() for t in ins[1:]]
out = torch.empty(*[128 if d == -1 else d for d in k.outputs[0]["shape"]],
                  device="cuda", dtype=torch.bfloat16)
for _ in range(10):
    k(x, *ws, out=out)
torch.cuda.synchronize()
C = torch._C


def ns(fn, n=200000):
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t0) / n * 1e9)
        torch.cuda.synchronize()
    return statistics.median(runs)


base = ns(lambda: None)
fast = k._fast
args = (x, *ws)
other = torch.empty_like(out)
graph = next(iter(k._graphs.values()))[0]
rows = [
    ("x.shape", lambda: x.shape),
    ("x.stride()", lambda: x.stride()),
    ("x.dtype", lambda: x.dtype),
    ("x.device", lambda: x.device),
    ("x.data_ptr()", lambda: x.data_ptr()),
    ("x.get_device()", lambda: x.get_device()),
    ("x.is_cuda", lambda: x.is_cuda),
    ("_cuda_getDevice()", lambda: C._cuda_getDevice()),
    ("_cuda_getCurrentRawStream(0)", lambda: C._cuda_getCurrentRawStream(0)),
    ("_cuda_isCurrentStreamCapturing()",
     lambda: C._cuda_isCurrentStreamCapturing()),
    ("fast(): arity miss", lambda: fast((x,), None, None)),
    ("fast(): pointer miss (reads 4 args)", lambda: fast(args, other, None)),
]
for name, fn in rows:
    print(f"{name:40s} {ns(fn) - base:8.1f} ns")
n = 20000
for name, fn in [("graph.replay() (ctypes, cuGraphLaunch)", graph.replay),
                 ("fast(): hit (graph replay)",
                  lambda: fast(args, out, None)),
                 ("k(x, *ws, out=out)", lambda: k(x, *ws, out=out))]:
    print(f"{name:40s} {ns(fn, n) - base:8.1f} ns")
print(k._fast.stats())
