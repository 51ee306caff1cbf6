"""Twenty-ninth session: one GEMM kernel of ours against cuBLAS's, GPU time
per call inside a CUDA graph of 50 back-to-back calls (median of 30
replays after warm-up): the up GEMMs (act(x w^T) -> bf16, gelu_tanh) and
down GEMMs of G4, G6, G7, G9, G10 at the search's choice
(.device/s29s/<G>UP-..., <G>DN-..., rank 0 of smallgemm.py) against
torch.nn.functional.linear (and + F.gelu for the up GEMM, a second kernel), and
an empty kernel (one.add_(1)) for the per-launch floor in a graph."""
import glob
import json
import os
import sys
import torch
import torch.nn.functional as F
sys.path.insert(0, "python")
import flashfuser  # noqa: E402

COPIES, REPS = 50, 30


def per_call_us(fn):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(COPIES):
            fn()
    for _ in range(5):
        g.replay()
    ts = []
    for _ in range(REPS):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3 / COPIES)
    return sorted(ts)[len(ts) // 2]


one = torch.zeros(1, device="cuda")
print(f"empty kernel: {per_call_us(lambda: one.add_(1)):.2f} us")
rows = []
for b in sorted(glob.glob(".device/s29s/*")):
    name = os.path.basename(b)
    w, shape = name.split("-")
    best = json.load(open(b + "/manifest.json"))
    # rank 0 only: the first-listed shape per workload in smallgemm.py's log
    if shape != {"G4UP": "64x64c1", "G6UP": "64x64c1", "G7UP": "64x64c1",
                 "G9UP": "64x64c1", "G10UP": "64x64c1", "G4DN": "64x128c8",
                 "G6DN": "128x128c8", "G7DN": "64x64c1", "G9DN": "64x128c8",
                 "G10DN": "64x128c8"}.get(w):
        continue
    ins = best["chain"]["inputs"]
    m, k = ins[0]["shape"]
    n = ins[1]["shape"][0]
    x = torch.randn(m, k, device="cuda").bfloat16()
    wt = (torch.randn(n, k, device="cuda") / k ** 0.5).bfloat16()
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    kern = flashfuser.load(b)
    ours = per_call_us(lambda: kern(x, wt, out=out))
    up = best["chain"]["activation"] != "identity"
    lin = per_call_us(lambda: F.linear(x, wt))
    cub = per_call_us(lambda: F.gelu(F.linear(x, wt), approximate="tanh")) \
        if up else lin
    ref = F.linear(x.float(), wt.float())
    ref = F.gelu(ref, approximate="tanh") if up else ref
    kern(x, wt, out=out)
    torch.cuda.synchronize()
    err = ((out.float() - ref).norm() / ref.norm()).item()
    rows.append(f"{w:6} {shape:10} ours {ours:6.2f} us  cuBLAS linear "
                f"{lin:6.2f} us" + (f"  linear+gelu {cub:6.2f} us" if up else "")
                + f"  rel_l2 {err:.1e}")
print("\n".join(rows))
