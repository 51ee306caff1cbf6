#!/usr/bin/env python3
"""Where the host time of one cached Kernel call goes (GPU machine, PyTorch).

  FLASHFUSER_RUNTIME_LIB=build-rt/lib/libffrt.so \\
      python3 scripts/bench/host_path.py BUNDLE_DIR [--m M] [--calls 20000]

Times, per call over --calls calls in batches of 32 (time.perf_counter
around each batch; the GPU drained between batches, untimed, so that a full
launch queue never blocks a call), the whole call of a bundle loaded with
flashfuser.load (its graph replay once the arguments repeat) and with
graphs=False, then each step of the replay path on the same tensors: the
layout tuple, its lookup, the data pointers, the stream and device reads,
the capture check, the runtime's epoch and the graph's replay: the
runtime's own (ffrt_graph_launch) and, for a Kernel whose library could not
capture, PyTorch's CUDAGraph.replay().
scripts/bench/launch_overhead.py times the layers below (the runtime's
launch, a bare graph replay) the same way; this script takes its setup,
inputs (U(-1, 1), weights scaled) and host timer from there.
"""
import argparse
import os
import sys
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from launch_overhead import host_us, make_inputs, setup  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("--m", type=int, default=128,
                    help="M of a dynamic-M bundle (default 128)")
    ap.add_argument("--calls", type=int, default=20000)
    a = ap.parse_args()
    torch, flashfuser, _ = setup()
    from flashfuser.fallback import FUSED

    k = flashfuser.load(a.bundle)
    ins, out = make_inputs(torch, k, a.m)
    for _ in range(5):
        k(*ins, out=out)
    torch.cuda.synchronize()
    args = (*ins, out)

    def t(name, fn):
        # Batches of 32 with the GPU drained between them: host time only,
        # even where the kernel outlasts its launch.
        us, _ = host_us(torch, fn, a.calls, 200, batch=32)
        print(f"{name:46s} {us:8.3f} us", flush=True)

    print(f"{a.bundle} on {torch.cuda.get_device_name()}, torch "
          f"{torch.__version__}; host us per call over {a.calls} calls")
    t("empty Python call", lambda: None)
    t("k(*inputs, out=out)", lambda: k(*ins, out=out))
    direct = flashfuser.load(a.bundle, graphs=False)
    t("k(*inputs, out=out), graphs=False", lambda: direct(*ins, out=out))
    from flashfuser import _runtime
    with mock.patch.object(_runtime.Handle, "can_capture", False):
        pt = flashfuser.load(a.bundle)      # captures with PyTorch
        for _ in range(5):
            pt(*ins, out=out)
    torch.cuda.synchronize()
    t("k(*inputs, out=out), PyTorch's graphs", lambda: pt(*ins, out=out))
    live = [g for g in k._graphs.values() if g]
    if live:
        t("runtime graph replay (ffrt_graph_launch)", live[0][0].replay)
    live = [g for g in pt._graphs.values() if g]
    if live:
        t("PyTorch CUDAGraph.replay()", live[0][0].replay)
    t("layout tuple (shape, stride, dtype, device)",
      lambda: tuple([(x.shape, x.stride(), x.dtype, x.device)
                     for x in args]))
    lay = tuple([(x.shape, x.stride(), x.dtype, x.device) for x in args])
    t("layout lookup", lambda: k._layouts.get(lay))
    t("data pointer tuple", lambda: tuple([x.data_ptr() for x in args]))
    t("current stream handle", lambda: k._raw_stream(0))
    t("current device", lambda: k._cur_dev())
    t("capture check", lambda: k._is_capturing())
    if k._epoch is not None:
        t("runtime epoch (ffrt_bundle_epoch)", lambda: k._epoch())
    e = next(iter(k._layouts.values()))
    ptrs = tuple([x.data_ptr() for x in args])
    key = (FUSED, e, ptrs, k._raw_stream(0))
    if k._graphs.get(key):
        t("Kernel._replay (lookup, checks, replay)",
          lambda: k._replay(key, None, k._epoch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
