"""Forty-sixth session, on the machine with the compiler: chains at M = 128
(PyTorch weight layout) whose down GEMM the search runs on 128 x 128 tiles
split over 4 along k on a 4-stage ring (the most the fitted families take,
ff::isLowerable, at 42f991a), with that ring set by hand to 4, 5, 6 or
7 stages (the kernel takes up to 8; 7 do not fit): OUT/<W>-st<S>
(usage: THIS OUT). At 42f991a OUT/<W>-st4 is the search's plan, from
01cfe1b on OUT/<W>-st6. The gate|up (or up) GEMM keeps the search's
plan."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import lower, searched_chain  # noqa: E402

cw = load_compile_workloads()
out = sys.argv[1]
for name in ("S2", "S4", "S5", "S7", "G8"):
    text, down = searched_chain(cw, name, "/tmp/s46s")
    assert "cluster = [1, 1, 4, 1]" in down and "block = [128, 128," in down, \
        down
    for stages in (4, 5, 6, 7):
        mine = re.sub(r"stages = \d+", f"stages = {stages}", down)
        tag = f"{out}/{name}-st{stages}"
        print(tag, lower(text.replace(down, mine), tag))
