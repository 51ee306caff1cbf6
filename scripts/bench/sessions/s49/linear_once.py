"""Forty-ninth session: one F.linear (cuBLAS) of M x K by N x K (bf16),
after warm-up, between cudaProfilerStart/Stop so that
`ncu --profile-from-start off` sees exactly its kernel(s).
Usage: linear_once.py M N K"""
import sys

import torch
import torch.nn.functional as F

m, n, k = map(int, sys.argv[1:4])
torch.manual_seed(0)
x = torch.randn(m, k, device="cuda").bfloat16()
w = torch.randn(n, k, device="cuda").bfloat16() * 0.02
for _ in range(5):
    F.linear(x, w)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
F.linear(x, w)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
