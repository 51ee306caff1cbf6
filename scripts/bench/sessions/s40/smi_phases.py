"""Fortieth session: summarises nvidia-smi samples (timestamp, SM clock,
memory clock, power, temperature, throttle reasons) per phase between the
MARK lines of a driver. usage: THIS MARKS SMI_CSV"""
import collections, datetime, statistics, sys


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


marks = [l.split()[1:] for l in open(sys.argv[1]) if l.startswith("MARK")]
marks = [(secs(t), name) for t, name in marks]
rows = collections.defaultdict(list)
for line in open(sys.argv[2]):
    f = [x.strip() for x in line.split(",")]
    if len(f) < 6:
        continue
    try:
        t = secs(f[0].split()[1])
        sm, mem = float(f[1].split()[0]), float(f[2].split()[0])
        pw, temp = float(f[3].split()[0]), float(f[4])
    except (ValueError, IndexError):
        continue
    for (t0, name), (t1, _) in zip(marks, marks[1:]):
        if t0 <= t < t1:
            rows[name].append((sm, mem, pw, temp, f[5]))
print("| phase | samples | SM MHz min/median/max | mem MHz | W max | C max | throttle reasons seen |")
print("|---|---|---|---|---|---|---|")
for _, name in marks[:-1]:
    r = rows.get(name, [])
    if not r:
        print(f"| {name} | 0 | | | | | |")
        continue
    sm = [x[0] for x in r]
    print(f"| {name} | {len(r)} | {min(sm):.0f}/{statistics.median(sm):.0f}/"
          f"{max(sm):.0f} | {statistics.median([x[1] for x in r]):.0f} | "
          f"{max(x[2] for x in r):.0f} | {max(x[3] for x in r):.0f} | "
          f"{' '.join(sorted(set(x[4] for x in r)))} |")
