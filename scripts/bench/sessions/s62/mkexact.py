"""Sixty-second session, call 3 (on the machine with the compiler, from the
repository root): chains compiled for an exact M (target=h200) by two
ff-opt binaries, as OUT/<W>m<M>-old and -new (usage: THIS OLD_FF_OPT
NEW_FF_OPT OUT W:M ...)."""
import dataclasses
import importlib.util
import subprocess
import sys

sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
import rankplans  # noqa: E402
import workloads  # noqa: E402

old, new, out = sys.argv[1:4]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
for point in sys.argv[4:]:
    name, m = point.split(":")
    w = dataclasses.replace(ws[name], m=int(m))
    for side, ff in (("old", old), ("new", new)):
        s = subprocess.run([ff, "-", "--dsm-fuse", "--dsm-search=target=h200"],
                           input=cw.linalg_text(w, weight_layout="nk"),
                           capture_output=True, text=True, check=True).stdout
        print(name, m, side,
              rankplans.lower(s, f"{out}/{name}m{m}-{side}", ff_opt=ff) or "ok")
