"""Run on the GPU machine from the repository root: python3 scripts/bench/conv_fallback_forms.py

Times conv-chain forms in CUDA graphs: eager (conv2d, relu, conv2d), the
fallback's (3x3: conv2d; 1x1: mm; second: mm into out) and a first 1x1 conv
by cuDNN with the second GEMM by mm into out."""
import statistics, sys, torch
import torch.nn.functional as F
sys.path.insert(0, "scripts/bench")
import workloads as W
dev = "cuda"
def graph_time(fn, reps=200):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3): fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    for _ in range(10): g.replay()
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b) * 1e3)
    return statistics.median(ts)
print("| workload | eager graph | fallback now | 1x1 first by cuDNN | second by cuDNN + copy |")
print("|---|---|---|---|---|")
for batch in (1, 32):
    for w in W.conv_chains(batch):
        b, ic, h, wd, oc1, oc2, k1, k2 = w.conv
        x = torch.randn(b, ic, h, wd, device=dev, dtype=torch.bfloat16).to(memory_format=torch.channels_last)
        w1 = (torch.randn(oc1, ic, k1, k1, device=dev, dtype=torch.bfloat16) / (ic * k1 * k1) ** .5).to(memory_format=torch.channels_last)
        w2 = (torch.randn(oc2, oc1, 1, 1, device=dev, dtype=torch.bfloat16) / oc1 ** .5).to(memory_format=torch.channels_last)
        xn = x.permute(0, 2, 3, 1)            # NHWC view of the same storage
        out = torch.empty(b, h, wd, oc2, device=dev, dtype=torch.bfloat16)
        w2m = w2.view(oc2, oc1).t()
        def eager():
            return F.conv2d(F.relu(F.conv2d(x, w1, padding=k1 // 2)), w2)
        def fallback():
            if k1 == 3:
                c = F.conv2d(x, w1, padding=1)
                c = F.relu(c).permute(0, 2, 3, 1).reshape(-1, oc1)
            else:
                c = F.relu(torch.mm(xn.reshape(-1, ic), w1.view(oc1, ic).t()))
            torch.mm(c, w2m, out=out.view(-1, oc2))
        def conv_first():
            c = F.relu(F.conv2d(x, w1, padding=k1 // 2)).permute(0, 2, 3, 1).reshape(-1, oc1)
            torch.mm(c, w2m, out=out.view(-1, oc2))
        def conv_second():
            e = F.conv2d(F.relu(F.conv2d(x, w1, padding=k1 // 2)), w2)
            out.copy_(e.permute(0, 2, 3, 1))
        r = [graph_time(f) for f in (eager, fallback, conv_first, conv_second)]
        print(f"| {w.name} | " + " | ".join(f"{t:.2f}" for t in r) + " |", flush=True)
