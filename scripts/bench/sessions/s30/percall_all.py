"""Thirtieth session: each small G bundle's cached call (fast path),
timed as bench.py's per-call rows time it (events around each call, all
queued, median of 300) and back to back (host time per call), with the fast
path's hit count and the graphs kept: is any set re-captured or launched
directly on every call?"""
import statistics
import sys
import time
import torch
sys.path.insert(0, "python")
import flashfuser  # noqa: E402

root = sys.argv[1] if len(sys.argv) > 1 else ".device/s29y"


def events_us(fn, reps=300):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True),
           torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev) * 1e3


def host_us(fn, n=2000):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


one = torch.zeros(1, device="cuda")
g = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    one.add_(1)
torch.cuda.current_stream().wait_stream(s)
with torch.cuda.graph(g):
    one.add_(1)
print(f"empty graph: events {events_us(g.replay):.1f} us, host "
      f"{host_us(g.replay):.2f} us")
for w in sys.argv[2].split(",") if len(sys.argv) > 2 else \
        ["G1", "G2", "G3", "G4", "G6", "G7", "G9", "G10"]:
    k = flashfuser.load(f"{root}/{w}")
    ins = k.inputs
    x = torch.randn(128, ins[0]["shape"][1], device="cuda").bfloat16()
    ws = [torch.randn(*t["shape"], device="cuda").bfloat16()
          for t in ins[1:]]
    out = torch.empty(*[128 if d == -1 else d for d in k.outputs[0]["shape"]],
                      device="cuda", dtype=torch.bfloat16)

    def call():
        k(x, *ws, out=out)
    ev = [events_us(call) for _ in range(3)]
    h = host_us(call)
    print(f"{w}: events {' '.join(f'{v:.1f}' for v in ev)} us, host "
          f"{h:.2f} us, {k._fast.stats() if k._fast else None}, "
          f"graphs {len(k._graphs)}, counts {list(k._graph_counts.values())}")
