"""Thirty-fifth session: the cuBLAS kernels behind F.linear for the
bandwidth-bound GEMMs at M = 128 (G5's up and down, S3's and S1's down,
G8's down), one call each after warm-up, for ncu to describe (grid,
cluster, duration, DRAM throughput): which launch shape draws the weights
at 3.2 TB/s where ours draw them at 2.6-2.8."""
import torch
import torch.nn.functional as F

SHAPES = {"G5UP": (4096, 16384), "G5DN": (16384, 4096),
          "S3DN": (11008, 4096), "S1DN": (8192, 3072), "G8DN": (8192, 2048)}
for name, (k, n) in SHAPES.items():
    x = torch.randn(128, k, device="cuda").bfloat16()
    w = torch.randn(n, k, device="cuda").bfloat16()
    for _ in range(3):
        F.linear(x, w)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(name)
    F.linear(x, w)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
