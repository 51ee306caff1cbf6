"""Thirty-third session: the GPU-side gap per call, direct launch against
graph replay. One PyTorch matmul (sizes for ~3, ~12 and ~25 us), timed as
bench.py times a call (events around each call, all queued, median of
300): launched directly, and replayed from a one-node CUDA graph; with the
host time per call back to back. Where the call outlasts its host time the
queue fills, and event time minus kernel time (the graph of 20 calls,
per call) is the gap the launch itself costs the GPU."""
import sys
import torch

sys.path.insert(0, "scripts/bench/sessions/s33")
from emptyprobe import events_us, host_us  # noqa: E402

print(torch.cuda.get_device_name())
for m, n, k in ((1024, 1024, 512), (4096, 2048, 1024), (4096, 4096, 1024)):
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    fn = lambda: torch.mm(a, b, out=c)  # noqa: E731
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    g1, g20 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
    with torch.cuda.graph(g1):
        fn()
    with torch.cuda.graph(g20):
        for _ in range(20):
            fn()
    kern = events_us(g20.replay, 50) / 20
    d = [events_us(fn) for _ in range(3)]
    g = [events_us(g1.replay) for _ in range(3)]
    print(f"mm {m}x{n}x{k}: kernel {kern:.2f} us (graph of 20); direct "
          f"{min(d):.2f} us by events ({host_us(fn):.2f} host), gap "
          f"{min(d) - kern:.2f}; graph replay {min(g):.2f} "
          f"({host_us(g1.replay):.2f} host), gap {min(g) - kern:.2f}")
