#!/usr/bin/env python3
"""Sixty-eighth session: where a cached call's host time goes inside the C
fast path (lib/Runtime/PyFastCall.cpp). Per bundle, host µs per call
(batches of 32, the GPU drained between them, untimed; median of three
rounds) of the whole call, of the fast path entered directly (no
Kernel.__call__ frame), of the fast path with a stand-in target (every
check, no launch) with and without the TensorGuards check, and of each
piece the C path calls; then bench.py's per-call figure (events around
each call, median of 200) of the call and of the direct entry.

  FLASHFUSER_RUNTIME_LIB=.../libffrt.so PYTHONPATH=python \\
      python3 host_probe.py BUNDLE...
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
import launch_overhead as lo  # noqa: E402


def main():
    torch, flashfuser, _runtime = lo.setup()
    from flashfuser import kernel as kmod
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"python {sys.version.split()[0]}")
    mod = _runtime.fastcall_module()
    assert mod is not None, "no _ffrt_fastcall module"
    for b in sys.argv[1:]:
        k = flashfuser.load(b)
        chain = k.manifest["chain"]
        m = chain["m"] if chain["m"] > 0 else 128
        ins, out = lo.make_inputs(torch, k, m)
        ins = tuple(ins)
        for _ in range(8):
            k(*ins, out=out)
        torch.cuda.synchronize()
        args = (*ins, out)
        fast = k._fast
        guard = kmod._tensor_guard(k._guards, torch.Tensor, args)
        lay = tuple([(t.shape, t.stride(), t.dtype, t.device) for t in args])
        ptrs = tuple([t.data_ptr() for t in args])
        dev = torch.cuda.current_device()
        h = k._raw_stream(dev)

        def standin(with_guard):
            f = mod.FastCall(k._cur_dev, k._raw_stream, k._is_capturing,
                             lambda: 0,
                             stream_capturing=_runtime.stream_capturing())
            f.add("t", lay, None, ptrs, dev, h, lambda: None, True, False,
                  0, guard=guard if with_guard else None)
            return f
        sg, sn = standin(True), standin(False)
        a0 = args[0]
        steps = [
            ("empty Python call", lambda: None),
            ("k(*inputs, out=out)", lambda: k(*ins, out=out)),
            ("fast(inputs, out, None) direct", lambda: fast(ins, out, None)),
            ("stand-in target, guard", lambda: sg(ins, out, None)),
            ("stand-in target, layout compare", lambda: sn(ins, out, None)),
            ("guard(*args)", lambda: guard(*args)),
            ("x.data_ptr()", lambda: a0.data_ptr()),
            ("current device hook", lambda: k._cur_dev()),
            ("current stream hook", lambda: k._raw_stream(dev)),
            ("capture hook (PyTorch)", lambda: k._is_capturing()),
        ]
        live = [g for g in k._graphs.values() if g]
        if live:
            steps.append(("graph replay via ctypes", live[0][0].replay))
        if k._epoch is not None:
            steps.append(("ffrt_bundle_epoch via ctypes (ctypes floor)",
                          k._epoch))
        res = {n: [] for n, _ in steps}
        for r in range(3):
            for n, fn in steps:
                res[n].append(lo.host_us(torch, fn, 8192, 64, batch=32)[0])
        print(f"\n{b} (M = {m}); fast path stats {fast.stats()}, stand-in "
              f"{sg.stats()}")
        print("| step | host us per call |")
        print("|---|---|")
        for n, _ in steps:
            print(f"| {n} | {statistics.median(res[n]):.3f} |")
        ev = {"k(*inputs, out=out)": [], "fast(inputs, out, None) direct": []}
        for r in range(3):
            ev["k(*inputs, out=out)"].append(
                lo.event_us(lambda: k(*ins, out=out), 200, 20))
            ev["fast(inputs, out, None) direct"].append(
                lo.event_us(lambda: fast(ins, out, None), 200, 20))
        for n, v in ev.items():
            print(f"| events around {n} | {statistics.median(v):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
