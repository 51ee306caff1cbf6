"""Thirtieth session: host time of a cached per-call launch with the C fast
path (_ffrt_fastcall) and without it (the pure-Python path), for a bundle
given on the command line (default .device/s29y/G1): calls issued back to
back, no synchronisation inside, the median of 5 runs of 2000; an empty
CUDA graph's replay for scale. Also each path with out= omitted (an output
allocated per call)."""
import os
import sys
import time
import torch
sys.path.insert(0, "python")
import flashfuser  # noqa: E402
from flashfuser import _runtime  # noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else ".device/s29y/G1"
print("fast path:", _runtime.fastcall_status())


def make(fast: bool):
    k = flashfuser.load(path)
    ins = k.inputs
    x = torch.randn(128, ins[0]["shape"][1], device="cuda").bfloat16()
    ws = [torch.randn(*t["shape"], device="cuda").bfloat16()
          for t in ins[1:]]
    out = torch.empty(*[128 if d == -1 else d for d in k.outputs[0]["shape"]],
                      device="cuda", dtype=torch.bfloat16)
    if not fast:
        os.environ["FLASHFUSER_NO_FASTCALL"] = "1"
    k(x, *ws, out=out)          # the first call looks the module up
    os.environ.pop("FLASHFUSER_NO_FASTCALL", None)
    return k, x, ws, out


def host_us(fn, n=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        runs.append((t1 - t0) / n * 1e6)
    return sorted(runs)[2]


one = torch.zeros(1, device="cuda")
g = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    one.add_(1)
torch.cuda.current_stream().wait_stream(s)
with torch.cuda.graph(g):
    one.add_(1)
print(f"empty torch graph replay: {host_us(g.replay):.2f} us host per call")
for fast in (True, False):
    k, x, ws, out = make(fast)
    name = "C fast path" if fast else "Python path"
    print(f"{name}, out given: {host_us(lambda: k(x, *ws, out=out)):.2f} "
          f"us host per call"
          + (f" {k._fast.stats()}" if k._fast is not None else ""))
    print(f"{name}, out allocated: {host_us(lambda: k(x, *ws)):.2f} "
          f"us host per call")
    st = torch.cuda.Stream()
    print(f"{name}, stream given: "
          f"{host_us(lambda: k(x, *ws, out=out, stream=st)):.2f} "
          f"us host per call")
    torch.cuda.synchronize()
