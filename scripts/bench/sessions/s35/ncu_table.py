"""Prints one line per kernel of an `ncu --csv` report (LaunchStats and
SpeedOfLight sections): name, grid, block, cluster, duration, DRAM
throughput. Usage: THIS REPORT.csv"""
import csv
import sys

WANT = ("Grid Size", "Block Size", "Cluster Size", "Duration",
        "DRAM Throughput", "Registers Per Thread")
rows = {}
for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"')):
    k = rows.setdefault(r["ID"], {"name": r["Kernel Name"]})
    if r["Metric Name"] in WANT:
        k[r["Metric Name"]] = r["Metric Value"] + " " + r.get("Metric Unit", "")
for i, k in sorted(rows.items(), key=lambda x: int(x[0])):
    print(i, k["name"][:70], "|", " | ".join(
        f"{w} {k.get(w, '-').strip()}" for w in WANT))
