#!/usr/bin/env python3
"""Cost-model fidelity: the model's ranking against measured kernel times.

Reads the bundles that `scripts/compile-workloads.sh DIR --ranks R [--spread
S]` wrote (DIR/<workload>-r<rank>/manifest.json, whose kernel records the
plan and the model's cost_ns) and the log of `scripts/gpu/validate.sh DIR`
run on a GPU (its closing table: bundle, M, check, status, rel_l2, max_rel,
median_us), or of `scripts/gpu/ab.sh DIR` (ff-run's RESULT lines). For
every workload it reports the model's top-1 against the best measured
candidate (issue 7: within 5 %), Spearman's rank correlation of estimate
and measurement over all measured candidates, and every row.

With --ff-opt PATH the estimates come from the current compiler instead of
the manifests: every workload is searched again (--dsm-search=dump) and
each measured plan takes the estimate the search now records for it, so a
model change is judged on the same measurements. A kernel sequence's
estimate is the sum of its kernels' (from the manifest, also with
--ff-opt).

usage: fidelity.py BUNDLES_DIR VALIDATE_LOG [--csv OUT.csv] [--md OUT.md]
                   [--ff-opt PATH [--search-options OPTS]]
"""

import argparse
import csv
import json
import os
import re
import sys


def ranks(values):
    """Average ranks (1-based) with ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return out


def spearman(xs, ys):
    if len(xs) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) *
           sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float("nan")


def read_log(path):
    """bundle name -> (status, median_us) from ff-run's RESULT lines (or
    validate.sh's closing table when a RESULT line is missing)."""
    rows = {}
    pat = re.compile(r"^(\S+)\s+(\S+)\s+ff-run\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)")
    with open(path) as f:
        for line in f:
            # ff-run's RESULT line, also behind ab.sh's "== BUNDLE rc=N ".
            if "RESULT " in line:
                line = line[line.index("RESULT "):]
                kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
                name = os.path.basename(kv.get("bundle", "").rstrip("/"))
                rows[name] = (kv.get("status", "?"),
                              float(kv.get("median_us", "nan")))
                continue
            m = pat.match(line)
            if m and m.group(1) not in rows:
                name, _, status, _, _, us = m.groups()
                try:
                    rows[name] = (status, float(us))
                except ValueError:
                    rows[name] = (status, None)
    return rows


def plan_key(plan):
    return (tuple(plan["cluster"]), tuple(plan["block"]), tuple(plan["grid"]),
            plan["stages"])


def current_estimates(ff_opt, name, search_options=""):
    """plan key -> cost_ns the current --dsm-search records for `name`."""
    return {k: c["cost_ns"] for k, c in
            current_candidates(ff_opt, name, search_options).items()}


def current_candidates(ff_opt, name, search_options=""):
    """plan key -> the current --dsm-search's dump of that candidate."""
    import importlib.util
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "compile_workloads",
        os.path.join(os.path.dirname(here), "compile-workloads.py"))
    cw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cw)
    w = next(x for x in cw.selected() + cw.workloads.narrow_and_dsm_window()
             if x.name == name)
    with tempfile.TemporaryDirectory() as tmp:
        cands = cw.lowerable_candidates(w, ff_opt, tmp, search_options)
    return {plan_key(c): c for c in cands}


def plan_str(plan):
    c, b = plan["cluster"], plan["block"]
    return "c%d %dx%dx%dx%d g%d s%d" % (c[1], b[0], b[1], b[2], b[3],
                                       plan["grid"][1], plan["stages"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundles")
    ap.add_argument("log")
    ap.add_argument("--csv")
    ap.add_argument("--md")
    ap.add_argument("--ff-opt")
    ap.add_argument("--search-options", default="",
                    help="with --ff-opt: extra --dsm-search options, e.g. "
                    "target=h200 for measurements taken on an H200")
    args = ap.parse_args()
    estimates = {}
    measured = read_log(args.log)
    groups = {}
    for d in sorted(os.listdir(args.bundles)):
        m = re.match(r"^(.*)-r(\d+)$", d)
        if not m or not os.path.isfile(
                os.path.join(args.bundles, d, "manifest.json")):
            continue
        with open(os.path.join(args.bundles, d, "manifest.json")) as f:
            manifest = json.load(f)
        kernel = manifest["kernels"][0]
        status, us = measured.get(d, ("missing", None))
        sequence = (manifest.get("plan") or {}).get("sequence")
        if sequence:
            # A kernel sequence (the search prices it at rank 0 only): the
            # search compared the sum of its kernels' estimates (plus the
            # intermediate's round trip through HBM, zero while it fits L2)
            # with the fused plans; kernel 0's alone understated it.
            groups.setdefault(m.group(1), []).append({
                "bundle": d, "rank": int(m.group(2)),
                "plan": "seq " + " + ".join(plan_str(p) for p in sequence),
                "est_us": sum(p["cost_ns"] for p in sequence) / 1e3,
                "status": status, "us": us})
            continue
        if args.ff_opt:
            key = plan_key(kernel["plan"])
            table = estimates.setdefault(
                m.group(1),
                current_estimates(args.ff_opt, m.group(1), args.search_options))
            if key not in table:
                continue  # no longer in the lowerable family
            kernel["plan"]["cost_ns"] = table[key]
        groups.setdefault(m.group(1), []).append({
            "bundle": d, "rank": int(m.group(2)), "plan": plan_str(kernel["plan"]),
            "est_us": kernel["plan"]["cost_ns"] / 1e3, "status": status,
            "us": us})
    if not groups:
        sys.exit("fidelity: no <workload>-r<rank> bundles in " + args.bundles)

    lines = ["| workload | top-1 plan (sweep rank) | top-1 µs | best plan (sweep rank) | best µs "
             "| top-1 / best | Spearman ρ (n) | top-11 ρ |",
             "|---|---|---|---|---|---|---|---|"]
    detail = ["| workload | rank | plan | model µs | measured µs | status |",
              "|---|---|---|---|---|---|"]
    table = []
    worst = 0.0
    for name, rows in groups.items():
        rows.sort(key=lambda r: r["rank"])
        ok = [r for r in rows if r["status"] == "PASS" and r["us"]]
        for r in rows:
            detail.append("| %s | %d | %s | %.1f | %s | %s |" % (
                name, r["rank"], r["plan"], r["est_us"],
                "%.1f" % r["us"] if r["us"] else "-", r["status"]))
            table.append(dict(r, workload=name))
        # The model's choice among the measured plans: its lowest estimate.
        top = min(ok, key=lambda r: (r["est_us"], r["rank"])) if ok else None
        if not top:
            lines.append("| %s | - | - | - | - | - | - | - |" % name)
            continue
        best = min(ok, key=lambda r: r["us"])
        rho = spearman([r["est_us"] for r in ok], [r["us"] for r in ok])
        # The model's 11 best among the measured plans.
        top11 = sorted(ok, key=lambda r: (r["est_us"], r["rank"]))[:11]
        rho11 = spearman([r["est_us"] for r in top11], [r["us"] for r in top11])
        ratio = top["us"] / best["us"]
        worst = max(worst, ratio)
        lines.append("| %s | %s (%d) | %.1f | %s (%d) | %.1f | %.3f | %.2f (%d) | %.2f |"
                     % (name, top["plan"], top["rank"], top["us"], best["plan"],
                        best["rank"],
                        best["us"], ratio, rho, len(ok), rho11))
    out = "\n".join(lines) + "\n\n" + "\n".join(detail) + "\n"
    if args.md:
        with open(args.md, "w") as f:
            f.write(out)
    print("\n".join(lines))
    print("worst top-1 / best: %.3f" % worst)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["workload", "bundle", "rank", "plan",
                                              "est_us", "us", "status"])
            w.writeheader()
            w.writerows(table)


if __name__ == "__main__":
    main()
