#!/usr/bin/env python3
"""Host cost of one call, per path, for one bundle (GPU machine, PyTorch).

  FLASHFUSER_RUNTIME_LIB=build-rt/lib/libffrt.so \\
      python3 scripts/bench/launch_overhead.py BUNDLE_DIR [--m M]
      [--calls 1000] [--reps 100] [--auto] [--no-graph] [--json OUT.json]

Rows (same tensors, allocated once; the output too):

- torch first GEMM: one F.linear of the chain's first GEMM (F.conv2d for a
  3x3 conv chain), i.e. one PyTorch launch: the yardstick;
- ours (never): flashfuser.load(B)(*inputs, out=out) as a user calls it
  (repeated calls replay a CUDA graph of the launch, docs/runtime.md);
- ours (graphs=False): the same, every call through the runtime's launch;
- ours (auto), with --auto: fallback="auto" after its first call decided
  (the path column says which one runs);
- Handle.launch(array): the runtime's launch with a prebuilt ctypes array
  (Python: one ctypes call plus a status check);
- bound ffrt_launch: Handle.launcher(array, stream)(), what Kernel's cached
  path ends in;
- ours in a CUDA graph (replay), unless --no-graph: the kernel without any
  host launch path.

Columns: host us/call = time.perf_counter() over --calls back-to-back calls
with no synchronization inside the loop (the launch path's host time while
the GPU keeps up; when the GPU is slower the queue fills and it shows GPU
time); +sync = the same loop including the final torch.cuda.synchronize();
event us = median over --reps runs of CUDA events around one call, then a
synchronize (scripts/bench/bench.py's method: host path and kernel).
"""
import argparse
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def die(message, code=2):
    print(f"launch_overhead: {message}", file=sys.stderr)
    sys.exit(code)


def setup():
    """(torch, flashfuser, _runtime) or a clear exit."""
    try:
        import torch
    except ImportError as e:
        die(f"needs PyTorch ({e})")
    if not torch.cuda.is_available():
        die("needs a CUDA GPU (torch.cuda.is_available() is False)")
    sys.path.insert(0, os.path.join(ROOT, "python"))
    try:
        import flashfuser
        from flashfuser import _runtime
    except ImportError as e:
        die(f"cannot import flashfuser from {ROOT}/python: {e}")
    env = os.environ.get("FLASHFUSER_RUNTIME_LIB")
    if env and not os.path.isfile(env):
        die(f"FLASHFUSER_RUNTIME_LIB={env} does not exist")
    path = _runtime.library_path()
    if path is None:
        die("libffrt.so not found: build it (cmake -G Ninja -B build-rt "
            "-DFF_ENABLE_COMPILER=OFF && ninja -C build-rt ffrt) and set "
            "FLASHFUSER_RUNTIME_LIB")
    if not env:
        print(f"note: FLASHFUSER_RUNTIME_LIB not set; using {path}")
    try:
        _runtime.lib()
    except _runtime.RuntimeUnavailable as e:
        die(str(e))
    if not _runtime.driver_available():
        die("the runtime finds no CUDA driver or device")
    return torch, flashfuser, _runtime


DTYPES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32"}


def make_inputs(torch, kernel, m):
    """Random inputs of the manifest's shapes (x ~ U(-1, 1), weights scaled
    by 1/sqrt of their largest extent to keep the chain's values O(1)) and
    an output, on the current device."""
    gen = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for spec in kernel.inputs + kernel.outputs:
        shape = [m if d == -1 else d for d in spec["shape"]]
        dtype = getattr(torch, DTYPES[spec["dtype"]])
        t = torch.rand(shape, device="cuda", generator=gen) * 2 - 1
        if out:     # a weight
            t = t / math.sqrt(max(shape))
        out.append(t.to(dtype).contiguous())
    return out[:-1], out[-1]


def first_gemm(torch, kernel, inputs):
    """(label, fn): one PyTorch launch computing the chain's first GEMM."""
    import torch.nn.functional as F
    x, w1 = inputs[0], inputs[1]
    if x.dim() == 4:                       # NHWC x
        xc = x.permute(0, 3, 1, 2)
        if kernel.inputs[1].get("layout") == "nk":     # FHWC filter
            r = w1.shape[1]
            f = w1.permute(0, 3, 1, 2)
            w = w1.reshape(w1.shape[0], -1)            # [out, in]
        else:                                          # HWCF filter
            r = w1.shape[0]
            f = w1.permute(3, 2, 0, 1)
            w = w1.reshape(-1, w1.shape[-1]).t()
        if r == 1:
            xr = x.reshape(-1, x.shape[-1])
            return "torch F.linear (first GEMM, 1x1)", lambda: F.linear(xr, w)
        return (f"torch F.conv2d (first conv, {r}x{r})",
                lambda: F.conv2d(xc, f, padding=r // 2))
    layout = kernel.inputs[1].get("layout")
    if layout is None:
        try:
            from flashfuser.fallback import chain_form
            layout = chain_form(kernel.manifest).layouts[0]
        except Exception:   # noqa: BLE001 (no unfused form: guess by shape)
            layout = "kn" if w1.shape[0] == x.shape[1] else "nk"
    w = w1 if layout == "nk" else w1.t()   # F.linear takes [out, in]
    return f"torch F.linear (first GEMM, w {layout})", lambda: F.linear(x, w)


def host_us(torch, fn, calls, warmup, batch=0):
    """(host µs per call, µs per call to completion) over `calls` back to
    back. With `batch`, only host time: batches of that many calls, the GPU
    drained between them untimed, so a launch queue that fills (kernels
    longer than their launches) never blocks a call."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    if batch:
        batches = max(calls // batch, 1)
        host = 0.0
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(batch):
                fn()
            host += time.perf_counter() - t0
            torch.cuda.synchronize()
        return host / (batches * batch) * 1e6, float("nan")
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    return (t1 - t0) / calls * 1e6, (t2 - t0) / calls * 1e6


def event_us(fn, reps, warmup):
    """bench.py's per-call figure: CUDA events around one call, hot L2."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench
    return bench.time_ms(fn, reps, cold=False, warmup=warmup) * 1e3


def ab_figures(torch, kernels, inputs, out, rounds=5):
    """{name: ([per-call figure per round], [host us per round])} of
    kernels = {name: Kernel} called as k(*inputs, out=out), `rounds` rounds
    each starting one name further on (alternating, for two): bench.py's
    per-call figure (event_us, median of 200) and the host time per call
    (host_us, batches of 32, the GPU drained between them untimed)."""
    names = list(kernels)
    figs = {n: ([], []) for n in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            k = kernels[name]
            fn = lambda k=k: k(*inputs, out=out)  # noqa: E731
            figs[name][0].append(event_us(fn, 200, 20))
            figs[name][1].append(host_us(torch, fn, 4096, 64, batch=32)[0])
    return figs


def graph_replay(torch, kernel, inputs, out):
    kernel.prepare()    # module loads are no stream work to capture
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            kernel(*inputs, out=out)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, capture_error_mode="relaxed"):
        kernel(*inputs, out=out)
    torch.cuda.synchronize()
    return g.replay


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("bundle", help="bundle directory")
    ap.add_argument("--m", type=int, default=None,
                    help="M for a dynamic-M bundle (default: the chain's m, "
                         "else 128)")
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--auto", action="store_true",
                    help="also time fallback=\"auto\" once it decided")
    ap.add_argument("--no-graph", action="store_true",
                    help="skip the CUDA graph row")
    ap.add_argument("--json", help="also write the rows here")
    a = ap.parse_args()

    torch, flashfuser, _runtime = setup()
    if not os.path.isdir(a.bundle):
        die(f"{a.bundle} is not a directory")
    try:
        kernel = flashfuser.load(a.bundle)
    except Exception as e:  # noqa: BLE001 (any load failure, named)
        die(f"cannot load {a.bundle}: {type(e).__name__}: {e}")
    chain = kernel.manifest["chain"]
    m = a.m or (chain["m"] if chain["m"] > 0 else 128)
    if kernel.kernel_for(m) is None and kernel.inputs[0]["shape"][0] == -1:
        die(f"no kernel of {a.bundle} serves M = {m} (try --m)")
    inputs, out = make_inputs(torch, kernel, m)
    try:
        kernel(*inputs, out=out)
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        die(f"the bundle does not run: {type(e).__name__}: {e}", 1)

    rows = []

    def row(label, fn, path=""):
        try:
            h, hs = host_us(torch, fn, a.calls, a.warmup)
            ev = event_us(fn, a.reps, a.warmup)
            rows.append({"what": label, "host_us": h, "host_sync_us": hs,
                         "event_us": ev, "path": path})
        except Exception as e:  # noqa: BLE001 (report the row, go on)
            rows.append({"what": label, "error": f"{type(e).__name__}: {e}"})

    label, fn = first_gemm(torch, kernel, inputs)
    row(label, fn)
    row("ours per call (fallback=never)", lambda: kernel(*inputs, out=out),
        "fused")
    direct = flashfuser.load(a.bundle, graphs=False)
    row("ours per call (graphs=False)", lambda: direct(*inputs, out=out),
        "fused")
    if a.auto:
        auto = flashfuser.load(a.bundle, fallback="auto")
        auto(*inputs, out=out)      # decides M's bin (times both paths)
        torch.cuda.synchronize()
        t = auto.timings(m) or {}
        path = auto.choice(m) or "undecided"
        row("ours per call (fallback=auto)", lambda: auto(*inputs, out=out),
            path + "".join(f" {k}={v * 1e3:.1f}us" for k, v in t.items()
                           if v is not None))

    handle = kernel._handle
    arr = _runtime.tensor_array(kernel._convert([*inputs, out]))
    stream = torch.cuda.current_stream().cuda_stream
    row("Handle.launch(prebuilt array)", lambda: handle.launch(arr, stream),
        "fused")
    go = handle.launcher(arr, stream)

    def bound():
        if go():
            raise _runtime.FFRTError(1, _runtime.last_error())
    row("bound ffrt_launch (launcher)", bound, "fused")
    if not a.no_graph:
        try:
            replay = graph_replay(torch, kernel, inputs, out)
            row("ours in a CUDA graph (replay)", replay, "fused")
        except Exception as e:  # noqa: BLE001
            rows.append({"what": "ours in a CUDA graph (replay)",
                         "error": f"{type(e).__name__}: {e}"})

    dev = torch.cuda.get_device_name()
    print(f"\n{a.bundle}: {chain['kind']} {chain.get('activation', '')} "
          f"M={m} N={chain['n']} K={chain['k']} L={chain.get('l', 0)} on "
          f"{dev}; torch {torch.__version__}; {a.calls} calls, "
          f"{a.reps} event reps\n")
    w = max(len(r["what"]) for r in rows)
    print(f"{'what':<{w}}  {'host us/call':>12}  {'+sync':>8}  "
          f"{'event us':>8}  path")
    for r in rows:
        if "error" in r:
            print(f"{r['what']:<{w}}  failed: {r['error']}")
            continue
        print(f"{r['what']:<{w}}  {r['host_us']:12.2f}  "
              f"{r['host_sync_us']:8.2f}  {r['event_us']:8.2f}  {r['path']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"bundle": a.bundle, "m": m, "device": dev,
                       "torch": torch.__version__, "calls": a.calls,
                       "reps": a.reps, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
