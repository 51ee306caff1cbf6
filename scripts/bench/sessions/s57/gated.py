"""Fifty-seventh session, on the machine with the compiler: the gated
GEMMs whose split parts ran against the model (S6's at M = 700 and 740,
K = 1536), S6's at 440 (behind PyTorch) and S7's at 905 and 930, alone:
the best-ranked plan of every tile shape, swapped or not, among the
search's first RANKS, as s56/halves.py builds them. Swapped plans are
ranked at any M only in a test build (FF_OPT; static M asks 128-row
tiles to pad M by a tenth). (usage: THIS OUT [RANKS] [JOBS])."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "s56"))
from halves import one  # noqa: E402

WORK = [(("S6GG", "gated_gemm", 8960, 1536, "silu"), m)
        for m in (440, 700, 740)] + \
       [(("S6DN", "gemm", 1536, 8960, "identity"), 440)] + \
       [(("S7GG", "gated_gemm", 9728, 2560, "silu"), m) for m in (905, 930)]


def main():
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    os.makedirs(out, exist_ok=True)
    os.makedirs(out + ".src", exist_ok=True)
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda hm: one(out, out + ".src", ranks, *hm[0], hm[1]),
                    WORK))


if __name__ == "__main__":
    main()
