"""Thirty-ninth session, call 9: call 8 timed S3-m256's unfused chain with
gate and up as two GEMMs 7 % faster than with one merged gate|up GEMM
(bench.py's chain). PyTorch alone, CUDA graphs, medians of 200 replays,
four alternating rounds (the best of each kept): S1-S8 at several M, the
merged chain against the split one (same inputs, results compared)."""
import math, statistics, sys
import torch
import torch.nn.functional as F
sys.path.insert(0, "scripts/bench")
import workloads as W  # noqa: E402


def graph_ms(fn, reps=200):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    for _ in range(5):
        g.replay()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts) * 1e3


bf = torch.bfloat16
print("name,m,merged_us,split_us,merged/split,rel_diff")
for name, _, n, k, l in W.S:
    wgu = torch.randn(2 * n, k, device="cuda", dtype=bf) / math.sqrt(k)
    wg, wu = wgu[:n].clone(), wgu[n:].clone()
    wd = torch.randn(l, n, device="cuda", dtype=bf) / math.sqrt(n)
    for m in (16, 128, 256, 512, 1024, 4096):
        x = torch.randn(m, k, device="cuda", dtype=bf)

        def merged():
            g, u = F.linear(x, wgu).chunk(2, dim=-1)
            return F.linear(F.silu(g) * u, wd)

        def split():
            return F.linear(F.silu(F.linear(x, wg)) * F.linear(x, wu), wd)
        a, b = merged().float(), split().float()
        diff = ((a - b).norm() / a.norm()).item()
        tm, ts = math.inf, math.inf
        for r in range(4):
            for f in ((merged, split) if r % 2 == 0 else (split, merged)):
                t = graph_ms(f)
                if f is merged:
                    tm = min(tm, t)
                else:
                    ts = min(ts, t)
        print(f"{name},{m},{tm:.1f},{ts:.1f},{tm / ts:.3f},{diff:.1e}",
              flush=True)
