"""Why the unfused 3x3 conv chain of flashfuser.fallback is slower than the
eager chain in a CUDA graph (C5-C8): times the chain with the first conv's
HWCF filter as the fallback passes it (a permuted view), repacked to
channels_last OIHW on every call, and repacked once, next to the eager chain
with OIHW channels_last filters (as scripts/bench/bench.py lays them out).
Each variant is captured in a CUDA graph; median of 100 replays (events).
Run on a GPU machine from the repository root:
    python3 scripts/bench/conv_filter_layout.py
"""
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, "scripts/bench")
from workloads import C
torch.backends.cudnn.benchmark = False
dev = "cuda"


def timed(fn, reps=100):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3): fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g): fn()
    for _ in range(10): g.replay()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b) * 1e3)
    ts.sort(); return ts[len(ts) // 2]


print("| workload | eager | fallback now | repack per call | repack once | max err now | max err repack |")
print("|---|---|---|---|---|---|---|")
for name, ic, h, w, oc1, oc2, k1, k2 in C:
    if k1 != 3: continue
    for bsz in (1, 32):
        g = torch.Generator(device=dev).manual_seed(0)
        x = torch.randn(bsz, h, w, ic, generator=g, device=dev).bfloat16()            # NHWC
        w1 = (torch.randn(3, 3, ic, oc1, generator=g, device=dev) / (9 * ic) ** .5).bfloat16()  # HWCF
        w2 = (torch.randn(1, 1, oc1, oc2, generator=g, device=dev) / oc1 ** .5).bfloat16()
        out = torch.empty(bsz, h, w, oc2, device=dev, dtype=torch.bfloat16)
        # eager as bench.py lays it out: channels_last NCHW input and OIHW filters
        xe = x.permute(0, 3, 1, 2)
        c1 = w1.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
        c2 = w2.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
        def eager(): return F.conv2d(F.conv2d(xe, c1, padding=1).relu_(), c2)
        fnow = w1.permute(3, 2, 0, 1); b = w2.view(oc1, oc2)
        def tail(c): torch.mm(c.relu_().permute(0, 2, 3, 1).reshape(-1, oc1), b, out=out.view(-1, oc2))
        def now(): tail(F.conv2d(x.permute(0, 3, 1, 2), fnow, padding=1))
        def repack(): tail(F.conv2d(x.permute(0, 3, 1, 2), w1.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last), padding=1))
        once = c1
        def cached(): tail(F.conv2d(x.permute(0, 3, 1, 2), once, padding=1))
        te, tn, tr, tc = timed(eager), timed(now), timed(repack), timed(cached)
        ref = eager().permute(0, 2, 3, 1).float()
        now(); en = ((out.float() - ref).abs().max() / ref.abs().max()).item()
        repack(); er = ((out.float() - ref).abs().max() / ref.abs().max()).item()
        print(f"| {name}-b{bsz} | {te:.2f} | {tn:.2f} | {tr:.2f} | {tc:.2f} | {en:.1e} | {er:.1e} |")
