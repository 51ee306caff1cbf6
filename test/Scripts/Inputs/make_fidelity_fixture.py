"""Writes a fake fidelity sweep: bundles X-r0..r3 (manifests with a plan and
the model's cost_ns) and a validate.sh log with their measured medians."""
import json
import os
import sys

root = sys.argv[1]
est = [10, 20, 30, 40]      # model, us
meas = [30.0, 10.0, 20.0, 40.0]  # GPU, us
with open(os.path.join(root, "log"), "w") as log:
    for r, (e, m) in enumerate(zip(est, meas)):
        d = os.path.join(root, "b", "X-r%d" % r)
        os.makedirs(d, exist_ok=True)
        plan = {"cluster": [1, 2 ** r, 1, 1], "block": [64, 64, 64, 128],
                "grid": [2, 8 // 2 ** r, 1, 1], "stages": 2,
                "cost_ns": e * 1000}
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump({"kernels": [{"name": "x", "plan": plan}]}, f)
        log.write("RESULT bundle=.device/fid/X-r%d M=128 kernel=x written=all "
                  "rel_l2=-1 max_rel=-1 median_us=%.2f status=PASS\n" % (r, m))
    # A candidate whose kernel failed is left out of the ranking.
    d = os.path.join(root, "b", "X-r4")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump({"kernels": [{"name": "x", "plan": dict(plan, cost_ns=1)}]},
                  f)
    log.write("RESULT bundle=X-r4 M=128 kernel=x written=no rel_l2=-1 "
              "max_rel=-1 median_us=-1.00 status=FAIL\n")
    # Workload Y: a kernel sequence at rank 0 (its estimate the sum of its
    # kernels', 5 + 6 us) and a fused plan at rank 1.
    for r, (mplan, meas) in enumerate([
            ({"sequence": [dict(plan, cost_ns=5000),
                           dict(plan, stages=4, cost_ns=6000)]}, 25.0),
            (None, 20.0)]):
        d = os.path.join(root, "b", "Y-r%d" % r)
        os.makedirs(d, exist_ok=True)
        m = {"kernels": [{"name": "y", "plan": dict(plan, cost_ns=12000)}]}
        if mplan:
            m["plan"] = mplan
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump(m, f)
        log.write("RESULT bundle=Y-r%d M=128 kernel=y written=all rel_l2=-1 "
                  "max_rel=-1 median_us=%.2f status=PASS\n" % (r, meas))
