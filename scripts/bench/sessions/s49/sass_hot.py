"""Forty-ninth session: the hottest SASS instructions of one kernel from
`ncu --import REP --page source --csv --print-source sass`: warp stall
samples per instruction (top N) and summed per opcode.
Usage: sass_hot.py SOURCE.csv [N]"""
import csv
import collections
import sys

rows = list(csv.reader(open(sys.argv[1], errors="replace")))
top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
hdr = None
for i, r in enumerate(rows):
    if any("Source" == c.strip() for c in r):
        hdr, body = r, rows[i + 1:]
        break
if hdr is None:
    sys.exit("no header with a Source column")
col = {c.strip(): j for j, c in enumerate(hdr)}
src = col["Source"]
samp = next((j for c, j in col.items()
             if c.startswith("Warp Stall Sampling (All")), None)
nis = next((j for c, j in col.items()
            if c.startswith("Warp Stall Sampling (Not")), None)
if samp is None:
    sys.exit("columns: " + ", ".join(col))
def num(r, j):
    try:
        return float(r[j].replace(",", ""))
    except (ValueError, IndexError, TypeError):
        return 0.0
body = [r for r in body if len(r) > samp]
total = sum(num(r, samp) for r in body) or 1.0
print(f"instructions {len(body)}, samples {total:.0f}")
ops = collections.Counter()
for r in body:
    op = r[src].strip().split()
    op = [t for t in op if not t.startswith("@")]
    ops[op[0].split(".")[0] if op else "?"] += num(r, samp)
print("per opcode: " + ", ".join(f"{o} {100 * s / total:.1f}%"
                                  for o, s in ops.most_common(15)))
addr = col.get("Address", 0)
for r in sorted(body, key=lambda r: -num(r, samp))[:top]:
    extra = f" (not issued {num(r, nis):.0f})" if nis is not None else ""
    print(f"{100 * num(r, samp) / total:5.1f}% {r[addr]:>6} {r[src].strip()[:90]}{extra}")
