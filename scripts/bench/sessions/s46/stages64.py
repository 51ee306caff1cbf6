"""Forty-sixth session, on the machine with the compiler: chains at M = 16
and 64 (PyTorch weight layout) whose down GEMM the search runs on 64 x 128
tiles split along k on a 4-stage ring (the most the fitted families
take), with that ring set by hand to 4 (the search's plan at cb0faac), 6
or 8 stages: OUT/<W>-m<M>-st<S> (usage: THIS OUT). The gate|up (or up)
GEMM keeps the search's plan."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import lower, searched_chain  # noqa: E402

cw = load_compile_workloads()
out = sys.argv[1]
for name in ("S1", "S2", "S4", "S5", "S6", "S7", "S8", "G6", "G8"):
    for m in (16, 64):
        text, down = searched_chain(cw, name, "/tmp/s46m", m)
        assert "block = [64, 128," in down and "cluster = [1, 1, 1, 1]" \
            not in down, down
        for stages in (4, 6, 8):
            mine = re.sub(r"stages = \d+", f"stages = {stages}", down)
            tag = f"{out}/{name}-m{m}-st{stages}"
            print(tag, lower(text.replace(down, mine), tag))
