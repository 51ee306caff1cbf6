"""Thirty-third session: an empty call timed as bench.py times a call
(events around each call, all queued, median of 300) and back to back
(host time per call): one PyTorch kernel launched directly against the
same kernel replayed from a one-node CUDA graph."""
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from bench import time_samples  # noqa: E402


def events_us(fn, reps=300):
    """Median µs of fn() as bench.py times a call (time_samples, hot)."""
    return statistics.median(time_samples(fn, reps, cold=False,
                                          warmup=10)) * 1e3


def host_us(fn, n=2000):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def main():
    one = torch.zeros(1, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        one.add_(1)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        one.add_(1)
    print(torch.cuda.get_device_name())
    for name, fn in (("direct one.add_(1)", lambda: one.add_(1)),
                     ("graph replay of it", g.replay)):
        ev = [events_us(fn) for _ in range(3)]
        print(f"{name:22s} events {' '.join(f'{v:.1f}' for v in ev)} us, "
              f"host {host_us(fn):.2f} us")


if __name__ == "__main__":
    main()
