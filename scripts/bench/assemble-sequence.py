#!/usr/bin/env python3
"""Assembles a two-kernel sequence bundle (docs/bundle.md, "sequence") of an
FFN chain from two single-GEMM bundles: act(A B) into the intermediate "c",
then c D into the output.

An experiment tool for measuring two-kernel plans on the GPU before the
compiler emits them: the chain (inputs in0, in1, in2, output out) and its
M bin come from the fused chain's bundle; kernel 0 from GEMM0's bundle
(its "out" becomes "c"), kernel 1 from GEMM1's ("in0" becomes "c", "in1"
becomes "in2"). The GEMMs must have been compiled for the chain's shapes,
activation, dtypes and weight layouts; the runtime's --check then compares
the sequence with the chain's fp32 reference.

usage: assemble-sequence.py FUSED GEMM0 GEMM1 OUT
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from flashfuser.bundle import read_bundle, write_bundle  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("fused", "gemm0", "gemm1", "out"):
        ap.add_argument(name)
    args = ap.parse_args()
    fused, _, _ = read_bundle(args.fused)
    chain = fused["chain"]
    if chain["kind"] != "ffn" or len(fused["kernels"]) != 1:
        sys.exit("assemble-sequence: %s is not a one-kernel ffn bundle" %
                 args.fused)
    m, n, k, l = chain["m"], chain["n"], chain["k"], chain["l"]
    bin_ = fused["kernels"][0]
    files = {}
    kernels = []
    plans = []
    for i, (path, rename, shape, act) in enumerate((
            (args.gemm0, {"out": "c"}, (m, n, k), chain["activation"]),
            (args.gemm1, {"in0": "c", "in1": "in2"}, (m, l, n),
             "identity"))):
        man, _, kfiles = read_bundle(path)
        plans.append(man.get("plan", {}))
        g = man["chain"]
        if (g["kind"], g["m"], g["n"], g["k"], g["activation"]) != (
                "gemm",) + shape + (act,):
            sys.exit("assemble-sequence: %s is not the %s GEMM %s with %s" %
                     (path, "first" if i == 0 else "second", shape, act))
        if len(man["kernels"]) != 1:
            sys.exit("assemble-sequence: %s has more than one kernel" % path)
        kern = dict(man["kernels"][0])
        kern["m_lo"], kern["m_hi"] = bin_["m_lo"], bin_["m_hi"]
        params = []
        for p in kern["params"]:
            p = dict(p)
            if "tensor" in p:
                p["tensor"] = rename.get(p["tensor"], p["tensor"])
            params.append(p)
        kern["params"] = params
        for key in ("cubin", "ptx"):
            if kern.get(key):
                name = "k%d_%s" % (i, kern[key])
                files[name] = kfiles[kern[key]]
                kern[key] = name
        kernels.append(kern)
        if i == 0:
            out = g["outputs"][0]
            inter = {"name": "c", "shape": [m, n], "dtype": out["dtype"]}
    manifest = {k: v for k, v in fused.items() if k not in ("kernels", "hash")}
    manifest["intermediates"] = [inter]
    manifest["kernels"] = kernels
    manifest["plan"] = {"sequence": plans}
    write_bundle(args.out, manifest, files)
    print("%s: %s + %s" % (args.out, args.gemm0, args.gemm1))


if __name__ == "__main__":
    main()
