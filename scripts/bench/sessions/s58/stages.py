"""Fifty-eighth session, on the machine with the compiler: deeper operand
rings for single GEMMs whose stages are small. For each GEMM below, the
best-ranked plan of every tile shape among the search's first RANKS (as
s56/halves.py builds them) is lowered as ranked (OUT/<W><shape>-base) and,
with a test build of ff-opt that takes up to 12 stages (FF_OPT_DEEP),
with 10 and 12 stages or the deepest ring that fits shared memory
(OUT/<W><shape>-d<stages>). (usage: THIS OUT [RANKS] [JOBS])."""
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import swapped_shape_of, write_source  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

DEEP = os.environ.get("FF_OPT_DEEP", "/tmp/ffopt-st12")
# (name, kind, n, k, activation, M...)
WORK = [("S6DN", "gemm", 1536, 8960, "identity", 440, 560),
        ("S3DN", "gemm", 4096, 11008, "identity", 440, 560),
        ("G4DN", "gemm", 768, 3072, "identity", 440, 560),
        ("G5DN", "gemm", 4096, 16384, "identity", 560),
        ("G6DN", "gemm", 1024, 4096, "identity", 440),
        ("G9DN", "gemm", 512, 2048, "identity", 440),
        ("S6GG", "gated_gemm", 8960, 1536, "silu", 440)]


def one(out, tmp, ranks, name, kind, n, k, act, m):
    w = f"{name}{m}"
    src = f"{tmp}/{w}.mlir"
    write_source(src, kind, m, n, k, act)
    seen = set()
    for r in range(ranks):
        text, mt, err = search_rank(src, r)
        if not mt:
            continue
        shape = swapped_shape_of(mt)
        if shape in seen:
            continue
        seen.add(shape)
        base = f"{out}/{w}{shape}"
        print(base, "rank", r, "stages", mt[8], lower(text, base + "-base"))
        st = int(mt[8])
        deepest = 0
        for d in range(st + 1, 13):
            t = re.sub(r"stages = \d+,", f"stages = {d},", text, count=1)
            if lower(t, f"{tmp}/probe-{w}{shape}-{d}", DEEP):
                break
            deepest = d
        for d in sorted({x for x in (10, 12, deepest) if st < x <= deepest}):
            t = re.sub(r"stages = \d+,", f"stages = {d},", text, count=1)
            print(base, "deep", d, lower(t, f"{base}-d{d}", DEEP))


def main():
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    work = [(h[:5], m) for h in WORK for m in h[5:]]
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda hm: one(out, tmp, ranks, *hm[0], hm[1]), work))


if __name__ == "__main__":
    main()
