"""Thirty-fifth session: each single-GEMM bundle of gemmranks.py (usage:
THIS DIR) against cuBLAS, GPU time per call inside a CUDA graph of 50
back-to-back calls (median of 30 replays after warm-up; the weights exceed
L2, so every call streams them from HBM): ours, torch.nn.functional.linear
and, for an up GEMM, linear plus its activation (a second kernel). rel_l2
against an fp32 reference on random data, the output poisoned (NaN) first."""
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


ACT = {"gelu_tanh": lambda y: F.gelu(y, approximate="tanh"),
       "silu": F.silu, "identity": lambda y: y}
base = {}
for b in sorted(glob.glob(sys.argv[1] + "/*-r*"),
                key=lambda p: (p.split("/")[-1].split("-")[0],
                               int(p.split("-r")[-1]))):
    name, rank = os.path.basename(b).split("-")
    man = json.load(open(b + "/manifest.json"))
    ins = man["chain"]["inputs"]
    m, k = ins[0]["shape"]
    n = ins[1]["shape"][0]
    act = man["chain"]["activation"]
    torch.manual_seed(0)
    x = torch.randn(m, k, device="cuda").bfloat16()
    wt = (torch.randn(n, k, device="cuda") / k ** 0.5).bfloat16()
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    if name not in base:
        lin = per_call_us(lambda: F.linear(x, wt))
        full = per_call_us(lambda: ACT[act](F.linear(x, wt)))
        base[name] = (lin, full)
        print(f"{name:6} cuBLAS linear {lin:7.2f} us, with {act} {full:7.2f} us")
    kern = flashfuser.load(b)
    kern(x, wt, out=out)
    torch.cuda.synchronize()
    ref = ACT[act](F.linear(x.float(), wt.float()))
    err = ((out.float() - ref).norm() / ref.norm()).item()
    ours = per_call_us(lambda: kern(x, wt, out=out))
    p = man["kernels"][0]["plan"]
    print(f"{name:6} {rank:4} {'x'.join(map(str, p['block'][:3])):14} "
          f"cluster {'x'.join(map(str, p['cluster'])):8} stages {p['stages']} "
          f"grid {man['kernels'][0]['grid'][0]:4} ours {ours:7.2f} us "
          f"({base[name][1] / ours:5.3f}x cuBLAS) rel_l2 {err:.1e}"
          + ("" if err < 1e-2 else " FAIL"))
