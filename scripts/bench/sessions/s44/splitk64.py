"""Forty-fourth session, on the machine with the compiler: chains at
M = 128 (PyTorch weight layout) whose down GEMM is set by hand to 128 x 64
tiles split over 4 or 8 along k on 6- or 8-stage rings (one CTA per SM,
up to 128 CTAs), against the search's plan: OUT/<W>-search and
OUT/<W>-64c<S>s<R> (usage: THIS OUT). The search at 696a60c, which
built call 2's bundles, admitted 128 x 64 split tiles over 2 only, with
slices of 4096 k or more (Plan.cpp, splitK64); the gate|up (or up) GEMM
keeps the search's plan."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import lower, searched_chain  # noqa: E402

cw = load_compile_workloads()
out = sys.argv[1]
# chain: (split, stages) of each variant.
CHAINS = {"S2": [(4, 8), (4, 6)], "S4": [(4, 8), (4, 6)],
          "S5": [(4, 8), (4, 6)], "G8": [(4, 8), (4, 6)], "S6": [(4, 8)],
          "S8": [(8, 8), (4, 8)], "G6": [(8, 8), (4, 8)]}
work = {w.name: w for w in cw.selected()}
for name, variants in CHAINS.items():
    w = work[name]
    text, down = searched_chain(cw, name, "/tmp/s44h")
    print(f"{out}/{name}-search", down, lower(text, f"{out}/{name}-search"))
    # The down GEMM reduces over the chain's n into its l columns.
    for split, stages in variants:
        mine = re.sub(r"cluster = \[[^]]*\]", f"cluster = [1, 1, {split}, 1]",
                      down)
        mine = re.sub(r"block = \[[^]]*\]",
                      f"block = [128, 64, {w.n // split}, 16]", mine)
        mine = re.sub(r"grid = \[[^]]*\]", f"grid = [1, {w.l // 64}, 1, 1]",
                      mine)
        mine = re.sub(r"stages = \d+", f"stages = {stages}", mine)
        tag = f"{out}/{name}-64c{split}s{stages}"
        print(tag, mine, lower(text.replace(down, mine), tag))
