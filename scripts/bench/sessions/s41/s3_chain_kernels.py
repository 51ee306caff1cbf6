"""Forty-first session: PyTorch's split S3 chain (gate and up as two
F.linear GEMMs, silu(g) * u, the down F.linear) at M = argv[1:], each after
warm-up, one call per M between cudaProfilerStart/Stop so that
`ncu --profile-from-start off` sees exactly its kernels."""
import sys

import torch
import torch.nn.functional as F

K, N = 4096, 11008
torch.manual_seed(0)
wg = torch.randn(N, K, device="cuda").bfloat16() * 0.02
wu = torch.randn(N, K, device="cuda").bfloat16() * 0.02
wd = torch.randn(K, N, device="cuda").bfloat16() * 0.02


def chain(x):
    return F.linear(F.silu(F.linear(x, wg)) * F.linear(x, wu), wd)


for m in map(int, sys.argv[1:]):
    x = torch.randn(m, K, device="cuda").bfloat16()
    for _ in range(5):
        chain(x)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    chain(x)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
