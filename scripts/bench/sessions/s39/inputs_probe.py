"""Thirty-ninth session, call 11: bench.py times S3-m256's fused sequence
at 155-170 us where ff-run times 141. One process: the bundle through the
Python package, inputs drawn as bench.py draws them (normal) and as ff-run
does (uniform in [-1, 1], magnitudes below 1/64 raised to it), each scaled
by 1/sqrt(fan-in), the cuBLAS merged chain on the same inputs; CUDA graphs
of 10 calls, median per call of 100 replays, four alternating rounds (the
best of each kept). usage: THIS BUNDLE..."""
import json, math, statistics, sys
import torch
import torch.nn.functional as F
sys.path.insert(0, "python")
import flashfuser  # noqa: E402


def graph_us(fn, copies=10, reps=100):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(copies):
            fn()
    for _ in range(3):
        g.replay()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3 / copies)
    return statistics.median(ts)


def draw(kind, *shape, fan_in):
    if kind == "normal":
        t = torch.randn(*shape, device="cuda")
    else:
        t = torch.rand(*shape, device="cuda") * 2 - 1
        t = torch.where(t.abs() < 1 / 64, torch.sign(t) / 64, t)
    return (t / math.sqrt(fan_in)).to(torch.bfloat16)


def main():
    for path in sys.argv[1:]:
        m = json.load(open(path + "/manifest.json"))["chain"]
        M, N, K, L = m["m"], m["n"], m["k"], m["l"]
        kernel = flashfuser.load(path, fallback="never")
        res = {}
        for kind in ("normal", "uniform"):
            x = draw(kind, M, K, fan_in=1)
            wgu = draw(kind, 2 * N, K, fan_in=K)
            wd = draw(kind, L, N, fan_in=N)
            wg, wu = wgu[:N], wgu[N:]

            def ours():
                return kernel(x, wg, wu, wd)

            def chain():
                g, u = F.linear(x, wgu).chunk(2, dim=-1)
                return F.linear(F.silu(g) * u, wd)
            ref = chain().float()
            err = ((ours().float() - ref).norm() / ref.norm()).item()
            res[kind] = (ours, chain, err)
        best = {}
        for r in range(4):
            for kind in (("normal", "uniform") if r % 2 == 0 else
                         ("uniform", "normal")):
                ours, chain, _ = res[kind]
                for name, fn in (("ours", ours), ("chain", chain)):
                    t = graph_us(fn)
                    best[kind, name] = min(best.get((kind, name), math.inf), t)
        print(path.rsplit("/", 1)[-1], " ".join(
            f"{k}/{n}={t:.1f}" for (k, n), t in sorted(best.items())),
            " ".join(f"err_{k}={v[2]:.1e}" for k, v in res.items()), flush=True)


if __name__ == "__main__":
    main()
