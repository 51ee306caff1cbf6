"""Thirty-ninth session, call 13: call 12's gap between the package and
ff-run on S3's sequences. The bundle through the package with gate and up
as row views of one merged weight (bench.py's inputs) against separate
tensors (ff-run's), ff-run-like uniform inputs; CUDA graphs of 10 calls,
median per call of 100 replays, four alternating rounds (the best of each
kept). usage: THIS BUNDLE..."""
import json, math, statistics, sys
import torch
sys.path.insert(0, "python")
sys.path.insert(0, "scripts/bench/sessions/s39")
import flashfuser  # noqa: E402
from inputs_probe import draw, graph_us  # noqa: E402

for path in sys.argv[1:]:
    m = json.load(open(path + "/manifest.json"))["chain"]
    M, N, K, L = m["m"], m["n"], m["k"], m["l"]
    kernel = flashfuser.load(path, fallback="never")
    x = draw("uniform", M, K, fan_in=1)
    wgu = draw("uniform", 2 * N, K, fan_in=K)
    wd = draw("uniform", L, N, fan_in=N)
    forms = {"views": (wgu[:N], wgu[N:]),
             "separate": (wgu[:N].clone(), wgu[N:].clone())}
    best = {}
    for r in range(4):
        for name in (("views", "separate") if r % 2 == 0 else
                     ("separate", "views")):
            wg, wu = forms[name]
            t = graph_us(lambda: kernel(x, wg, wu, wd))
            best[name] = min(best.get(name, math.inf), t)
    print(path.rsplit("/", 1)[-1],
          " ".join(f"{k}={v:.1f}" for k, v in best.items()), flush=True)
