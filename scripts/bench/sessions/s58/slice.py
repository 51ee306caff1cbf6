"""Fifty-eighth session, on the machine with the compiler: the token tile
of swapped 64-row down GEMMs shared by a cluster of 2 or 4 weight tiles
along n, multicast as one whole box per k step from one rank (-c<c>w, as
the lowering does) or as one slice of whole 8-row atoms from every rank
at every k step (-c<c>s, FF_SLICE_B in the test build), against one CTA
per cluster (-c1); 8 stages. The search's swapped 64-row plan of each
GEMM is re-tiled by hand: OUT/<W>s<tokens>x64-<variant>. FF_OPT must be
the test build (scripts/bench/sessions/s58/test-build.patch with
KernelPlan::bBoxRows slicing under FF_SLICE_B). (usage: THIS OUT)."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import write_source  # noqa: E402
from multicast import swapped_64_row_plan  # noqa: E402
from rankplans import lower  # noqa: E402

# (name, n, k, m, token widths)
WORK = [("S6DN", 1536, 8960, 440, (88, 96)), ("G4DN", 768, 3072, 440, (64,)),
        ("G6DN", 1024, 4096, 440, (64,)), ("S2DN", 2048, 5632, 300, (80,)),
        ("G8DN", 2048, 8192, 300, (80,))]


def main():
    out = sys.argv[1]
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    for name, n, k, m, toks in WORK:
        src = f"{tmp}/{name}{m}.mlir"
        write_source(src, "gemm", m, n, k, "identity")
        text = swapped_64_row_plan(src)
        if text is None:
            print(name, "no swapped x 64 plan ranked")
            continue
        for tok in toks:
            for c in (1, 2, 4):
                for v in (("w", "s") if c > 1 else ("",)):
                    if v == "s" and tok % (8 * c):
                        continue
                    t = re.sub(r"cluster = \[1, 1, 1, 1\], block = \[\d+, 64,"
                               r"([^\]]*)\], grid = \[\d+, \d+, 1, 1\]",
                               f"cluster = [1, {c}, 1, 1], block = [{tok}, 64,"
                               f"\\1], grid = [{-(-m // tok)}, {n // 64 // c},"
                               " 1, 1]", text, count=1)
                    t = re.sub(r"stages = \d+,", "stages = 8,", t, count=1)
                    if v == "s":
                        os.environ["FF_SLICE_B"] = "1"
                    b = f"{out}/{name}{m}s{tok}x64-c{c}{v}"
                    print(b, lower(t, b)[:120])
                    os.environ.pop("FF_SLICE_B", None)


if __name__ == "__main__":
    main()
