#!/usr/bin/env python3
"""Checks the kernels of FlashFuser bundles the way issue 6 asks.

For every kernel of every bundle (a directory with manifest.json, or a
directory of such directories, as --lower-to-nvvm="emit-bundle=DIR" writes
them for one or several chains):
  * its PTX exists, defines the kernel entry and contains wgmma.mma_async,
    cp.async.bulk.tensor and mbarrier, plus mapa and barrier.cluster when
    the kernel's cluster has more than one CTA;
  * its cubin exists when the manifest lists one;
  * `ptxas -arch=sm_90a -O3 -v` assembles it with 0 bytes of spill stores
    and loads.
Prints one line per kernel ("OK <name> ..." or "FAIL <name>: <why>") and a
summary; exits 1 if any kernel failed.

usage: check-bundles.py [--ptxas PATH] DIR...
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python"))
from flashfuser.compiler import find_ptxas  # noqa: E402  (one lookup for all)

REQUIRED = ("wgmma.mma_async", "cp.async.bulk.tensor", "mbarrier")
CLUSTER_REQUIRED = ("mapa", "barrier.cluster")


def bundle_dirs(root):
    """`root` if it holds a manifest, else its subdirectories that do."""
    if os.path.isfile(os.path.join(root, "manifest.json")):
        return [root]
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isfile(os.path.join(root, d, "manifest.json")))


def check_kernel(bundle, kernel, ptxas):
    """Returns a dict: name, cluster, block, smem, regs, spills, status."""
    name = kernel["name"]
    cluster = kernel["cluster"]
    row = {
        "name": name,
        "cluster": "x".join(str(c) for c in kernel["plan"]["cluster"]),
        "block": "x".join(str(b) for b in kernel["plan"]["block"]),
        "threads": kernel["block"][0],
        "smem": kernel["dynamic_smem"],
        "regs": "-",
        "spills": "-",
        "status": "ok",
    }

    def fail(why):
        row["status"] = why
        return row

    ptx_path = os.path.join(bundle, kernel.get("ptx", name + ".ptx"))
    if not os.path.isfile(ptx_path):
        return fail("no PTX file")
    if "cubin" in kernel and not os.path.isfile(
            os.path.join(bundle, kernel["cubin"])):
        return fail("no cubin file")
    with open(ptx_path) as f:
        ptx = f.read()
    if not re.search(r"\.entry\s+%s\s*\(" % re.escape(name), ptx):
        return fail("PTX does not define .entry " + name)
    required = list(REQUIRED)
    if cluster[0] * cluster[1] * cluster[2] > 1:
        required += CLUSTER_REQUIRED
    missing = [r for r in required if r not in ptx]
    if missing:
        return fail("PTX lacks " + ", ".join(missing))
    proc = subprocess.run(
        [ptxas, "-arch=sm_90a", "-O3", "-v", ptx_path, "-o", os.devnull],
        capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        return fail("ptxas failed: " + log.strip().splitlines()[-1])
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      log)
    regs = re.search(r"Used (\d+) registers", log)
    if not spill or not regs:
        return fail("ptxas -v printed no resource usage")
    row["regs"] = int(regs.group(1))
    row["spills"] = "%s/%s" % spill.groups()
    if spill.groups() != ("0", "0"):
        return fail("spills")
    return row


def check(roots, ptxas):
    rows = []
    for root in roots:
        dirs = bundle_dirs(root) if os.path.isdir(root) else []
        if not dirs:
            rows.append({"name": root, "status": "no bundle"})
            continue
        for d in dirs:
            with open(os.path.join(d, "manifest.json")) as f:
                manifest = json.load(f)
            for kernel in manifest["kernels"]:
                rows.append(check_kernel(d, kernel, ptxas))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxas")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    ptxas = find_ptxas(args.ptxas)
    if not ptxas:
        sys.exit("check-bundles: ptxas not found")
    rows = check(args.dirs, ptxas)
    failed = 0
    for r in rows:
        if r["status"] == "ok":
            print("OK %s cluster=%s block=%s smem=%s regs=%s spills=%s" %
                  (r["name"], r["cluster"], r["block"], r["smem"], r["regs"],
                   r["spills"]))
        else:
            failed += 1
            print("FAIL %s: %s" % (r["name"], r["status"]))
    print("checked %d kernels, %d failed" % (len(rows), failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
