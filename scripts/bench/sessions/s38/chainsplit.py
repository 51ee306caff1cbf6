"""Thirty-eighth session, GPU machine: the CUDA-graph chain's pieces at
M = 256 for G5 and S3 (PyTorch eager ops, cuBLAS), each timed alone by
CUDA events (median of 200 runs after 20 warm-ups, bf16, random data): the
up (or merged gate|up) GEMM, the activation, the down GEMM. Set against
our sequence halves timed alone in call 2 (docs/validation.md)."""
import statistics

import torch
import torch.nn.functional as F


def med_us(fn, reps=200, warm=20):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    return statistics.median(ts)


torch.manual_seed(0)
dev, bf = "cuda", torch.bfloat16
print(torch.cuda.get_device_name())
for name, m, n, k, l, gated in (("G5", 256, 16384, 4096, 4096, False),
                                ("S3", 256, 11008, 4096, 4096, True)):
    x = torch.randn(m, k, device=dev, dtype=bf)
    w1 = torch.randn((2 if gated else 1) * n, k, device=dev, dtype=bf) / 64
    wd = torch.randn(l, n, device=dev, dtype=bf) / 64
    c = x @ w1.t()
    h = (F.silu(c[:, :n]) * c[:, n:]) if gated else F.gelu(c, approximate="tanh")
    up = med_us(lambda: x @ w1.t())
    act = med_us((lambda: F.silu(c[:, :n]) * c[:, n:]) if gated else
                 (lambda: F.gelu(c, approximate="tanh")))
    down = med_us(lambda: h @ wd.t())
    print(f"{name}-m{m}: up {up:.2f} us, act {act:.2f}, down {down:.2f}, "
          f"sum {up + act + down:.2f}")
