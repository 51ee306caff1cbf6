"""Sixty-fifth session (test bundles, never the product): copies bundle SRC
to DST with every cluster kernel's entry barrier split, re-assembled with
ptxas -O3 and the hash refilled.

The entry barrier (arrive, wait) makes every CTA's mbarrier inits visible
to its peers before any DSM access. Its wait is needed only before the
first peer access, and each thread's next cluster arrive precedes that
in every kernel without a multicast ring (the exchange barriers, the exit
barrier). So here the entry wait becomes a CTA barrier (the producer
needs thread 0's inits), and each thread waits on the entry phase
once, right before its next cluster arrive (a predicate register that
the first such wait clears). Kernels with multicast rings keep theirs.

  --prefetch  also prefetch every tensor map (thread 0, at entry, before
              the grid-dependency wait) instead of only in the producer
              after it.

usage: defer_entry.py [--prefetch] SRC DST [SRC DST ...]"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, "python")
from flashfuser.bundle import write_bundle  # noqa: E402

ENTRY = re.compile(r"(barrier\.cluster\.arrive\.relaxed\.aligned;\s*\n"
                   r"\s*bar\.warp\.sync\s+-1;\s*\n\s*)"
                   r"barrier\.cluster\.wait\.aligned;")
ARRIVE = re.compile(r"(\n\s*)((?:bar\.warp\.sync\s+-1;\s*\n\s*)?"
                    r"barrier\.cluster\.arrive[^;]*;)")
PREFETCH = re.compile(r"prefetch\.tensormap \[(%rd\d+)\];")
INIT_PRED = re.compile(r"@(%p\d+) mbarrier\.init\.shared\.b64")


def transform(ptx, prefetch):
    m = ENTRY.search(ptx)
    assert m, "no entry barrier"
    head = ptx[:m.start()]
    tail = ptx[m.end():]
    # Every arrive after the entry first waits on the entry phase, once.
    tail, n = ARRIVE.subn(
        r"\1@%pdw barrier.cluster.wait;\1setp.eq.u32 %pdw, 1, 0;\1\2", tail)
    assert n >= 1, "no later cluster arrive"
    entry = m.group(1) + "setp.eq.u32 %pdw, 1, 1;\n\tbar.sync 0;"
    if prefetch:
        pred = INIT_PRED.search(head).group(1)
        regs = sorted(set(PREFETCH.findall(tail)))
        defs = [r for r in regs if re.search(r"cvta\.param\.u64\s+" +
                                             re.escape(r) + ",", head)]
        assert defs, "no tensor map defined before the entry barrier"
        pf = "".join("@%s prefetch.tensormap [%s];\n\t" % (pred, r)
                     for r in defs)
        # Before the entry arrive (its bar.warp.sync), where thread 0 has
        # its predicate.
        k = head.rfind("bar.warp.sync")
        head = head[:k] + pf + head[k:]
    ptx = head + entry + tail
    # The predicate's declaration, first in the entry's body.
    k = ptx.index("{", ptx.index(")", ptx.index(".visible .entry")))
    return ptx[:k + 1] + "\n\t.reg .pred %pdw;" + ptx[k + 1:]


def main():
    args = sys.argv[1:]
    prefetch = args[:1] == ["--prefetch"]
    if prefetch:
        args = args[1:]
    for src, dst in zip(args[::2], args[1::2]):
        man = json.load(open(os.path.join(src, "manifest.json")))
        files = {}
        changed = 0
        for k in man["kernels"]:
            ptx = open(os.path.join(src, k["ptx"])).read()
            cubin = open(os.path.join(src, k["cubin"]), "rb").read()
            if k["cluster"] != [1, 1, 1] and "multicast::cluster" not in ptx:
                ptx = transform(ptx, prefetch)
                changed += 1
                with tempfile.TemporaryDirectory() as t:
                    p = os.path.join(t, "k.ptx")
                    open(p, "w").write(ptx)
                    subprocess.run(["ptxas", "-arch=sm_90a", "-O3", p, "-o",
                                    os.path.join(t, "k.cubin")], check=True)
                    cubin = open(os.path.join(t, "k.cubin"), "rb").read()
            files[k["ptx"]] = ptx.encode()
            files[k["cubin"]] = cubin
        if changed:
            write_bundle(dst, man, files)
        print(dst, "changed kernels:", changed)


if __name__ == "__main__":
    main()
