"""Fifty-ninth session, on the machine with the compiler: S6's gated GEMM
at M = 440 on the search's top-1 plan of HEAD b651aca (FULL128: 4 x 70
tiles of 128 x 128) and on the same plan with its n tile widened by hand
(W<width>: 136, 144, 160 on 4 stages, 192 on 3, the grid's n count
fitted). (usage: THIS OUT; FF_OPT a build of b651aca)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import write_source  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    src = out + ".src.mlir"
    write_source(src, "gated_gemm", 440, 8960, 1536, "silu")
    text, _, _ = search_rank(src, 0)
    print("FULL128", lower(text, f"{out}/FULL128"))
    for width, stages in ((136, 4), (144, 4), (160, 4), (192, 3)):
        t = text.replace("block = [128, 128, 64, 16]",
                         f"block = [128, {width}, 64, 16]")
        t = t.replace("grid = [4, 70, 1, 1]",
                      f"grid = [4, {-(-8960 // width)}, 1, 1]")
        t = t.replace("stages = 4,", f"stages = {stages},")
        print(f"W{width}", lower(t, f"{out}/W{width}")[:200])


if __name__ == "__main__":
    main()
