"""Fifty-seventh session, call 5 (GPU machine, PyTorch only): the cuBLAS
kernels PyTorch's split chain launches for S6 at M = 440 (and S3 at
560), with their CUDA times from torch.profiler: which tilings beat our
gated GEMM there. (usage: python3 THIS)"""
import torch
from torch.profiler import ProfilerActivity, profile

SHAPES = {"S6": (440, 8960, 1536), "S3": (560, 11008, 4096)}


def chain(x, wg, wu, wd):
    g = x @ wg.t()
    u = x @ wu.t()
    return (torch.nn.functional.silu(g) * u) @ wd.t()


for name, (m, n, k) in SHAPES.items():
    torch.manual_seed(0)
    dev, dt = "cuda", torch.bfloat16
    x = torch.randn(m, k, device=dev, dtype=dt)
    wg, wu = (torch.randn(n, k, device=dev, dtype=dt) / k ** 0.5
              for _ in range(2))
    wd = torch.randn(k, n, device=dev, dtype=dt) / n ** 0.5
    for _ in range(20):
        chain(x, wg, wu, wd)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(50):
            chain(x, wg, wu, wd)
        torch.cuda.synchronize()
    print(f"== {name} M={m} N={n} K={k}")
    for e in sorted(prof.key_averages(), key=lambda e: -e.device_time_total):
        if e.device_time_total > 0:
            print(f"{e.device_time_total / e.count:9.2f} us x{e.count:4d}  "
                  f"{e.key[:150]}")
