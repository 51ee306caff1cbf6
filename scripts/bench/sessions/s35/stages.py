"""Thirty-fifth session (call 6): S1, S2 and S4 with their gated kernel's
7-stage ring set to STAGES (usage: THIS OUT STAGES): --dsm-search's output
with `stages = 7` rewritten, then --lower-to-nvvm into OUT/<name>. Run from
the repository root after a build."""
import importlib.util
import re
import subprocess
import sys

spec = importlib.util.spec_from_file_location(
    "cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
out, new = sys.argv[1], sys.argv[2]
for name in ("S1", "S2", "S4"):
    w = [w for w in cw.selected() if w.name == name][0]
    src = f"/tmp/{name}-stages.mlir"
    open(src, "w").write(cw.linalg_text(w, weight_layout="nk"))
    r = subprocess.run(["build/bin/ff-opt", src, cw.fuse_flag(w),
                        "--dsm-search"], capture_output=True, text=True,
                       check=True)
    n = len(re.findall(r"stages = 7,", r.stdout))
    text = r.stdout.replace("stages = 7,", f"stages = {new},")
    subprocess.run(["rm", "-rf", f"{out}/{name}"], check=True)
    low = subprocess.run(["build/bin/ff-opt", "-",
                          f"--lower-to-nvvm=format=bin emit-bundle={out}/{name}",
                          "-o", "/dev/null"], input=text, capture_output=True,
                         text=True)
    print(name, "rings rewritten:", n, "rc", low.returncode, low.stderr[:300])
