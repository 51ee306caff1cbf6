"""Sixty-third session (test bundles, never the product): copies bundle SRC
to DST with every cluster barrier's arrive relaxed (the exchange barriers
too, not only the exit's), re-assembled with ptxas -O3, the hash refilled:
an upper bound on what the exchange barriers' release costs.
usage: relax_all.py SRC DST [SRC DST ...]"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, "python")
from flashfuser.bundle import write_bundle  # noqa: E402

args = sys.argv[1:]
for src, dst in zip(args[::2], args[1::2]):
    man = json.load(open(os.path.join(src, "manifest.json")))
    files = {}
    for k in man["kernels"]:
        ptx = open(os.path.join(src, k["ptx"])).read()
        ptx = ptx.replace("barrier.cluster.arrive.aligned;",
                          "barrier.cluster.arrive.relaxed.aligned;")
        files[k["ptx"]] = ptx.encode()
        with tempfile.TemporaryDirectory() as t:
            p = os.path.join(t, "k.ptx")
            open(p, "w").write(ptx)
            subprocess.run(["ptxas", "-arch=sm_90a", "-O3", p, "-o",
                            os.path.join(t, "k.cubin")], check=True,
                           capture_output=True)
            files[k["cubin"]] = open(os.path.join(t, "k.cubin"), "rb").read()
    write_bundle(dst, man, files)
    print(dst, "ok")
