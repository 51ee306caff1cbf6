"""Forty-ninth session: the headline metrics of one kernel from
`ncu --import REP --page details --csv` (duration, clocks, grid, cluster,
registers, throughputs, occupancy).
Usage: ncu_summary.py DETAILS.csv"""
import csv
import sys

WANT = ("Duration", "SM Frequency", "Grid Size", "Cluster Size",
        "Registers Per Thread", "Compute (SM) Throughput",
        "Memory Throughput", "L2 Cache Throughput", "DRAM Throughput",
        "L1/TEX Cache Throughput", "L2 Hit Rate", "Issue Slots Busy",
        "Achieved Occupancy", "Dynamic Shared Memory Per Block")
rows = list(csv.DictReader(open(sys.argv[1])))
seen = {}
for r in rows:
    n = r.get("Metric Name", "")
    if n in WANT and n not in seen:
        seen[n] = f"{r.get('Metric Value')} {r.get('Metric Unit', '')}".strip()
for n in WANT:
    if n in seen:
        print(f"  {n}: {seen[n]}")
if rows:
    print("  kernel:", rows[0].get("Kernel Name", "")[:100])
