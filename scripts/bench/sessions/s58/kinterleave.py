"""Fifty-eighth session, on the machine with the compiler: 64-row GEMM
tiles with one consumer warpgroup (as ranked, OUT/<W><shape>-base) against
two k-interleaved ones (--lower-to-nvvm=k-interleave=true,
OUT/<W><shape>-ki), for the best-ranked plan of every tile shape among the
search's first RANKS (s56/halves.py's names). (usage: THIS OUT [RANKS]
[JOBS])."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import swapped_shape_of, write_source  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

# (name, kind, n, k, activation, M...)
WORK = [("S6DN", "gemm", 1536, 8960, "identity", 440, 560),
        ("S3DN", "gemm", 4096, 11008, "identity", 440),
        ("G4DN", "gemm", 768, 3072, "identity", 440),
        ("G6DN", "gemm", 1024, 4096, "identity", 440),
        ("G9DN", "gemm", 512, 2048, "identity", 440),
        ("S2DN", "gemm", 2048, 5632, "identity", 300),
        ("S7DN", "gemm", 2560, 9728, "identity", 300),
        ("G8DN", "gemm", 2048, 8192, "identity", 300),
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
        # 64 weight rows: a swapped plan's blk_n, else blk_m.
        rows = int(mt[5]) if mt[10] else int(mt[4])
        if shape in seen or rows != 64 or int(mt[3]) > 1:
            continue
        seen.add(shape)
        base = f"{out}/{w}{shape}"
        print(base, "rank", r, "stages", mt[8], lower(text, base + "-base"),
              lower(text, base + "-ki", options="k-interleave=true"))


def main():
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    work = [(h[:5], m) for h in WORK for m in h[5:]]
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda hm: one(out, tmp, ranks, *hm[0], hm[1]), work))


if __name__ == "__main__":
    main()
