"""Fifty-ninth session, on the machine with the compiler: single GEMMs
lowered as HEAD lowers them (OUT/<W><M>-base) and with a variant's
--lower-to-nvvm options (OUT/<W><M>-<variant>): the search's top-1 plan
of each, and S6's down GEMM at M = 440 also on the swapped 88 x 64 plan
the multicast probe mirrors (<W>s88). Variant `gpc` (default):
gpc-raster=true, with FF_OPT a test build (test-build-gpc.patch); `n`:
raster-group-m=0 (n tiles fastest). (usage: THIS OUT [JOBS] [VARIANT])."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
sys.path.insert(0, os.path.join(here, "..", "s58"))
from halves import write_source  # noqa: E402
from multicast import swapped_64_row_plan  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

# (name, kind, n, k, activation, M)
WORK = [("S6DN", "gemm", 1536, 8960, "identity", 440),
        ("S6DN", "gemm", 1536, 8960, "identity", 560),
        ("S2DN", "gemm", 2048, 5632, "identity", 300),
        ("G8DN", "gemm", 2048, 8192, "identity", 300),
        ("S3DN", "gemm", 4096, 11008, "identity", 440),
        ("G4DN", "gemm", 768, 3072, "identity", 440),
        ("G6DN", "gemm", 1024, 4096, "identity", 440),
        ("G9DN", "gemm", 512, 2048, "identity", 440),
        ("G5DN", "gemm", 4096, 16384, "identity", 560),
        ("S6GG", "gated_gemm", 8960, 1536, "silu", 440),
        ("GEMM4096", "gemm", 4096, 4096, "identity", 4096)]


VARIANTS = {"gpc": "gpc-raster=true", "n": "raster-group-m=0"}
VARIANT = sys.argv[3] if len(sys.argv) > 3 else "gpc"


def both(out, w, text):
    for v, opt in (("base", ""), (VARIANT, VARIANTS[VARIANT])):
        print(f"{out}/{w}-{v}", lower(text, f"{out}/{w}-{v}", options=opt)[:200])


def one(out, tmp, name, kind, n, k, act, m):
    w = f"{name}{m}"
    src = f"{tmp}/{w}.mlir"
    write_source(src, kind, m, n, k, act)
    text, mt, err = search_rank(src, 0)
    if not mt:
        print(w, "no plan", err[:200])
        return
    both(out, w, text)
    if w == "S6DN440":
        both(out, w + "s88", swapped_64_row_plan(src, 88))


def main():
    out = sys.argv[1]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda h: one(out, tmp, *h), WORK))


if __name__ == "__main__":
    main()
