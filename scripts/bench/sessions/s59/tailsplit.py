"""Fifty-ninth session, on the machine with the compiler: S6's gated GEMM
at M = 440 whole (FULL128, the table's 128 x 128 plan) and in the two
parts a tail-wave split would run: the first 264 tiles' columns (N =
8448: A128, and A112s on the search's swapped 112 x 128) and the 16 tail
tiles' columns (N = 512: B64 on 64 x 64 tiles, B128x16 on 128 x 16),
each the best-ranked plan of that tile shape. (usage: THIS OUT)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(here, "..", "s56"))
from halves import write_source  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

# (bundle, N, tile shape's block prefix)
PARTS = [("FULL128", 8960, "[128, 128"), ("A128", 8448, "[128, 128"),
         ("A112s", 8448, "[112, 128"), ("B64", 512, "[64, 64"),
         ("B128x16", 512, "[128, 16")]


def main():
    out = sys.argv[1]
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    for name, n, block in PARTS:
        src = f"{tmp}/S6GG440n{n}.mlir"
        write_source(src, "gated_gemm", 440, n, 1536, "silu")
        for r in range(12):
            text, mt, _ = search_rank(src, r)
            if text and f"block = {block}" in text:
                print(name, "rank", r, lower(text, f"{out}/{name}")[:200])
                break
        else:
            print(name, "no such plan ranked")


if __name__ == "__main__":
    main()
