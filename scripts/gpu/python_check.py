#!/usr/bin/env python3
"""Runs compiled bundles through the Python API on PyTorch tensors (GPU
machine): for each bundle under BUNDLES_DIR, at its M (a dynamic-M bundle at
each M of --m), draws fresh random bf16 inputs, poisons the output with NaN,
calls flashfuser.load(b)(...) on the current stream, and compares with an
fp32 PyTorch reference of the chain (independent of the kernels and of
ff-run's reference). Also checks that the runtime refuses a wrong dtype, a
wrong shape and a non-contiguous tensor before launching. Kernel sequences
(bundles with intermediates) are also called 20 times with two input sets in
turn, back to back on the stream (eager, then CUDA-graph replays): a second
kernel that read the intermediate before its own call's first kernel wrote
it (e.g. a broken programmatic launch) returns the other set's result. A
bundle whose output has its first input's shape and dtype is also called
four times in a chain, back to back, each call reading the previous call's
output: a kernel that read its input before the kernel before it on the
stream finished (a broken programmatic launch of a call's first kernel)
reads NaN poison or stale data. Prints a table; exits 1 on any failure.

  FLASHFUSER_RUNTIME_LIB=build-gpu/lib/libffrt.so PYTHONPATH=python \\
      python3 scripts/gpu/python_check.py BUNDLES_DIR [--m 128,1000]
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F

import flashfuser
from flashfuser import ValidationError

ACTS = {"gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
        "gelu_erf": F.gelu, "relu": F.relu, "silu": F.silu,
        "sigmoid": torch.sigmoid, "identity": lambda t: t}


def reference(kind, act, xs, specs):
    # Weights with layout "nk" are stored [out, in] (PyTorch Linear).
    f = [t.float().t() if s.get("layout") == "nk" else t.float()
         for t, s in zip(xs, specs)]
    a = ACTS[act]
    if kind == "gemm":
        return a(f[0] @ f[1])
    if kind == "gated_gemm":
        return a(f[0] @ f[1]) * (f[0] @ f[2])
    if kind == "ffn":
        # the kernel rounds the intermediate to bf16 like the linalg source
        return a(f[0] @ f[1]).bfloat16().float() @ f[2]
    g = a(f[0] @ f[1]) * (f[0] @ f[2])
    return g.bfloat16().float() @ f[3]


def chain_reference(k, xs):
    """The fp32 reference of bundle k's chain on inputs xs."""
    chain = k.manifest["chain"]
    return reference(chain["kind"], chain.get("activation", "identity"), xs,
                     k.inputs)


def random_inputs(k, m, gen):
    """Bundle k's inputs at M = m: N(0, 1) activations, weights
    scaled by fan_in ** -0.5, bf16."""
    xs = []
    for spec in k.inputs:
        shape = [m if d == -1 else d for d in spec["shape"]]
        fan_in = shape[1] if spec.get("layout") == "nk" else shape[0]
        scale = 1.0 if not xs else fan_in ** -0.5
        xs.append((torch.randn(*shape, generator=gen, device="cuda")
                   * scale).to(torch.bfloat16))
    return xs


def rel_l2(out, ref):
    return ((out.float() - ref).norm() / ref.norm()).item()


def alternate(k, xs, out, ref, gen):
    """Worst rel_l2 of two input sets (xs, and xs with a fresh A) run in
    turn, 20 calls each, into NaN-poisoned outputs."""
    ys = [torch.randn(*xs[0].shape, generator=gen, device="cuda")
          .to(torch.bfloat16)] + xs[1:]
    refs = [ref, chain_reference(k, ys)]
    outs = [out, torch.empty_like(out)]
    for o in outs:
        o.fill_(float("nan"))
    for _ in range(20):
        for inputs, o in zip((xs, ys), outs):
            k(*inputs, out=o)
    torch.cuda.synchronize()
    return max(rel_l2(o, r) for o, r in zip(outs, refs))


def chained(k, xs, out):
    """Worst rel_l2 of 4 calls in a chain (call i reads call i - 1's
    output, all queued before one synchronize), each against the fp32
    reference of the input it read."""
    outs = [torch.full_like(out, float("nan")) for _ in range(4)]
    inputs = [xs[0]] + outs[:-1]
    for x, o in zip(inputs, outs):
        k(x, *xs[1:], out=o)
    torch.cuda.synchronize()
    worst = 0.0
    for x, o in zip(inputs, outs):
        err = rel_l2(o, chain_reference(k, [x] + xs[1:]))
        worst = max(worst, err if err == err else float("inf"))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundles")
    ap.add_argument("--m", default="128,1000")
    a = ap.parse_args()
    ms = [int(x) for x in a.m.split(",")]
    gen = torch.Generator(device="cuda").manual_seed(7)
    rows, failed = [], 0
    for name in sorted(os.listdir(a.bundles)):
        path = os.path.join(a.bundles, name)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        k = flashfuser.load(path)
        chain = k.manifest["chain"]
        # A static bundle runs at its own M, a dynamic one at each of --m.
        for m in ms if chain["m"] <= 0 else [chain["m"]]:
            xs = random_inputs(k, m, gen)
            out_spec = k.outputs[0]
            dt = {"bf16": torch.bfloat16, "f16": torch.float16,
                  "f32": torch.float32}[out_spec["dtype"]]
            out = torch.full([m if d == -1 else d for d in out_spec["shape"]],
                             float("nan"), dtype=dt, device="cuda")
            k(*xs, out=out)
            torch.cuda.synchronize()
            ref = chain_reference(k, xs)
            written = bool(torch.isfinite(out).all())
            err = rel_l2(out, ref)
            ok = written and err < 1e-2
            failed += not ok
            rows.append(f"{name:8} M={m:<6} written={'all' if written else 'NO'}"
                        f" rel_l2={err:.3e} {'PASS' if ok else 'FAIL'}")
            if k.manifest.get("intermediates"):
                err2 = alternate(k, xs, out, ref, gen)
                ok = err2 < 1e-2
                failed += not ok
                rows.append(f"{name:8} M={m:<6} alternating inputs "
                            f"rel_l2={err2:.3e} {'PASS' if ok else 'FAIL'}")
            if out.shape == xs[0].shape and out.dtype == xs[0].dtype:
                err3 = chained(k, xs, out)
                ok = err3 < 1e-2
                failed += not ok
                rows.append(f"{name:8} M={m:<6} chained calls "
                            f"rel_l2={err3:.3e} {'PASS' if ok else 'FAIL'}")
        # Bad arguments are refused, naming the argument, before a launch.
        x = xs[0]
        for what, bad in (("dtype", [x.float()] + xs[1:]),
                          ("shape", [x[:, :-8]] + xs[1:]),
                          ("stride", [x.t().contiguous().t()] + xs[1:])):
            try:
                k(*bad)
                rows.append(f"{name:8} bad {what}: NOT refused FAIL")
                failed += 1
            except ValidationError as e:
                rows.append(f"{name:8} bad {what}: refused ({str(e)[:70]})")
    print("\n".join(rows))
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
