#!/usr/bin/env python3
"""Sixty-fifth session: what a cached per-call launch spends its host time
on, on the GPU machine's host (host µs per call, batches of 32 with the GPU
drained between them, as host_path.py times).

  FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so \\
      python3 scripts/bench/sessions/s65/attr_probe.py BUNDLE...

Per bundle: the whole call (graph replay, C fast path), the fast path's
own reads one by one (each tensor's shape, stride(), dtype, device,
data_ptr(); the device, stream and capture hooks), the runtime's graph
replay alone, and bench.py's event-timed per-call figure; then the same
tensor reads through cheaper torch accessors, to see what a leaner key
would save."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from launch_overhead import event_us, host_us, make_inputs, setup  # noqa: E402


def main():
    torch, flashfuser, _ = setup()
    for path in sys.argv[1:]:
        k = flashfuser.load(path)
        ins, out = make_inputs(torch, k, 128)
        for _ in range(8):
            k(*ins, out=out)
        torch.cuda.synchronize()
        args = (*ins, out)
        x = args[0]
        rows = []

        def t(name, fn):
            us, _ = host_us(torch, fn, 20000, 200, batch=32)
            rows.append((name, us))

        t("empty Python call", lambda: None)
        t("k(*inputs, out=out)", lambda: k(*ins, out=out))
        live = [g for g in k._graphs.values() if g]
        if live:
            t("ffrt_graph_launch replay", live[0][0].replay)
        t("x.shape", lambda: x.shape)
        t("x.stride()", lambda: x.stride())
        t("x.dtype", lambda: x.dtype)
        t("x.device", lambda: x.device)
        t("x.data_ptr()", lambda: x.data_ptr())
        t("x.get_device()", lambda: x.get_device())
        t("x.is_contiguous()", lambda: x.is_contiguous())
        t("x.size()", lambda: x.size())
        t("all 5 reads x 4 tensors", lambda: [
            (a.shape, a.stride(), a.dtype, a.device, a.data_ptr())
            for a in args])
        t("current device hook", lambda: k._cur_dev())
        t("current stream hook", lambda: k._raw_stream(0))
        t("capture hook", lambda: k._is_capturing())
        ev = event_us(lambda: k(*ins, out=out), 200, 20)
        print(f"\n{path} on {torch.cuda.get_device_name()}, torch "
              f"{torch.__version__}, fast path "
              f"{'on' if k._fast is not None else 'off'}")
        print("| step | host us per call |\n|---|---|")
        for name, us in rows:
            print(f"| {name} | {us:.3f} |")
        print(f"| events around one call (bench.py's per-call figure) | "
              f"{ev:.2f} |")
        if k._fast is not None:
            print("fast path:", k._fast.stats())


if __name__ == "__main__":
    main()
