"""Twenty-ninth session: where a cached per-call launch of ours spends its
host time (G1's bundle, .device/s29z/G1): the call timed back to back
(host time per call, no synchronisation inside), the same for an empty
CUDA graph's replay, and a cProfile of 2000 calls."""
import cProfile
import pstats
import sys
import time
import torch
sys.path.insert(0, "python")
import flashfuser  # noqa: E402

k = flashfuser.load(".device/s29z/G1")
ins = k.inputs
x = torch.randn(128, ins[0]["shape"][1], device="cuda").bfloat16()
ws = [torch.randn(*t["shape"], device="cuda").bfloat16() for t in ins[1:]]
out = torch.empty(*[128 if d == -1 else d for d in k.outputs[0]["shape"]],
                  device="cuda", dtype=torch.bfloat16)


def call():
    k(x, *ws, out=out)


one = torch.zeros(1, device="cuda")
g = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    one.add_(1)
torch.cuda.current_stream().wait_stream(s)
with torch.cuda.graph(g):
    one.add_(1)


def host_us(fn, n=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        best.append((t1 - t0) / n * 1e6)
    return sorted(best)[2]


print(f"empty graph replay: {host_us(g.replay):.2f} us host per call")
print(f"ours (G1, cached graph path): {host_us(call):.2f} us host per call")
print(f"ours, k._cached only: {host_us(lambda: k._cached((x, *ws), out, None, None)):.2f}")
pr = cProfile.Profile()
pr.enable()
for _ in range(2000):
    call()
pr.disable()
torch.cuda.synchronize()
pstats.Stats(pr).sort_stats("tottime").print_stats(14)
