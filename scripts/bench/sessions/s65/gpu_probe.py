#!/usr/bin/env python3
"""Sixty-fifth session: why one cached call of some bundles takes twice
another's per-call time although their host paths cost the same
(attr_probe.py, call 3: G1 11.5 us, C3-b1 21.1 us, host 5.4 and 6.3 us).

  FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so \\
      python3 scripts/bench/sessions/s65/gpu_probe.py BUNDLE...

Per bundle, µs per call (medians of 7 rounds):
  events/call  bench.py's figure: events around each call, all queued;
  loop         500 calls between two events (the steady state: the slower
               of the host's path and the GPU's work per call);
  replays      500 replays of the call's recorded graph between two events
               (the GPU's cost of a graph launch once the host is ahead);
  in one graph the call captured 20 times in one CUDA graph, replayed
               (bench.py's ours_graph);
and the fast path's layout check through dynamo's tensor guard
(torch._C._dynamo.guards.TensorGuards, kernel.py's default) against its
reads of each tensor's layout (the guard patched away): the guard's check
alone, the reads alone, and the whole call's host µs and events/call with
either, in alternating rounds."""
import os
import statistics
from unittest import mock
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from launch_overhead import event_us, host_us, make_inputs, setup  # noqa: E402


def loop_us(torch, fn, n=500, rounds=7):
    out = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(n):
            fn()
        b.record()
        torch.cuda.synchronize()
        out.append(a.elapsed_time(b) * 1e3 / n)
    return statistics.median(out)


def main():
    torch, flashfuser, _ = setup()
    from flashfuser import kernel as kernel_mod
    print("| bundle | events/call | loop | replays | in one graph | host call "
          "| guard check (host) | reads (host) | host call, no guard "
          "| events/call, no guard |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        k = flashfuser.load(path)
        ins, out = make_inputs(torch, k, 128)
        for _ in range(8):
            k(*ins, out=out)
        torch.cuda.synchronize()
        args = (*ins, out)
        call = lambda: k(*ins, out=out)  # noqa: E731
        ev = event_us(call, 200, 20)
        lp = loop_us(torch, call)
        live = [g for g in k._graphs.values() if g]
        rp = loop_us(torch, live[0][0].replay) if live else float("nan")
        g = torch.cuda.CUDAGraph()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                call()
        torch.cuda.current_stream().wait_stream(s)
        with torch.cuda.graph(g):
            for _ in range(20):
                call()
        torch.cuda.synchronize()
        ig = loop_us(torch, g.replay, n=20) / 20
        host, _ = host_us(torch, call, 20000, 200, batch=32)
        reads, _ = host_us(torch, lambda: [
            (a.shape, a.stride(), a.dtype, a.device, a.data_ptr())
            for a in args], 20000, 200, batch=32)
        guard = float("nan")
        try:
            from torch._C._dynamo.guards import TensorGuards
            tg = TensorGuards(*args, dynamic_dims_sizes=None,
                              dynamic_dims_strides=None)
            assert tg.check(*args)
            guard, _ = host_us(torch, lambda: tg.check(*args), 20000, 200,
                               batch=32)
        except Exception as e:  # noqa: BLE001
            print("TensorGuards:", type(e).__name__, e)
        with mock.patch.object(kernel_mod, "_tensor_guards",
                               lambda torch: None):
            kp = flashfuser.load(path)
            for _ in range(8):
                kp(*ins, out=out)
        torch.cuda.synchronize()
        plain = lambda: kp(*ins, out=out)  # noqa: E731
        hg, hp, eg, ep = [], [], [], []
        for _ in range(3):
            hg.append(host_us(torch, call, 20000, 200, batch=32)[0])
            hp.append(host_us(torch, plain, 20000, 200, batch=32)[0])
            eg.append(event_us(call, 200, 20))
            ep.append(event_us(plain, 200, 20))
        host = statistics.median(hg)
        ev = statistics.median(eg)
        print(f"| {os.path.basename(path)} | {ev:.2f} | {lp:.2f} | {rp:.2f} "
              f"| {ig:.2f} | {host:.2f} | {guard:.2f} | {reads:.2f} "
              f"| {statistics.median(hp):.2f} | {statistics.median(ep):.2f} "
              f"| {k._fast.stats()} {kp._fast.stats()}",
              flush=True)
    time.sleep(0)


if __name__ == "__main__":
    main()
