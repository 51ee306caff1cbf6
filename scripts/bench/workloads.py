"""The paper's workloads (FlashFuser Tables V–VII) and the perf-anchors extras.

One source of truth for the benchmark harness and the workload compiler.
GEMM chains: GEMM1 = (m x n x k), GEMM2 = (m x l x n), i.e.
E[m, l] = act(A[m, k] @ B[k, n]) @ D[n, l].
"""
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Workload:
    name: str
    kind: str          # "ffn" | "gated_ffn" | "conv" | "gemm" (l = 0)
    m: int
    n: int
    k: int
    l: int
    act: str = "gelu_tanh"
    # conv chains: (batch, IC, H, W, OC1, OC2, k1, k2); m = batch*H*W
    conv: tuple = field(default=())

    def flops(self):
        if self.kind == "gemm":
            return 2 * self.m * self.n * self.k
        f = 2 * self.m * self.n * self.k + 2 * self.m * self.l * self.n
        if self.kind == "gated_ffn":
            f += 2 * self.m * self.n * self.k
        return f

    def min_bytes(self, b=2):
        """Each input, weight and output moved once (bf16). A convolution
        reads its image once: IC channels per output pixel, not the
        im2col view's IC * k1 * k1."""
        if self.kind == "gemm":
            return b * (self.m * self.k + self.k * self.n + self.m * self.n)
        w1 = self.k * self.n * (2 if self.kind == "gated_ffn" else 1)
        a = self.m * (self.conv[1] if self.kind == "conv" else self.k)
        return b * (a + w1 + self.n * self.l + self.m * self.l)


G = [("G1", 128, 512, 32, 256), ("G2", 128, 256, 512, 64),
     ("G3", 128, 512, 416, 256), ("G4", 128, 3072, 768, 768),
     ("G5", 128, 16384, 4096, 4096), ("G6", 128, 4096, 1024, 1024),
     ("G7", 128, 768, 768, 768), ("G8", 128, 8192, 2048, 2048),
     ("G9", 128, 2048, 512, 512), ("G10", 128, 1536, 384, 384)]
S = [("S1", 128, 8192, 3072, 3072), ("S2", 128, 5632, 2048, 2048),
     ("S3", 128, 11008, 4096, 4096), ("S4", 128, 8192, 2048, 2048),
     ("S5", 128, 11008, 2048, 2048), ("S6", 128, 8960, 1536, 1536),
     ("S7", 128, 9728, 2560, 2560), ("S8", 128, 3072, 1024, 1024)]
# IC, H, W, OC1, OC2, k1, k2
C = [("C1", 64, 56, 56, 256, 64, 1, 1), ("C2", 128, 28, 28, 512, 128, 1, 1),
     ("C3", 256, 14, 14, 1024, 256, 1, 1), ("C4", 512, 7, 7, 2048, 512, 1, 1),
     ("C5", 64, 56, 56, 64, 256, 3, 1), ("C6", 128, 28, 28, 128, 512, 3, 1),
     ("C7", 256, 14, 14, 256, 1024, 3, 1), ("C8", 512, 7, 7, 512, 2048, 3, 1)]


def gemm_chains():
    return [Workload(n, "ffn", m, nn, k, l) for n, m, nn, k, l in G]


def gated_chains():
    return [Workload(n, "gated_ffn", m, nn, k, l, act="silu")
            for n, m, nn, k, l in S]


def conv_chains(batch):
    out = []
    for name, ic, h, w, oc1, oc2, k1, k2 in C:
        # im2col view: GEMM1 (N*H*W x OC1 x IC*k1*k1), GEMM2 (.. x OC2 x OC1)
        out.append(Workload(f"{name}-b{batch}", "conv", batch * h * w, oc1,
                            ic * k1 * k1, oc2, act="relu",
                            conv=(batch, ic, h, w, oc1, oc2, k1, k2)))
    return out


def m_sweep():
    base = {w.name: w for w in gemm_chains() + gated_chains()}
    out = []
    for name in ("G5", "S3"):
        w = base[name]
        for m in (16, 64, 128, 256, 512, 1024, 4096, 8192):
            out.append(Workload(f"{name}-m{m}", w.kind, m, w.n, w.k, w.l, w.act))
    return out


def narrow_and_dsm_window():
    """perf-anchors T3 (narrow chains) and T4 (the DSM window)."""
    out = []
    for kk in (64, 128, 256):
        for n1 in (2048, 4096):
            for m in (4096, 16384):
                out.append(Workload(f"T3-k{kk}-n{n1}-m{m}", "ffn", m, n1, kk, kk))
    for kk in (384, 512, 768):
        for m in (512, 2048, 4096):
            out.append(Workload(f"T4-k{kk}-m{m}", "ffn", m, 4 * kk, kk, kk))
    return out


def single_gemms():
    """A chain of one (`--dsm-fuse=fuse-single-gemms=true`): the health
    check of the GEMM engine against cuBLAS (the lowering issue's target:
    >= 0.9x at 4096^3 and 8192^3, bf16)."""
    square = [Workload(f"GEMM-{s}", "gemm", s, s, s, 0, act="identity")
              for s in (4096, 8192)]
    # Short M (decode-like): 32 MiB of weights for a few rows, where one
    # CTA per output tile leaves most SMs idle and split K pays.
    short = [Workload(f"GEMM-4096-m{m}", "gemm", m, 4096, 4096, 0,
                      act="identity") for m in (16, 64, 128, 256)]
    return square + short


# M of the dynamic-M sweep: inside the default bins 257-384, 769-1024 and
# 1025-2048, none a bin's upper end (where its plan was searched).
# FF_DYNAMIC_SWEEP_M="450,650" times other M (a session's drivers).
DYNAMIC_SWEEP_M = tuple(
    int(m) for m in os.environ.get("FF_DYNAMIC_SWEEP_M", "300,800,1500")
    .split(","))


def dynamic_m_sweep():
    """Every G and S chain at the M of DYNAMIC_SWEEP_M, named dyn-G5-m300
    and so on: the shapes a dynamic-M bundle (compile-workloads.py
    --dynamic-m) serves between its bins' upper ends, timed by bench.py's
    ours_dyn baselines against PyTorch's chains. The prefix keeps them out
    of --only G5 and the like."""
    return [Workload(f"dyn-{w.name}-m{m}", w.kind, m, w.n, w.k, w.l, w.act)
            for w in gemm_chains() + gated_chains() for m in DYNAMIC_SWEEP_M]


def all_workloads():
    return (gemm_chains() + gated_chains() + conv_chains(1) + conv_chains(32)
            + m_sweep() + narrow_and_dsm_window() + single_gemms()
            + dynamic_m_sweep())
