#!/usr/bin/env python3
"""Side-by-side benchmark of FlashFuser against PyTorch on one GPU.

Runs on the GPU machine (PyTorch, Triton; bundles compiled elsewhere):

  python3 scripts/bench/bench.py --out OUT [--bundles DIR] [--only G,S]
      [--baselines eager,graph,eager_split,graph_split,compile,autotune,
                   ours,ours_py,ours_direct,ours_graph,ours_auto,
                   ours_auto_graph,ours_dyn,ours_dyn_graph] [--dynamic DIR]
      [--reps 100]
      [--rounds 4]

For every workload (scripts/bench/workloads.py) and baseline it measures the
median of `--reps` timed runs after warm-up with CUDA events (queued, as
triton.testing.do_bench: see time_ms), with a hot L2 (the runs taken in
`--rounds` rounds over all of the workload's baselines: interleaved_hot_ms)
and with a cold L2 (a 256 MB buffer is rewritten before each run), checks
correctness against an fp32 reference on fresh random data, and computes the
roofline bound max(FLOPs / measured matmul peak, min bytes / measured copy
bandwidth) with both ceilings measured in the same run, plus the launch floor
(an empty kernel replayed in a CUDA graph). Writes OUT/results.csv,
OUT/README.md and, when matplotlib is present, OUT/speedup.png and
OUT/roofline.png.

`ours`/`ours_graph` always launch the fused kernel (`ours` as a user's
repeated calls do: from the third cached call on, a replay of a CUDA graph
of the launch, docs/runtime.md, its steady calls run by the C fast path
_ffrt_fastcall where built; `ours_py` the same without that module, the
pure-Python path; `ours_direct` with `graphs=False`, every call through the
runtime's launch); `ours_auto`/
`ours_auto_graph` load the bundle with `fallback="auto"` (docs/runtime.md),
which runs whichever of the fused kernel and the unfused PyTorch chain its
first call measured faster, eagerly for `ours_auto` and as CUDA graph
replays for `ours_auto_graph` (captured calls take the graph choice); the
`path` column says which ran. `ours_dyn`/`ours_dyn_graph` run, like `ours`
and `ours_graph`, the dynamic-M bundle `--dynamic DIR/<chain>` (compiled by
`compile-workloads.py --dynamic-m`) at the workload's M: G5-m512 and G5
take DIR/G5, each M through its bin's kernels.
"""
import argparse
import csv
import math
import os
import statistics
import sys
import time
from unittest import mock

# No inductor compile-worker pool: its processes share the host with the
# per-call timings of every baseline in this process.
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# flashfuser from this checkout when PYTHONPATH does not name it.
sys.path.append(os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "python"))
import clocks  # noqa: E402
import plots  # noqa: E402
import workloads as W  # noqa: E402

DEV = "cuda"
BF16 = torch.bfloat16


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------

_flush = None


def time_ms(fn, reps, cold, warmup=5):
    """Median milliseconds of fn() over reps runs (time_samples)."""
    return statistics.median(time_samples(fn, reps, cold, warmup))


def time_samples(fn, reps, cold, warmup=5):
    """Milliseconds of each of reps runs of fn(), as triton's do_bench
    times: events around each run, all runs queued before one synchronize.
    A run's time is then the GPU's time from its start event to its end
    event, which includes the host's launch path only where the GPU waited
    for it (eager chains on a slow host), not the latency of a first launch
    onto an idle GPU (one graph launch costs ~9 us of it on the H100
    hosts, the same for every graph baseline)."""
    global _flush
    if cold and _flush is None:
        _flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device=DEV)
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for start, end in events:
        if cold:
            _flush.zero_()
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in events]


def in_graph(fn, copies=1):
    """Captures `copies` calls of fn in one CUDA graph; returns (replay,
    output of the last captured call)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(copies):
            out = fn()
    return g.replay, out


def graph_hot_timed(fn, replay):
    """(callable, calls per run) that times fn inside a CUDA graph, hot;
    `replay` replays a graph of one call. A graph replay costs this host
    ~9.5 us to launch (the launch floor), more than many of the chains take
    on the GPU, so back-to-back replays of one call each would time the
    host: the graph timed holds as many back-to-back calls as
    flashfuser.fallback.graph_copies (the fallback's own graph timer) gives,
    and its time is divided by them, the GPU's time per call inside a graph
    as in a model's forward graph."""
    from flashfuser.fallback import graph_copies
    copies = graph_copies(time_ms(replay, 5, cold=False))
    if copies == 1:
        return replay, 1
    return in_graph(fn, copies)[0], copies


def interleaved_hot_ms(timed, reps, rounds, monitor=None, windows=None):
    """{name: hot milliseconds per call} for timed = {name: (callable, calls
    per run)}: the median of `reps` runs of each (at least), taken in
    `rounds` rounds that visit every name, each round starting one name
    further on. A host stall or clock dip of a few milliseconds then spoils
    a third of one baseline's runs, not all of them (one-shot figures of
    the same chain differed by 1.5x within one run: G4's graph 12.8 us,
    its unfused auto path in a graph 19.6). `windows`, when given, gets
    each name's timing windows appended as (start, end) pairs of
    monitor.read()."""
    names = list(timed)
    per = max(1, math.ceil(reps / max(1, rounds)))
    samples = {n: [] for n in names}
    for r in range(max(1, rounds)):
        k = r % len(names) if names else 0
        for n in names[k:] + names[:k]:
            fn, copies = timed[n]
            start = monitor.read() if windows is not None else None
            samples[n] += [t / copies for t in
                           time_samples(fn, per, cold=False)]
            if windows is not None:
                windows.setdefault(n, []).append((start, monitor.read()))
    return {n: statistics.median(v) for n, v in samples.items()}


def ceilings(reps, monitor, sustain_s=2.0):
    """Measured bf16 matmul peak (TFLOP/s) at once and after `sustain_s`
    seconds of back-to-back matmuls, with the monitor's windows of each,
    copy bandwidth (GB/s), launch floor (us). A 14 ms burst runs at the
    boost clock, but an H200 held at its power cap (70-100 % of the time
    after half a second of 8192^3 matmuls; docs/validation.md, fortieth
    session) computes slower, and many rows are timed so: both peaks are
    reported, each row's % of the roofline against each."""
    a = torch.randn(8192, 8192, device=DEV, dtype=BF16)
    b = torch.randn(8192, 8192, device=DEV, dtype=BF16)

    def matmul_peak(warmup):
        """(TFLOP/s, [monitor window]) of timed 8192^3 matmuls."""
        start = monitor.read()
        t = time_ms(lambda: a @ b, max(10, reps // 10), cold=False,
                    warmup=warmup)
        return 2 * 8192 ** 3 / (t * 1e-3) / 1e12, [(start, monitor.read())]

    peak, burst = matmul_peak(warmup=5)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < sustain_s:
        for _ in range(20):
            a @ b
        torch.cuda.synchronize()
    peak_sustained, sustained = matmul_peak(warmup=0)
    src = torch.empty(1 << 30, dtype=torch.uint8, device=DEV)
    dst = torch.empty_like(src)
    t = time_ms(lambda: dst.copy_(src), max(10, reps // 10), cold=False)
    bw = 2 * src.numel() / (t * 1e-3) / 1e9
    one = torch.zeros(1, device=DEV)
    replay, _ = in_graph(lambda: one.add_(1))
    floor = time_ms(replay, reps, cold=False) * 1e3
    return dict(peak=peak, peak_sustained=peak_sustained, bw=bw, floor=floor,
                burst=burst, sustained=sustained, sustain_s=sustain_s)


def roofline_us(w, peak, bw):
    """The roofline bound of workload `w` (us): max(FLOPs / matmul peak,
    minimum bytes / copy bandwidth)."""
    return max(w.flops() / (peak * 1e12), w.min_bytes() / (bw * 1e9)) * 1e6


# --------------------------------------------------------------------------
# Workloads as PyTorch users write them
# --------------------------------------------------------------------------

def act_fn(name):
    return {"gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
            "gelu_erf": F.gelu, "relu": F.relu, "silu": F.silu,
            "identity": lambda t: t}[name]


def make(w, gen):
    """Inputs, the eager chain, and an fp32 reference for workload w."""
    def rnd(*shape, scale=1.0):
        return (torch.randn(*shape, generator=gen, device=DEV) * scale).to(BF16)

    act = act_fn(w.act)
    if w.kind == "conv":
        b, ic, h, wd, oc1, oc2, k1, k2 = w.conv
        x = rnd(b, ic, h, wd).to(memory_format=torch.channels_last)
        c1 = rnd(oc1, ic, k1, k1, scale=1 / math.sqrt(ic * k1 * k1))
        c2 = rnd(oc2, oc1, k2, k2, scale=1 / math.sqrt(oc1))
        c1, c2 = (c.to(memory_format=torch.channels_last) for c in (c1, c2))
        inputs = (x, c1, c2)

        def eager(x, c1, c2):
            return F.conv2d(act(F.conv2d(x, c1, padding=k1 // 2)), c2)

        def ref(x, c1, c2):
            x, c1, c2 = (t.float() for t in (x, c1, c2))
            return F.conv2d(act(F.conv2d(x, c1, padding=k1 // 2)), c2)
        return inputs, eager, ref

    x = rnd(w.m, w.k)
    if w.kind == "gemm":
        wt = rnd(w.n, w.k, scale=1 / math.sqrt(w.k))        # nn.Linear layout
        inputs = (x, wt)

        def eager(x, wt):
            return F.linear(x, wt)

        def ref(x, wt):
            return F.linear(x.float(), wt.float())
        return inputs, eager, ref

    if w.kind == "gated_ffn":
        wgu = rnd(2 * w.n, w.k, scale=1 / math.sqrt(w.k))   # merged gate|up
        wd = rnd(w.l, w.n, scale=1 / math.sqrt(w.n))
        inputs = (x, wgu, wd)

        def eager(x, wgu, wd):
            g, u = F.linear(x, wgu).chunk(2, dim=-1)
            return F.linear(F.silu(g) * u, wd)

        def ref(x, wgu, wd):
            g, u = F.linear(x.float(), wgu.float()).chunk(2, dim=-1)
            return F.linear(F.silu(g) * u, wd.float())
        return inputs, eager, ref

    w1 = rnd(w.n, w.k, scale=1 / math.sqrt(w.k))             # nn.Linear layout
    w2 = rnd(w.l, w.n, scale=1 / math.sqrt(w.n))
    inputs = (x, w1, w2)

    def eager(x, w1, w2):
        return F.linear(act(F.linear(x, w1)), w2)

    def ref(x, w1, w2):
        return F.linear(act(F.linear(x.float(), w1.float())), w2.float())
    return inputs, eager, ref


def rel_err(out, ref):
    out = out.float().reshape(ref.shape) if out.numel() == ref.numel() else out.float()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


# --------------------------------------------------------------------------
# Ours: a compiled bundle through the Python package
# --------------------------------------------------------------------------

def ours_inputs(w, inputs, specs):
    """The eager inputs as the bundle takes them (`specs`: its manifest's
    inputs): PyTorch Linear weights [out, in] as they are (bundles compiled
    with `compile-workloads.py --weight-layout nk`), the merged gate|up
    weight split into its two row blocks (views, no copy). Conv chains: the
    channels_last activation is already NHWC in memory (a permuted view, no
    copy); so are the channels_last OIHW filters FHWC ("nk" bundles, the
    same tensors as eager's); for HWCF ("kn") bundles they are repacked
    once, as a framework would prepare static weights, outside the timed
    region."""
    if w.kind == "gated_ffn":
        x, wgu, wd = inputs
        return (x, wgu[:w.n], wgu[w.n:], wd)
    if w.kind == "conv":
        x, *filters = inputs
        return (x.permute(0, 2, 3, 1),) + tuple(
            f.permute(0, 2, 3, 1) if spec.get("layout") == "nk"
            else f.permute(2, 3, 1, 0).contiguous()
            for f, spec in zip(filters, specs[1:]))
    return inputs


def as_reference_layout(w, name, out):
    """Our conv output is NHWC; the eager reference is NCHW."""
    if w.kind == "conv" and name.startswith("ours") and out.dim() == 4:
        return out.permute(0, 3, 1, 2)
    return out


def dynamic_name(w):
    """The chain a dynamic-M bundle is named after: G5-m512 -> G5,
    dyn-S7-m800 (workloads.dynamic_m_sweep) -> S7."""
    name = w.name.removeprefix("dyn-")
    base, sep, m = name.rpartition("-m")
    return base if sep and m.isdigit() and w.kind != "conv" else name


def ours_callable(w, inputs, bundles, fallback="never", graphs=True,
                  fastcall=True, dynamic=False):
    """(a per-call closure running the workload's bundle, its Kernel), or
    (None, None) with the reason printed when there is no bundle or its
    inputs do not match. `fallback`, `graphs`: flashfuser.load's;
    `fastcall`: False keeps the Kernel on its pure-Python per-call path (no
    _ffrt_fastcall), which it looks up at its first call, made here;
    `dynamic`: `bundles` holds dynamic-M bundles (dynamic_name)."""
    if not bundles:
        return None, None
    path = os.path.join(bundles, dynamic_name(w) if dynamic else w.name)
    who = "ours_dyn" if dynamic else "ours"
    if not os.path.isdir(path):
        print(f"{w.name}: {who} skipped (no bundle {path})", flush=True)
        return None, None
    import flashfuser
    kernel = flashfuser.load(path, fallback=fallback, graphs=graphs)
    args = ours_inputs(w, inputs, kernel.inputs)
    want = [[x.shape[0] if d == -1 else d for d in t["shape"]]
            for t, x in zip(kernel.inputs, args)]
    got = [list(a.shape) for a in args]
    if len(args) != len(kernel.inputs) or want != got:
        print(f"{w.name}: {who} skipped (bundle takes {want}, the eager "
              f"inputs are {got}; compile with --weight-layout nk)",
              flush=True)
        return None, None
    spec = kernel.outputs[0]
    dtype = {"bf16": BF16, "f16": torch.float16, "f32": torch.float32}[
        spec["dtype"]]
    out = torch.empty([args[0].shape[0] if d == -1 else d
                       for d in spec["shape"]], dtype=dtype, device=DEV)
    # The output is allocated once, like the eager chain's caching
    # allocator would serve it; each call pays the runtime's launch path.
    def call():
        return kernel(*args, out=out)
    if not fastcall:
        with mock.patch.dict(os.environ, {"FLASHFUSER_NO_FASTCALL": "1"}):
            call()
    return call, kernel


def path_of(name, w, auto_kernel):
    """Which path a baseline ran: ours* say fused or unfused, others ''."""
    if name in ("ours", "ours_py", "ours_direct", "ours_graph", "ours_dyn",
                "ours_dyn_graph"):
        return "fused"
    if name.startswith("ours_auto") and auto_kernel is not None:
        # Captured calls take the bin's graph choice, eager ones its eager.
        return auto_kernel.choice(w.m, graph=name.endswith("_graph")) or \
            "undecided"
    return ""


# --------------------------------------------------------------------------

def split_chain(w, inputs):
    """A gated FFN's chain with gate and up as two GEMMs over row views of
    the merged weight (same inputs as make()'s eager chain); None for the
    other kinds."""
    if w.kind != "gated_ffn":
        return None
    x, wgu, wd = inputs
    wg, wu = wgu[:w.n], wgu[w.n:]
    return lambda: F.linear(F.silu(F.linear(x, wg)) * F.linear(x, wu), wd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--bundles")
    ap.add_argument("--only", default="", help="comma-separated name "
                    "prefixes; NAME$ selects NAME alone (G5$: not the G5 "
                    "M sweep)")
    ap.add_argument("--baselines", default="eager,graph,eager_split,"
                    "graph_split,compile,ours,ours_graph,ours_auto,"
                    "ours_auto_graph")
    ap.add_argument("--dynamic", help="directory of dynamic-M bundles "
                    "(ours_dyn, ours_dyn_graph)")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=4,
                    help="hot runs are taken in this many rounds over all "
                    "of a workload's baselines (interleaved_hot_ms)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    baselines = a.baselines.split(",")
    prefixes = [p for p in a.only.split(",") if p]

    def selected(w):
        return not prefixes or any(w.name == p[:-1] if p.endswith("$")
                                   else w.name.startswith(p)
                                   for p in prefixes)

    if not any(selected(w) for w in W.all_workloads()):
        sys.exit(f"bench: --only {a.only!r} selects no workload (comma-"
                 "separated name prefixes; NAME$ for NAME alone)")

    gpu = torch.cuda.get_device_name()
    monitor = clocks.Monitor(
        str(getattr(torch.cuda.get_device_properties(0), "uuid", "")))
    ceil = ceilings(a.reps, monitor)
    peak, bw, floor = ceil["peak"], ceil["bw"], ceil["floor"]
    print(f"# {gpu}: matmul {peak:.0f} TFLOP/s ({ceil['peak_sustained']:.0f} "
          f"sustained), copy {bw:.0f} GB/s, launch floor {floor:.1f} us",
          flush=True)
    windows = {}

    rows = []
    # ours_auto's decisions: (workload, eager path, graph path, fused ms,
    # unfused ms, fused graph ms, unfused graph ms, no-unfused reason)
    decisions = []
    gen = torch.Generator(device=DEV)
    for w in W.all_workloads():
        if not selected(w):
            continue
        gen.manual_seed(hash(w.name) & 0xFFFF)
        inputs, eager, ref = make(w, gen)
        expect = ref(*inputs)
        bound_us = roofline_us(w, peak, bw)
        bound_sustained_us = roofline_us(w, ceil["peak_sustained"], bw)
        variants = {}
        graphed = {}  # graph baseline -> the call its graphs capture
        if "eager" in baselines:
            variants["eager"] = lambda: eager(*inputs)
        if "graph" in baselines:
            graphed["graph"] = lambda: eager(*inputs)
            variants["graph"] = in_graph(graphed["graph"])[0]
        # Gated FFNs also as two GEMMs over the merged weight's halves (the
        # issue's chain merges them): from M = 256 up to 1.22x faster on
        # an H200 (docs/validation.md, thirty-ninth session).
        split = split_chain(w, inputs)
        if split and "eager_split" in baselines:
            variants["eager_split"] = split
        if split and "graph_split" in baselines:
            graphed["graph_split"] = split
            variants["graph_split"] = in_graph(split)[0]
        # Every workload's chain is the same Python function: without a
        # reset, dynamo's second shape recompiles it with symbolic sizes
        # (automatic dynamic shapes), and every later workload runs
        # inductor's shape-generic kernels (G8 took 237 us against eager's
        # 51). Each workload gets its own static compilation.
        if "compile" in baselines or "autotune" in baselines:
            torch._dynamo.reset()
        if "compile" in baselines:
            fc = torch.compile(eager, dynamic=False)
            variants["compile"] = lambda: fc(*inputs)
        if "autotune" in baselines:
            fa = torch.compile(eager, mode="max-autotune-no-cudagraphs",
                               dynamic=False)
            variants["autotune"] = lambda: fa(*inputs)
        if "ours" in baselines or "ours_graph" in baselines:
            ours, _ = ours_callable(w, inputs, a.bundles)
            if ours and "ours" in baselines:
                variants["ours"] = ours
            if ours and "ours_graph" in baselines:
                graphed["ours_graph"] = ours
                variants["ours_graph"] = in_graph(ours)[0]
        if "ours_dyn" in baselines or "ours_dyn_graph" in baselines:
            dyn, kernel = ours_callable(w, inputs, a.dynamic, dynamic=True)
            if dyn and kernel.inputs[0]["shape"][0] != -1:
                print(f"{w.name}: ours_dyn skipped ({a.dynamic}/"
                      f"{dynamic_name(w)} has a static M)", flush=True)
                dyn = None
            if dyn and "ours_dyn" in baselines:
                variants["ours_dyn"] = dyn
            if dyn and "ours_dyn_graph" in baselines:
                graphed["ours_dyn_graph"] = dyn
                variants["ours_dyn_graph"] = in_graph(dyn)[0]
        if "ours_py" in baselines:
            py, _ = ours_callable(w, inputs, a.bundles, fastcall=False)
            if py:
                variants["ours_py"] = py
        if "ours_direct" in baselines:
            direct, _ = ours_callable(w, inputs, a.bundles, graphs=False)
            if direct:
                variants["ours_direct"] = direct
        auto_kernel = None
        if "ours_auto" in baselines or "ours_auto_graph" in baselines:
            auto, auto_kernel = ours_callable(w, inputs, a.bundles,
                                              fallback="auto")
            if auto:
                # The first call times fused vs unfused, eagerly and as
                # graph replays, and remembers the faster of each; it must
                # happen eagerly, since a call inside graph capture never
                # times (in_graph's warm-up would also do it).
                auto()
                times = auto_kernel.timings(w.m) or {}
                choices = auto_kernel.choices(w.m) or {}
                decisions.append((w.name, choices.get("eager"),
                                  choices.get("graph"), times.get("fused"),
                                  times.get("unfused"),
                                  times.get("fused_graph"),
                                  times.get("unfused_graph"),
                                  auto_kernel.unfused_reason))
                if "ours_auto" in baselines:
                    variants["ours_auto"] = auto
                if "ours_auto_graph" in baselines:
                    graphed["ours_auto_graph"] = auto
                    variants["ours_auto_graph"] = in_graph(auto)[0]
        errs, timed = {}, {}
        for name, fn in variants.items():
            out = fn()
            errs[name] = rel_err(as_reference_layout(w, name, out), expect) if out is not None and not name.endswith("graph") else float("nan")
            timed[name] = (graph_hot_timed(graphed[name], fn)
                           if name in graphed else (fn, 1))
        windows[w.name] = {}
        hots = interleaved_hot_ms(timed, a.reps, a.rounds, monitor,
                                  windows[w.name])
        for name, fn in variants.items():
            err = errs[name]
            hot = hots[name] * 1e3
            cold = time_ms(fn, a.reps, cold=True) * 1e3
            rows.append(dict(workload=w.name, kind=w.kind, m=w.m, n=w.n, k=w.k,
                             l=w.l, baseline=name, hot_us=round(hot, 2),
                             cold_us=round(cold, 2),
                             tflops=round(w.flops() / (hot * 1e-6) / 1e12, 1),
                             bound_us=round(bound_us, 2),
                             pct_roofline=round(100 * bound_us / hot, 1),
                             pct_roofline_sustained=round(
                                 100 * bound_sustained_us / hot, 1),
                             rel_err=f"{err:.2e}",
                             path=path_of(name, w, auto_kernel)))
            print(",".join(str(v) for v in rows[-1].values()), flush=True)

    if not rows:
        sys.exit("bench: no row was measured (every baseline skipped)")
    # The power state while each row's hot runs were timed.
    for r in rows:
        r.update(clocks.summarize(windows[r["workload"]][r["baseline"]]))
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    write_report(a, gpu, ceil, rows, decisions)


def write_report(a, gpu, ceil, rows, decisions=()):
    lines = [f"# Benchmarks on {gpu}", "",
             f"Ceilings measured in this run: bf16 matmul {ceil['peak']:.0f} "
             f"TFLOP/s at once{clock_note(clocks.summarize(ceil['burst']))} "
             f"and {ceil['peak_sustained']:.0f} after {ceil['sustain_s']:g} s "
             "of matmuls"
             f"{clock_note(clocks.summarize(ceil['sustained']))}, "
             f"copy {ceil['bw']:.0f} GB/s, launch floor {ceil['floor']:.1f} us. "
             "`% roofline` takes the first peak (the issue's bound), "
             "`% sust.` the sustained one.", "",
             "The GPU's clocks are left as found. While a row's hot runs "
             "were timed (NVML, read-only): `capped %` the share of the time "
             "the GPU was held at its power cap, `SM MHz` the median SM clock "
             "read at the end of each round (after the GPU drained). Under a "
             "sustained chain an H200 meets its cap and slows down (S3 at M = "
             "256 140 us in a 30 ms run, 157-169 us after seconds): a row's "
             "time depends on how long the GPU had been busy, and `capped %` "
             "says how much that row was held back.", "",
             "Command: `python3 scripts/bench/bench.py " + " ".join(sys.argv[1:]) + "`",
             "", "| workload | baseline | path | hot us | cold us | TFLOP/s | bound us | % roofline | % sust. | rel err | capped % | SM MHz |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['workload']} | {r['baseline']} | {r['path']} | {r['hot_us']} | "
                     f"{r['cold_us']} | {r['tflops']} | {r['bound_us']} | {r['pct_roofline']} | "
                     f"{r.get('pct_roofline_sustained', '')} | "
                     f"{r['rel_err']} | {r.get('power_capped_pct', '')} | "
                     f"{r.get('sm_mhz', '')} |")
    if decisions:
        lines += ["", "`path`: what ran; `ours_auto` and `ours_auto_graph` share one "
                  "`fallback=\"auto\"` kernel whose first (eager) call timed the fused "
                  "kernel against the unfused PyTorch chain twice: per call (median, hot "
                  "L2, host launch path included) for the eager choice, which "
                  "`ours_auto` runs, and per CUDA graph replay (median) for the graph "
                  "choice, which `ours_auto_graph`'s captured call runs:", "",
                  "| workload | eager path | graph path | fused us | unfused us | "
                  "fused graph us | unfused graph us | note |",
                  "|---|---|---|---|---|---|---|---|"]

        def us(ms):
            return "" if ms is None else f"{ms * 1e3:.2f}"
        for (name, eager, graph, fused, unfused, fused_g, unfused_g,
             reason) in decisions:
            if reason:
                note = f"no unfused form: {reason}"
            elif unfused is not None and (fused_g is None or unfused_g is None):
                note = "graph timing failed: the eager choice under capture too"
            else:
                note = ""
            lines.append(f"| {name} | {eager} | {graph} | {us(fused)} | {us(unfused)} | "
                         f"{us(fused_g)} | {us(unfused_g)} | {note} |")
    with open(os.path.join(a.out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    plots.write_plots(rows, a.out)


def clock_note(c):
    """' (P % power-capped, SM clock C MHz)' of clocks.summarize."""
    parts = []
    if c and c["power_capped_pct"] != "":
        parts.append(f"{c['power_capped_pct']} % power-capped")
    if c and c["sm_mhz"] != "":
        parts.append(f"SM clock {c['sm_mhz']} MHz")
    return " (" + ", ".join(parts) + ")" if parts else ""


if __name__ == "__main__":
    main()
