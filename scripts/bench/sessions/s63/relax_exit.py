"""Sixty-third session (test bundles, never the product): copies bundle SRC
to DST with cluster barrier arrives relaxed in every cluster kernel,
re-assembled with ptxas -O3, the hash refilled.

  (default)  the exit barrier's arrive only (the last arrive/wait pair
             before `ret`): how long the release arrive's wait for the
             epilogue's global stores takes (call 6);
  --all      every arrive, the exchange barriers' too: an upper bound on
             what their release costs (call 9).

usage: relax_exit.py [--all] SRC DST [SRC DST ...]"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, "python")
from flashfuser.bundle import write_bundle  # noqa: E402

EXIT = re.compile(r"(barrier\.cluster\.arrive)(\.aligned;\s*\n(?:\s*bar\.warp\.sync\s+-1;\s*\n)?"
                  r"\s*barrier\.cluster\.wait\.aligned;\s*\n\s*ret;)")
ARRIVE = re.compile(r"(barrier\.cluster\.arrive)(\.aligned;)")

args = sys.argv[1:]
pattern = EXIT
if args[:1] == ["--all"]:
    pattern, args = ARRIVE, args[1:]
for src, dst in zip(args[::2], args[1::2]):
    man = json.load(open(os.path.join(src, "manifest.json")))
    files = {}
    for k in man["kernels"]:
        ptx = open(os.path.join(src, k["ptx"])).read()
        if k["cluster"] != [1, 1, 1]:
            ptx, n = pattern.subn(r"\1.relaxed\2", ptx)
            assert n >= 1, (src, k["name"], n)
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
