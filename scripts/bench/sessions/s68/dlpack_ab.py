#!/usr/bin/env python3
"""Sixty-eighth session: the cached call's two host-path changes against
the call before them, one Kernel of each per bundle, five rounds in
rotating order. `before`: the Python Kernel.__call__, each tensor's
data_ptr() and PyTorch's TensorGuards, PyTorch's device and stream hooks
(as at 4d405e5); `dlpack`: the same __call__, tensors and the current
stream read through DLPack's exchange API, the device from the driver
(ffrt_current_device); `new`: that and _ffrt_fastcall's KernelCall as
Kernel.__call__ (the default now). Per round and kernel: bench.py's
per-call figure (events around each call, median of 200) and the host time
per call (batches of 32, GPU drained between them untimed); medians of the
rounds. The outputs of all three are compared bit for bit.

  FLASHFUSER_RUNTIME_LIB=.../libffrt.so PYTHONPATH=python \\
      python3 dlpack_ab.py BUNDLE...
"""
import os
import statistics
import sys
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
import launch_overhead as lo  # noqa: E402

NAMES = ("before", "dlpack", "new")


def main():
    torch, flashfuser, _runtime = lo.setup()
    from flashfuser import kernel as kmod
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; "
          f"exchange API: {kmod._dlpack_api(torch) is not None}")
    print("| bundle | events/call before | dlpack | new | before/new "
          "| host before | dlpack | new | before/new |")
    print("|---|---|---|---|---|---|---|---|---|")
    for b in sys.argv[1:]:
        kernels = {"new": flashfuser.load(b)}
        chain = kernels["new"].manifest["chain"]
        m = chain["m"] if chain["m"] > 0 else 128
        inputs, out = lo.make_inputs(torch, kernels["new"], m)
        for _ in range(8):
            kernels["new"](*inputs, out=out)
        torch.cuda.synchronize()
        ref = out.clone()
        # The Python __call__, on a subclass (slot_tp_call to a function,
        # as before KernelCall).
        py_call = kmod.Kernel.__dict__["__call__"].__wrapped__
        PyKernel = type("PyKernel", (kmod.Kernel,), {"__call__": py_call})
        kernels["dlpack"] = flashfuser.load(b)
        kernels["dlpack"].__class__ = PyKernel
        with mock.patch.object(kmod, "_dlpack_api", lambda torch: None), \
                mock.patch.object(_runtime, "current_device", lambda: None):
            kernels["before"] = flashfuser.load(b)
            kernels["before"].__class__ = PyKernel
            for _ in range(8):     # registers with the patches in place
                kernels["before"](*inputs, out=out)
        for _ in range(8):
            kernels["dlpack"](*inputs, out=out)
        for name in NAMES:
            out.fill_(float("nan"))
            kernels[name](*inputs, out=out)
            torch.cuda.synchronize()
            assert torch.equal(out, ref), f"{name}: output differs"
        figs = lo.ab_figures(torch, {n: kernels[n] for n in NAMES},
                             inputs, out)
        for name, k in kernels.items():
            st = k._fast.stats() if k._fast is not None else {}
            assert st.get("hits", 0) > 4000, (name, st)
        for name in NAMES:
            print(f"<!-- {os.path.basename(b)} {name} events per round: "
                  + " ".join(f"{v:.2f}" for v in figs[name][0]) + " -->")
        ev = {k: statistics.median(v[0]) for k, v in figs.items()}
        ho = {k: statistics.median(v[1]) for k, v in figs.items()}
        print(f"| {os.path.basename(b)} | " +
              " | ".join(f"{ev[n]:.2f}" for n in NAMES) +
              f" | {ev['before'] / ev['new']:.3f} | " +
              " | ".join(f"{ho[n]:.2f}" for n in NAMES) +
              f" | {ho['before'] / ho['new']:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
