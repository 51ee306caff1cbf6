#!/usr/bin/env python3
"""Plots a DSM calibration file written by scripts/gpu/dsm_bench.cu (in the
spirit of the paper's Fig. 4/13): remote shared-memory bandwidth per access
method and latency against cluster size, and the aggregate bandwidth of each
collective.

  python3 scripts/gpu/plot_calibration.py docs/calibration/h200.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src, dst = sys.argv[1:3]
    with open(src) as f:
        cal = json.load(f)
    dsm = cal["dsm"]
    sizes = [e["cluster"] for e in dsm]
    fig, (bw, lat, coll) = plt.subplots(1, 3, figsize=(13, 3.8))
    for key, label in (("ld_gbps", "ld.shared::cluster"),
                       ("st_gbps", "st.shared::cluster"),
                       ("bulk_gbps", "cp.async.bulk shared::cluster")):
        bw.plot(sizes, [e[key] / 1000 for e in dsm], "o-", label=label)
    bw.set(xlabel="cluster size (CTAs)", ylabel="GPU-wide TB/s",
           title="remote smem bandwidth", xscale="log", xticks=sizes)
    bw.set_xticklabels(sizes)
    bw.legend(fontsize=7)
    lat.plot(sizes, [e["latency_cycles"] for e in dsm], "o-", label="remote")
    lat.axhline(cal["local_smem"]["latency_cycles"], color="gray", ls="--",
                label="local smem")
    lat.set(xlabel="cluster size (CTAs)", ylabel="cycles",
            title="remote smem latency", xscale="log", xticks=sizes)
    lat.set_xticklabels(sizes)
    lat.legend(fontsize=7)
    for name, rows in cal.get("collectives", {}).items():
        coll.plot([r["cluster"] for r in rows],
                  [r["aggregate_gbps"] / 1000 for r in rows], "o-", label=name)
    coll.set(xlabel="cluster size (CTAs)", ylabel="GPU-wide TB/s",
             title="collectives", xscale="log", xticks=sizes)
    coll.set_xticklabels(sizes)
    coll.legend(fontsize=7)
    for ax in (bw, lat, coll):
        ax.minorticks_off()
    fig.suptitle(f"DSM on {cal['target']} ({cal.get('clock_mhz', '?')} MHz)")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
