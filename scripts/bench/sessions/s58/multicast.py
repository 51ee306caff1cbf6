"""Fifty-eighth session, on the machine with the compiler: swapped 64-row
down GEMMs (the token tile shared by 1, 2 or 4 weight tiles in a cluster
along n, multicast) on 8-stage rings and on the deepest of up to 11 that
fits, as cuBLAS's tst_64xN kernels run (clusters of 4, 11 stages). For
each GEMM and token width below, the search's swapped 64-row plan is
re-clustered by hand: OUT/<W>s<tokens>x64-c<cluster>s<stages>. FF_OPT
must take clusters of 4 along n and 11 stages (a test build).
(usage: THIS OUT)."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import write_source  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

# (name, n, k, m, token width)
WORK = [("S6DN", 1536, 8960, 440, 88), ("S2DN", 2048, 5632, 300, 80),
        ("G8DN", 2048, 8192, 300, 80), ("S7DN", 2560, 9728, 300, 104),
        ("G4DN", 768, 3072, 440, 64), ("G6DN", 1024, 4096, 440, 64)]


def swapped_64_row_plan(src, tok=None):
    """The searched text of the best-ranked swapped plan of `src` on 64
    weight rows, one CTA per cluster (and `tok` token rows), or None."""
    for r in range(16):
        t, mt, _ = search_rank(src, r)
        if mt and mt[10] and int(mt[5]) == 64 and \
                int(mt[2]) * int(mt[3]) == 1 and tok in (None, int(mt[4])):
            return t
    return None


def main():
    out = sys.argv[1]
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    for name, n, k, m, tok in WORK:
        src = f"{tmp}/{name}{m}.mlir"
        write_source(src, "gemm", m, n, k, "identity")
        text = swapped_64_row_plan(src, tok)
        if text is None:
            print(name, "no swapped", tok, "x 64 plan ranked")
            continue
        gm = -(-m // tok)
        for c in (1, 2, 4):
            for st in (8, 11, 10, 9):
                t = re.sub(r"cluster = \[1, 1, 1, 1\], block = \[(\d+), 64,"
                           r"([^\]]*)\], grid = \[\d+, \d+, 1, 1\]",
                           f"cluster = [1, {c}, 1, 1], block = [\\1, 64,"
                           f"\\2], grid = [{gm}, {n // 64 // c}, 1, 1]",
                           text, count=1)
                t = re.sub(r"stages = \d+,", f"stages = {st},", t, count=1)
                b = f"{out}/{name}{m}s{tok}x64-c{c}s{st if st == 8 else 'max'}"
                err = lower(t, b)
                print(b, st, err[:120])
                if not err:
                    if st != 8:
                        break
                elif st == 8:
                    break


if __name__ == "__main__":
    main()
