"""Thirty-ninth session, call 8: why the package's unfused chain (the
fallback) ran 2-3 us behind bench.py's graph chain on G5-m256 in call 7.
Times in CUDA graphs, alternating: bench.py's chain (F.linear, fresh
outputs), the fallback's run (torch.mm on transposed views, the last GEMM
into the caller's `out`), and those torch.mm ops with the last GEMM
allocating its result. usage: THIS BUNDLE... (manifest chains, nk weights)."""
import json, math, statistics, sys
import torch
import torch.nn.functional as F
sys.path.insert(0, "python")
from flashfuser import fallback  # noqa: E402


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
    for _ in range(10):
        g.replay()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)


for path in sys.argv[1:]:
    m = json.load(open(path + "/manifest.json"))
    c = m["chain"]
    form = fallback.chain_form(m)
    M, N, K, L = c["m"], c["n"], c["k"], c["l"]
    dev, bf = "cuda", torch.bfloat16
    x = torch.randn(M, K, device=dev, dtype=bf)
    gated = c["kind"] == "gated_ffn"
    act = {"gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
           "silu": F.silu}[c["activation"]]
    if gated:
        wg = torch.randn(N, K, device=dev, dtype=bf) / math.sqrt(K)
        wu = torch.randn(N, K, device=dev, dtype=bf) / math.sqrt(K)
        wgu = torch.cat([wg, wu])
        wd = torch.randn(L, N, device=dev, dtype=bf) / math.sqrt(N)
        weights = (wg, wu, wd)

        def chain():
            g, u = F.linear(x, wgu).chunk(2, dim=-1)
            return F.linear(F.silu(g) * u, wd)
    else:
        w1 = torch.randn(N, K, device=dev, dtype=bf) / math.sqrt(K)
        w2 = torch.randn(L, N, device=dev, dtype=bf) / math.sqrt(N)
        weights = (w1, w2)

        def chain():
            return F.linear(act(F.linear(x, w1)), w2)
    out = torch.empty(M, L, device=dev, dtype=bf)
    run = fallback.build_unfused(form).bind(*weights)
    ref = chain()
    run(x, out)
    err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()

    def unfused():
        run(x, out)

    def mm_alloc():
        # The fallback's ops with the last GEMM allocating its result.
        if gated:
            g, u = torch.mm(x, wgu.t()).split(N, 1)
            return torch.mm(F.silu(g) * u, wd.t())
        return torch.mm(act(torch.mm(x, w1.t())), w2.t())
    res = {"chain": [], "unfused": [], "mm_alloc": []}
    for _ in range(4):
        res["chain"].append(graph_ms(chain))
        res["unfused"].append(graph_ms(unfused))
        res["mm_alloc"].append(graph_ms(mm_alloc))
    print(path.rsplit("/", 1)[-1], f"rel_err(unfused vs chain)={err:.1e}",
          " ".join(f"{k}=" + "/".join(f"{v * 1e3:.1f}" for v in vs)
                   for k, vs in res.items()), flush=True)
