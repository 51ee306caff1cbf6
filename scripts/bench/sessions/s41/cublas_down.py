"""Forty-first session: cuBLAS's S3 down GEMM (F.linear, M x 11008 ->
4096, weight [4096, 11008]) at M = argv[1:], timed as ff-run --graph times
ours: a CUDA graph of 10 calls, median per call over 20 replays after
warm-up."""
import statistics
import sys

import torch
import torch.nn.functional as F

w = torch.randn(4096, 11008, device="cuda").bfloat16()
for m in map(int, sys.argv[1:]):
    x = torch.randn(m, 11008, device="cuda").bfloat16()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):
            F.linear(x, w)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(10):
            F.linear(x, w)
    for _ in range(5):
        g.replay()
    times = []
    for _ in range(20):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
            enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e3 / 10)
    print(f"cublas S3DN{m} median {statistics.median(times):.2f} us")
