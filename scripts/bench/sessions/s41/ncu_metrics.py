"""Prints one row per kernel of `ncu --csv --page raw` reports (argv: LABEL
FILE pairs): duration, grid and cluster, SM clock, the tensor pipe's and
the SMs' active share of the elapsed cycles, DRAM bytes and throughput,
L2 hit rate, and the three largest warp stall reasons per issued
instruction. `--list` prints the metrics it reads, comma-separated (the
stall ratios are queried from ncu: lib.sh's ncu_metric_list)."""
import csv
import sys

M = {"dur": "gpu__time_duration.sum",
     "grid": "launch__grid_size",
     "cluster": "launch__cluster_dim_x",
     "clk": "sm__cycles_elapsed.avg.per_second",
     "tensor": "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
     "smact": "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
     "rd": "dram__bytes_read.sum",
     "wr": "dram__bytes_write.sum",
     "dram": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
     "l2hit": "lts__t_sector_hit_rate.pct"}
STALL = "smsp__average_warps_issue_stalled_"


def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return float("nan")


if sys.argv[1:] == ["--list"]:
    print(",".join(M.values()))
    sys.exit(0)
print("| run | kernel | us | grid | cluster | SM GHz | tensor % | SM active %"
      " | DRAM MB read+write | DRAM % | L2 hit % | top stalls (warps per issue) |")
print("|" + "---|" * 12)
args = sys.argv[1:]
for label, path in zip(args[::2], args[1::2]):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    head, units, data = rows[0], rows[1], rows[2:]
    for r in data:
        d = dict(zip(head, r))
        g = {k: num(d.get(v, "nan")) for k, v in M.items()}
        # ncu's duration unit is ns or us depending on version; read it.
        du = dict(zip(head, units)).get(M["dur"], "ns")
        us = g["dur"] / 1e3 if du.strip('"') == "ns" else g["dur"]
        stalls = sorted(((num(v), k[len(STALL):].replace(
            "_per_issue_active.ratio", "")) for k, v in d.items()
            if k.startswith(STALL) and k.endswith("_per_issue_active.ratio")
            and "not_issued" not in k), reverse=True)[:3]
        name = d.get("Kernel Name", "?")
        print(f"| {label} | {name[:44]} | {us:.1f} | {g['grid']:.0f} | "
              f"{g['cluster']:.0f} | {g['clk'] / 1e9:.2f} | {g['tensor']:.1f} | "
              f"{g['smact']:.1f} | {(g['rd'] + g['wr']) / 1e6:.0f} | "
              f"{g['dram']:.1f} | {g['l2hit']:.1f} | "
              + ", ".join(f"{n} {v:.2f}" for v, n in stalls) + " |")
