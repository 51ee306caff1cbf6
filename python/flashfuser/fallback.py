"""The unfused form of a bundle's chain, and the measured choice between it
and the fused kernel.

A bundle's manifest (docs/bundle.md) names what its kernel computes: the
chain kind, the activation, the dtypes and every tensor's shape (and the
weights' layout). ``chain_form`` reads that into a ``ChainForm`` (pure
Python); ``build_unfused`` turns it into a callable running the same chain as
plain PyTorch ops: cuBLAS GEMMs (cuDNN for a 3x3 convolution), the
activation, the gate product. ``Dispatcher`` picks, per M bin, whichever of
the two paths was measured faster, once for eager calls and once for calls
captured into a CUDA graph (docs/runtime.md, "Fallback").

Nothing here imports PyTorch at module level, so the package still imports
without it.
"""

from __future__ import annotations

import math
import statistics
import warnings
from dataclasses import dataclass
from typing import Callable, Dict, Hashable, Optional, Sequence, Tuple

FUSED = "fused"
UNFUSED = "unfused"
MODES = ("never", "auto", "always")
# Dispatcher.times keys of the medians per CUDA graph replay.
FUSED_GRAPH = "fused_graph"
UNFUSED_GRAPH = "unfused_graph"

# The activations a manifest can name (lib/Runtime/Manifest.cpp; mlirgen's
# ACTIVATIONS). "custom" (an epilogue the compiler's matcher did not know)
# has no unfused form.
ACTIVATIONS = ("identity", "relu", "gelu_erf", "gelu_tanh", "silu", "sigmoid")

# Weight (name, rows, cols) as [in, out] per chain kind, in input order.
_WEIGHT_DIMS = {
    "gemm": (("w", "k", "n"),),
    "ffn": (("w1", "k", "n"), ("w2", "n", "l")),
    "gated_ffn": (("wg", "k", "n"), ("wu", "k", "n"), ("wd", "n", "l")),
    "gated_gemm": (("wg", "k", "n"), ("wu", "k", "n")),
}


class FallbackUnavailable(ValueError):
    """The manifest does not describe a chain the unfused path can run."""


@dataclass(frozen=True)
class ChainForm:
    """What the unfused path computes (the manifest's chain, normalised)."""
    kind: str                  # "gemm" | "ffn" | "gated_ffn" | "gated_gemm"
    activation: str            # one of ACTIVATIONS
    dtype: str                 # GEMM operand dtype
    out_dtype: str
    n: int
    l: int                     # 0 for gemm and gated_gemm
    # per weight: "kn" [in, out] or "nk" [out, in]; filters: HWCF or FHWC
    layouts: Tuple[str, ...]
    conv: int = 0              # ffn over NHWC images: first filter size (1, 3)


def weight_layout(spec: dict, rows: int, cols: int) -> str:
    """The layout of a 2-D weight whose [in, out] extents are (rows, cols).

    The manifest's ``layout`` decides when present (the compiler writes
    "nk" for every K-major weight and leaves "kn", the format's default,
    implicit); it must agree with the shape. Without it the shape decides,
    [in, out] ("kn") first, so a square weight is "kn" as docs/bundle.md
    defines the default."""
    shape = list(spec["shape"])
    kn, nk = [rows, cols], [cols, rows]
    layout = spec.get("layout")
    if layout is not None:
        if layout not in ("kn", "nk"):
            raise FallbackUnavailable(
                f"weight '{spec['name']}': unknown layout {layout!r}")
        want = kn if layout == "kn" else nk
        if shape != want:
            raise FallbackUnavailable(
                f"weight '{spec['name']}': layout {layout} means shape {want}"
                f", the manifest says {shape}")
        return layout
    if shape == kn:
        return "kn"
    if shape == nk:
        return "nk"
    raise FallbackUnavailable(
        f"weight '{spec['name']}': shape {shape} is neither [in, out] = {kn} "
        f"nor [out, in] = {nk}")


def _conv_form(chain: dict, ins: Sequence[dict],
               out: dict) -> Tuple[int, Tuple[str, str]]:
    """The first filter size and the filters' layouts of an ffn over NHWC
    images: x [B, H, W, C], out [B, H, W, L], and filters either HWCF
    (layout "kn": w1 [R, R, C, N], w2 [1, 1, N, L]) or FHWC (layout "nk":
    w1 [N, R, R, C], w2 [L, 1, 1, N], PyTorch's OIHW weights in
    channels_last memory). Stride 1, dilation 1 and zero padding (R - 1) / 2
    are implied, not recorded: they are the only convolutions the lowering
    accepts (1x1, and 3x3 pad 1 in KernelPlan's im2col matcher), and the
    equal input and output image sizes check the padding."""
    x, w1, w2 = (list(t["shape"]) for t in ins)
    o = list(out["shape"])
    n, l, k = chain["n"], chain["l"], chain["k"]
    if len(w1) != 4 or len(w2) != 4 or len(o) != 4 or -1 in x:
        raise FallbackUnavailable(
            f"convolution chain with shapes x {x}, w1 {w1}, w2 {w2}, out {o} "
            f"(expected NHWC x, HWCF or FHWC filters and a static batch)")
    layouts = tuple(t.get("layout", "kn") for t in ins[1:])
    if any(lay not in ("kn", "nk") for lay in layouts):
        raise FallbackUnavailable(f"filter layouts {list(layouts)} (expected "
                                  f"'kn' for HWCF or 'nk' for FHWC)")
    b, h, w, c = x
    fhwc1, fhwc2 = (lay == "nk" for lay in layouts)
    r = w1[1] if fhwc1 else w1[0]
    want1 = [n, r, r, c] if fhwc1 else [r, r, c, n]
    if w1 != want1 or r not in (1, 3) or r * r * c != k:
        raise FallbackUnavailable(
            f"first filter {w1} is not a 1x1 or 3x3 "
            f"{'FHWC [F, R, R, C]' if fhwc1 else 'HWCF [R, R, C, F]'} "
            f"filter {want1} with R*R*C = K = {k}")
    want2 = [l, 1, 1, n] if fhwc2 else [1, 1, n, l]
    if w2 != want2:
        raise FallbackUnavailable(f"second filter {w2} is not {want2}")
    if o != [b, h, w, l] or chain["m"] != b * h * w:
        raise FallbackUnavailable(
            f"output {o} and M = {chain['m']} do not match a stride-1 'same' "
            f"convolution of x {x}")
    return r, layouts


def chain_form(manifest: dict) -> ChainForm:
    """The unfused form of a manifest's chain; FallbackUnavailable (with the
    reason) when the manifest does not describe one.

    Assumes what the manifest cannot say: that the chain's only elementwise
    work is the named activation (and for the gated kinds the gate product)
    rounded to ``dtype``, then a cast to the output dtype after the last
    GEMM. That holds for every chain flashfuser.compile() generates from a
    spec; a bundle compiled from other MLIR with more elementwise stages
    must not use the fallback (docs/runtime.md)."""
    chain = manifest.get("chain", {})
    kind = chain.get("kind")
    if kind not in _WEIGHT_DIMS:
        raise FallbackUnavailable(f"chain kind {kind!r} has no unfused form "
                                  f"(supported: {', '.join(_WEIGHT_DIMS)})")
    act = chain.get("activation", "identity")
    if act not in ACTIVATIONS:
        raise FallbackUnavailable(f"activation {act!r} has no unfused form")
    dtype = chain.get("dtype")
    ins, outs = chain.get("inputs", []), chain.get("outputs", [])
    dims = _WEIGHT_DIMS[kind]
    if len(ins) != 1 + len(dims) or len(outs) != 1:
        raise FallbackUnavailable(
            f"a {kind} chain takes {1 + len(dims)} inputs and 1 output, the "
            f"manifest lists {len(ins)} and {len(outs)}")
    for t in ins:
        if t.get("dtype") != dtype:
            raise FallbackUnavailable(
                f"input '{t.get('name')}' is {t.get('dtype')}, the chain's "
                f"dtype is {dtype}")
    size = {"k": chain.get("k"), "n": chain.get("n"), "l": chain.get("l", 0)}
    out = outs[0]
    if len(ins[0]["shape"]) == 4:
        if kind != "ffn":
            raise FallbackUnavailable(f"{kind} chains over images have no "
                                      f"unfused form")
        conv, layouts = _conv_form(chain, ins, out)
    else:
        conv = 0
        x, o = list(ins[0]["shape"]), list(out["shape"])
        cols = size[dims[-1][2]]
        if len(x) != 2 or x[1] != size["k"] or len(o) != 2 or o[1] != cols:
            raise FallbackUnavailable(
                f"x {x} and out {o} are not [M, {size['k']}] and [M, {cols}]")
        layouts = tuple(weight_layout(t, size[r], size[c])
                        for t, (_, r, c) in zip(ins[1:], dims))
    return ChainForm(kind=kind, activation=act, dtype=dtype,
                     out_dtype=out["dtype"], n=size["n"], l=size["l"] or 0,
                     layouts=layouts, conv=conv)


# --------------------------------------------------------------------------
# The unfused chain in PyTorch
# --------------------------------------------------------------------------

def _activation(name: str, F, inplace: bool = True) -> Optional[Callable]:
    """act(t) (None for identity): in place where PyTorch has it and
    `inplace` (t is then an intermediate the chain owns, or the output),
    else into a new tensor."""
    if name == "identity":
        return None
    if inplace and name in ("relu", "sigmoid", "silu"):
        return {"relu": lambda t: t.relu_(),
                "sigmoid": lambda t: t.sigmoid_(),
                "silu": lambda t: F.silu(t, inplace=True)}[name]
    return {"relu": F.relu,
            "sigmoid": lambda t: t.sigmoid(),
            "silu": F.silu,
            "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
            "gelu_erf": F.gelu}[name]


def _gate_product(name: str, F) -> Callable:
    """gate(g, u) = act(g) * u as the eager chain computes it: out of place,
    so the product is contiguous whatever g and u are."""
    act = _activation(name, F, inplace=False)
    if act is None:
        return lambda g, u: g * u
    return lambda g, u: act(g) * u


_mm_out_dtype: Optional[bool] = None   # torch.mm(..., out_dtype=) exists?


def _mm_into(torch, a, b, out):
    """out = a·b, out's dtype possibly wider than a's: fp32 outputs come
    straight from cuBLAS's fp32 accumulator where torch.mm has out_dtype
    (PyTorch >= 2.8), else through a rounded copy."""
    global _mm_out_dtype
    if out.dtype == a.dtype:
        torch.mm(a, b, out=out)
        return
    if out.dtype == torch.float32 and _mm_out_dtype is not False:
        try:
            torch.mm(a, b, out_dtype=torch.float32, out=out)
            _mm_out_dtype = True
            return
        except TypeError:       # this PyTorch has no out_dtype overload
            _mm_out_dtype = False
    out.copy_(torch.mm(a, b))


def _merged_rows(wg, wu):
    """One [2N, K] view over nn.Linear weights wg and wu that lie back to
    back in one storage (a merged gate|up weight split in two), so both
    projections run as one GEMM, as an eager model does; else None."""
    if (wg.shape != wu.shape or not wg.is_contiguous() or
            not wu.is_contiguous() or
            wu.data_ptr() != wg.data_ptr() + wg.numel() * wg.element_size()
            or wg.untyped_storage().data_ptr() !=
            wu.untyped_storage().data_ptr()):
        return None
    rows, cols = wg.shape
    return wg.as_strided((2 * rows, cols), (cols, 1))


def build_unfused(form: ChainForm) -> Callable:
    """``run(*inputs, out)``: the chain as PyTorch ops on the caller's
    current stream, writing ``out`` (contiguous, manifest shape and dtype).

    ``run.bind(*weights)`` returns ``run_w(x, out)``, the same chain with
    everything derived from the weights (transposed views, the merged
    gate|up view, filter permutations) made once, so a call runs just the
    chain's ops; Kernel caches it per weight set.

    GEMMs take bf16/f16 operands and accumulate in fp32 (cuBLAS); unlike the
    fused kernel, the first GEMM's result is rounded to ``dtype`` before the
    activation (and gelu/silu/sigmoid then the gate product round again),
    the eager PyTorch chain's rounding. Inference only: intermediates are
    overwritten in place."""
    bind = _binder(form)

    def run(*args):
        *weights, out = args[1:]
        bind(*weights)(args[0], out)
    run.bind = bind
    return run


def _last_gemm(torch, form: ChainForm) -> Callable:
    """mm(a, b, out): the chain's last GEMM into out (see _mm_into)."""
    if form.out_dtype == form.dtype:
        mm = torch.mm

        def same(a, b, out):
            mm(a, b, out=out)
        return same

    def wider(a, b, out):
        _mm_into(torch, a, b, out)
    return wider


def _binder(form: ChainForm) -> Callable:
    """bind(*weights) -> run(x, out); see build_unfused."""
    import torch
    import torch.nn.functional as F

    act = _activation(form.activation, F)
    n, l = form.n, form.l
    mm = torch.mm
    last = _last_gemm(torch, form)

    def mat(w, layout):
        return w.t() if layout == "nk" else w

    if form.kind == "gemm":
        (lw,) = form.layouts

        def bind(w):
            b = mat(w, lw)

            def run(x, out):
                last(x, b, out)
                if act is not None:
                    # act runs on the rounded output; copy back when it was
                    # not in place.
                    r = act(out)
                    if r is not out:
                        out.copy_(r)
            return run
        return bind

    if form.kind == "gated_gemm":
        lg, lu = form.layouts
        gate = _gate_product(form.activation, F)

        def bind(wg, wu):
            a, b = mat(wg, lg), mat(wu, lu)

            def run(x, out):
                # The product in x's dtype, then the cast to out's, as the
                # kernel rounds once to the output.
                out.copy_(gate(mm(x, a), mm(x, b)))
            return run
        return bind

    if form.kind == "gated_ffn":
        lg, lu, ld = form.layouts
        gate = _gate_product(form.activation, F)

        def bind(wg, wu, wd):
            d = mat(wd, ld)
            a, b = mat(wg, lg), mat(wu, lu)

            def split(x, out):
                last(gate(mm(x, a), mm(x, b)), d, out)
            both = _merged_rows(wg, wu) if lg == lu == "nk" else None
            if both is None:
                return split
            bt = both.t()

            def run(x, out):
                # Merged gate|up weights run one GEMM over both below
                # M = 128, as an eager model does: g and u are strided
                # column halves, the gate product a new contiguous tensor
                # (in place on the halves, the last GEMM read a strided h
                # and ran up to 5 % slower at M = 4096 on an H100). From
                # M = 128 two GEMMs ran faster on an H200 over S1-S8 in
                # CUDA graphs: 0.99-1.22x the merged chain's speed at
                # M = 256-4096 (1.10x in geomean), 0.94-1.07x at 128 (1.02x),
                # and 0.93-1.03x at 16 (0.98x; docs/validation.md,
                # thirty-ninth session).
                if x.shape[0] >= 128:
                    return split(x, out)
                g, u = mm(x, bt).split(n, 1)
                last(gate(g, u), d, out)
            return run
        return bind

    l1, l2 = form.layouts

    def pointwise(w2):
        """The 1x1 second filter as the [N, L] matrix of the last GEMM."""
        return w2.view(l, n).t() if l2 == "nk" else w2.view(n, l)

    if form.conv == 3:
        conv2d = F.conv2d

        def bind(w1, w2):
            # OIHW views: an FHWC filter is OIHW in channels_last memory,
            # cuDNN's own layout; an HWCF one is transformed by cuDNN on
            # every call (docs/runtime.md, "Fallback").
            f = w1.permute(0, 3, 1, 2) if l1 == "nk" else w1.permute(3, 2, 0, 1)
            b = pointwise(w2)

            def run(x, out):
                # NHWC storage viewed as NCHW is channels_last, which cuDNN
                # keeps for its output, so the 1x1 GEMM below reads it as
                # rows.
                c = conv2d(x.permute(0, 3, 1, 2), f, padding=1)
                h = act(c) if act is not None else c
                last(h.permute(0, 2, 3, 1).reshape(-1, n), b,
                     out.view(-1, l))
            return run
        return bind

    if form.conv == 1:
        def bind(w1, w2):
            a = w1.view(n, -1).t() if l1 == "nk" else w1.view(-1, n)
            b = pointwise(w2)
            k = a.shape[0]

            def run(x, out):
                c = mm(x.view(-1, k), a)
                h = act(c) if act is not None else c
                last(h, b, out.view(-1, l))
            return run
        return bind

    def bind(w1, w2):
        a, b = mat(w1, l1), mat(w2, l2)

        def run(x, out):
            c = mm(x, a)
            h = act(c) if act is not None else c
            last(h, b, out)
        return run
    return bind


# --------------------------------------------------------------------------
# The measured choice
# --------------------------------------------------------------------------

Timer = Callable[[Callable[[], object], int, int], float]


def event_timer(stream) -> Timer:
    """Median milliseconds of fn() on `stream` (a torch.cuda.Stream), timed
    as scripts/bench/bench.py times (see _median_event_ms): a run's time
    includes its host launch path where the GPU waits for it, which for
    small chains is most of it."""
    def timer(fn, warmup, reps):
        for _ in range(warmup):
            fn()
        stream.synchronize()
        return _median_event_ms(stream, fn, reps)
    return timer


def _median_event_ms(stream, fn, reps) -> float:
    """Median over `reps` runs of fn() between two CUDA events recorded on
    `stream`, all runs queued before one synchronize (as
    triton.testing.do_bench): the GPU's time per run in steady state, not
    the latency of a launch onto an idle GPU."""
    import torch
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for start, end in events:
        start.record(stream)
        fn()
        end.record(stream)
    stream.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def _capture_begin(graph, pool=None):
    """graph.capture_begin() on the current stream (into memory pool `pool`
    when given), the thread's own unsafe CUDA calls an error (thread_local:
    other threads are left alone); older PyTorch without
    capture_error_mode, its default."""
    try:
        graph.capture_begin(pool=pool, capture_error_mode="thread_local")
    except TypeError:
        graph.capture_begin(pool=pool)


# A graph replay costs the host several microseconds to launch (~9.5 on the
# H100 hosts), more than small chains take on the GPU: back-to-back replays
# of a one-call graph would time the host, the same for both paths. Graphs
# of several back-to-back calls, at least _GRAPH_SPAN_MS of GPU work, time
# the GPU's work per call instead, as inside a model's forward graph.
_GRAPH_SPAN_MS = 0.2
_GRAPH_MAX_COPIES = 32


def graph_copies(one_ms: float) -> int:
    """Back-to-back calls per timed graph, given one call's `one_ms` inside
    a graph: as many as fill _GRAPH_SPAN_MS of GPU work, at most
    _GRAPH_MAX_COPIES (scripts/bench/bench.py sizes its graphs the same)."""
    return max(1, min(_GRAPH_MAX_COPIES,
                      math.ceil(_GRAPH_SPAN_MS / max(one_ms, 1e-6))))


def graph_timer(stream) -> Timer:
    """Median milliseconds per call of fn() inside a CUDA graph: on a side
    stream that first waits for `stream`, `warmup` eager runs, one capture
    of one call into its own torch.cuda.CUDAGraph (a private memory pool)
    and `warmup` untimed replays; when a replay takes less than
    _GRAPH_SPAN_MS, a graph of as many back-to-back calls as fill it
    replaces it (at most _GRAPH_MAX_COPIES). Then `reps` queued replays
    with CUDA events around each, divided by the calls per graph, like
    scripts/bench/bench.py's hot graph baselines: the GPU's time per call,
    no host launch path. fn must launch on the current stream. `stream`
    waits for the side stream afterwards, and the graphs (with their pools)
    are freed, also when capturing fails."""
    import torch

    def capture(fn, copies):
        graph = torch.cuda.CUDAGraph()
        try:
            _capture_begin(graph)
            try:
                for _ in range(copies):
                    fn()
            finally:
                graph.capture_end()
        except BaseException:
            graph.reset()
            raise
        return graph

    def timer(fn, warmup, reps):
        side = torch.cuda.Stream(device=stream.device)
        side.wait_stream(stream)
        graphs = []
        try:
            with torch.cuda.stream(side):
                for _ in range(warmup):
                    fn()
                graphs.append(capture(fn, 1))
                for _ in range(warmup):
                    graphs[-1].replay()
                side.synchronize()
                copies = graph_copies(
                    _median_event_ms(side, graphs[-1].replay, 3))
                if copies > 1:
                    graphs.append(capture(fn, copies))
                    graphs[-1].replay()
                    side.synchronize()
                return _median_event_ms(side, graphs[-1].replay,
                                        reps) / copies
        finally:
            stream.wait_stream(side)
            for g in graphs:
                g.reset()
    return timer


class Dispatcher:
    """Per-key (M bin) choice between a fused and an unfused callable, one
    for eager calls and one for calls captured into a CUDA graph.

    ``mode``: "never" always answers fused, "always" unfused; "auto" times
    both the first time a key is seen (``timer(fn, warmup, reps)`` -> ms,
    ``rounds`` times each in alternating order, the faster round of each
    kept: a transient slowdown of the host or the GPU during one round
    cannot flip the choice) and remembers the faster (fused on a tie) as
    the eager choice; with a
    ``graph_timer`` it then times both again as CUDA graph replays and
    remembers the faster there as the graph choice (the eager choice when
    graph timing fails or is not asked for). Nothing is timed while a CUDA
    graph is being captured (``capturing``): the remembered graph choice is
    used, else fused, and the key stays undecided."""

    def __init__(self, mode: str = "auto", warmup: int = 3, reps: int = 10,
                 rounds: int = 3):
        if mode not in MODES:
            raise ValueError(f"fallback must be one of {', '.join(MODES)}, "
                             f"got {mode!r}")
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, got {rounds}")
        self.mode = mode
        self.warmup = warmup
        self.reps = reps
        self.rounds = rounds
        self._choice: Dict[Hashable, str] = {}      # eager
        self._graph: Dict[Hashable, str] = {}       # under capture
        self._times: Dict[Hashable, Dict[str, Optional[float]]] = {}

    def choice(self, key, graph: bool = False) -> Optional[str]:
        """The remembered eager choice for `key` (with graph=True, the one
        for captured calls), or None while undecided."""
        return (self._graph if graph else self._choice).get(key)

    def choices(self, key) -> Optional[Dict[str, str]]:
        """{"eager": path, "graph": path} for `key`, None while undecided."""
        c = self._choice.get(key)
        if c is None:
            return None
        return {"eager": c, "graph": self._graph.get(key, c)}

    def times(self, key) -> Optional[Dict[str, Optional[float]]]:
        """{"fused": ms, "unfused": ms or None} measured for `key` (None
        when it was decided without timing), and where graphs were timed
        "fused_graph" and "unfused_graph" (ms per replay, None when that
        timing failed or was skipped)."""
        t = self._times.get(key)
        return dict(t) if t is not None else None

    def choose(self, key, fused: Callable[[], object],
               unfused: Optional[Callable[[], object]], timer: Timer,
               capturing: bool = False, graph_timer: Optional[Timer] = None,
               graph_paths: Optional[Tuple[Callable[[], object],
                                           Callable[[], object]]] = None
               ) -> str:
        """The path for `key` in this context (the graph choice when
        `capturing`, else the eager one), deciding (and timing, in "auto")
        when it is undecided. `unfused` is None when the chain has no
        unfused form. `graph_timer` (optional) times a callable as CUDA
        graph replays; `graph_paths`: the (fused, unfused) callables it
        captures, when they differ from the eager ones."""
        c = self._choice.get(key)
        if c is not None:
            return self._graph.get(key, c) if capturing else c
        if self.mode == "never" or (self.mode == "auto" and unfused is None):
            c = g = FUSED
        elif self.mode == "always":
            if unfused is None:
                raise FallbackUnavailable("fallback='always' but the chain "
                                          "has no unfused form")
            c = g = UNFUSED
        elif capturing:
            return FUSED            # timing would break the capture
        else:
            t_fused, t_unfused = self._time_eager(fused, unfused, timer)
            c = UNFUSED if t_unfused is not None and t_unfused < t_fused \
                else FUSED
            times = {FUSED: t_fused, UNFUSED: t_unfused}
            g = c
            if graph_timer is not None:
                times[FUSED_GRAPH] = times[UNFUSED_GRAPH] = None
                if t_unfused is not None:
                    g = self._time_graphs(times, c, graph_timer,
                                          graph_paths or (fused, unfused))
            self._times[key] = times
        self._choice[key] = c
        self._graph[key] = g
        return c

    def _time_eager(self, fused, unfused, timer: Timer
                    ) -> Tuple[float, Optional[float]]:
        """(fused ms, unfused ms or None when the unfused chain failed):
        the fastest of `rounds` timings of each, taken in alternating order
        (fused first, then unfused first, ...) so that neither path always
        runs right after the other; the first round of each warms up
        `warmup` times, later ones once. A host stall or clock dip spoils a
        round, rarely every round (an H100 run timed G5's unfused chain at
        499 us per call once, 123 us in every other measurement)."""
        t_fused = t_unfused = math.inf
        for r in range(self.rounds):
            warmup = self.warmup if r == 0 else 1
            order = (FUSED, UNFUSED) if r % 2 == 0 else (UNFUSED, FUSED)
            for path in order:
                if path == FUSED:
                    t_fused = min(t_fused, timer(fused, warmup, self.reps))
                    continue
                try:
                    t_unfused = min(t_unfused,
                                    timer(unfused, warmup, self.reps))
                except Exception as e:  # noqa: BLE001 (any failure: fused)
                    warnings.warn(f"flashfuser: the unfused chain failed "
                                  f"({e}); using the fused kernel")
                    return t_fused, None    # round 0 timed fused first
        return t_fused, t_unfused

    def _time_graphs(self, times, eager: str, graph_timer: Timer,
                     paths) -> str:
        """Times both paths as graph replays into `times`; the faster
        (fused on a tie), or `eager` when either timing fails."""
        gf, gu = paths
        try:
            times[FUSED_GRAPH] = graph_timer(gf, self.warmup, self.reps)
            times[UNFUSED_GRAPH] = graph_timer(gu, self.warmup, self.reps)
        except Exception as e:  # noqa: BLE001 (any failure: eager choice)
            warnings.warn(f"flashfuser: timing the paths in CUDA graphs "
                          f"failed ({e}); captured calls use the eager "
                          f"choice ({eager})")
            return eager
        return UNFUSED if times[UNFUSED_GRAPH] < times[FUSED_GRAPH] \
            else FUSED
