#!/usr/bin/env python3
"""Compiles every paper workload into a kernel bundle (cubins) and checks it.

Shapes come from scripts/bench/workloads.py (the single source of truth);
the linalg-on-tensors text from the --dsm-fuse test generator
(test/Dialect/DSM/Transforms/Inputs/gen_paper_workloads.py). Each workload
runs through

  ff-opt in.mlir --dsm-fuse --dsm-search \
      --lower-to-nvvm="format=bin emit-bundle=OUTDIR/<name>"

and every kernel of its bundle is checked by scripts/check-bundles.py
(PTX instructions, cubin, ptxas -v without spills). Prints a table
name | plan cluster | block | smem | regs | spills | status and exits 1 if
any workload did not compile to a checked bundle.

With --dynamic-m it compiles G1-G10 and S1-S8 (with --single-gemms also the
single GEMMs) with a dynamic M instead (the Python package's generator): one
bundle per chain with a kernel per M bin of its #dsm.schedule_table.

With --ranks R it compiles, per workload, the R best lowerable plans of the
cost model's ranking (--dsm-search="rank=i") into OUTDIR/<name>-r<i>: the
candidates issue 7's fidelity check measures on the GPU (static M only).
--race builds <name>-race bundles whose kernel has a known shared-memory
race (the negative control of compute-sanitizer racecheck). --spread S adds, beyond those, the best-ranked plan of every other
(cluster, block) shape among the 512 best lowerable ones, up to S more: the
measurements that show where the model's ranking is wrong.
--dynamic-sweep adds G1-G10 and S1-S8 at the dynamic-M sweep's M
(scripts/bench/workloads.py dynamic_m_sweep, static M: dyn-G5-m300, ...).
--lower-options "OPTS" appends OPTS to --lower-to-nvvm (e.g.
multicast-a=true), --search-options "OPTS" to --dsm-search (e.g.
deterministic), and --suffix S appends S to every bundle name, to build
variants side by side.

usage: compile-workloads.py OUTDIR [--ff-opt PATH] [--ptxas PATH]
                            [--only NAME[,NAME...]] [--dynamic-m]
                            [--ranks R] [--jobs J]
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


workloads = load("workloads", os.path.join(HERE, "bench", "workloads.py"))
gen = load("gen_paper_workloads",
           os.path.join(ROOT, "test", "Dialect", "DSM", "Transforms",
                        "Inputs", "gen_paper_workloads.py"))
checker = load("check_bundles", os.path.join(HERE, "check-bundles.py"))


def selected():
    """The paper workloads plus the G5/S3 M sweep, in table order."""
    return (workloads.gemm_chains() + workloads.gated_chains() +
            workloads.conv_chains(1) + workloads.conv_chains(32) +
            workloads.m_sweep())


def func_name(w):
    return w.name.lower().replace("-", "_")


def linalg_text(w, dynamic_m=False, weight_layout="kn"):
    """One function holding the workload's chain as linalg on tensors.
    weight_layout "nk": PyTorch Linear weights [out, in] (what bench.py's
    eager chain holds), through the Python package's generator, and conv
    chains as a bf16 PyTorch model has them: FHWC filters (OIHW in
    channels_last memory) and a bf16 result."""
    if dynamic_m or w.kind == "gemm" or (weight_layout == "nk" and
                                         w.kind != "conv"):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        from flashfuser.mlirgen import generate_mlir
        return generate_mlir({"kind": w.kind, "m": -1 if dynamic_m else w.m,
                              "n": w.n, "k": w.k, "l": w.l,
                              "activation": w.act, "dtype": "bf16",
                              "weight_layout": weight_layout})
    fn = func_name(w)
    if w.kind == "ffn":
        body = gen.ffn(fn, w.m, w.n, w.k, w.l, w.act)
    elif w.kind == "gated_ffn":
        body = gen.gated(fn, w.m, w.n, w.k, w.l)
    elif w.kind == "conv":
        batch, ic, h, wd, oc1, oc2, k1, k2 = w.conv
        torch_like = weight_layout == "nk"
        body = gen.conv(fn, ic, h, wd, oc1, oc2, k1, k2, batch=batch,
                        filters="fhwc" if torch_like else "hwcf",
                        out="bf16" if torch_like else "f32")
    else:
        raise ValueError("unknown workload kind " + w.kind)
    return gen.MAPS + gen.strip_checks(body)


def find_ff_opt(path):
    for cand in (path, os.path.join(ROOT, "build", "bin", "ff-opt"),
                 shutil.which("ff-opt")):
        if cand and os.path.isfile(cand):
            return cand
    sys.exit("compile-workloads: ff-opt not found (build it or pass --ff-opt)")


def first_diagnostic(stderr):
    for kind in ("error: ", "warning: "):
        for line in stderr.splitlines():
            if kind in line:
                return line.split(kind, 1)[1].strip()
    lines = stderr.strip().splitlines()
    return lines[-1] if lines else "failed"


def fuse_flag(w):
    """--dsm-fuse, which leaves a lone GEMM alone unless told otherwise."""
    return "--dsm-fuse" + ("=fuse-single-gemms=true" if w.kind == "gemm"
                           else "")


def lowerable_candidates(w, ff_opt, tmp, search_options=""):
    """The ranked lowerable plans --dsm-search keeps for `w` (its dump's
    lowerable_candidates: index i is the plan rank=i records)."""
    src = os.path.join(tmp, func_name(w) + "-dump.mlir")
    dump = src + ".json"
    with open(src, "w") as f:
        f.write(linalg_text(w))
    opts = "dump=" + dump + (" " + search_options if search_options else "")
    subprocess.run([ff_opt, src, fuse_flag(w), "--dsm-search=" + opts,
                    "-o", os.devnull], check=True, capture_output=True)
    with open(dump) as f:
        return json.load(f)["chains"][0]["lowerable_candidates"]


def spread_ranks(w, ff_opt, tmp, ranks, spread, search_options=""):
    """Ranks 0..ranks-1 plus the first rank of up to `spread` other shapes,
    in the ranking of the same --dsm-search options the bundles use."""
    cands = lowerable_candidates(w, ff_opt, tmp, search_options)
    chosen = list(range(min(ranks, len(cands))))
    seen = {(tuple(c["cluster"]), tuple(c["block"])) for c in cands[:ranks]}
    for c in cands[ranks:]:
        key = (tuple(c["cluster"]), tuple(c["block"]))
        if len(chosen) >= ranks + spread:
            break
        if key not in seen:
            seen.add(key)
            chosen.append(c["rank"])
    return chosen


def compile_one(w, args, ff_opt, ptxas, tmp, rank=None):
    """Compiles workload w (its `rank`-th plan when given) into a bundle
    under args.outdir with the command line's options; returns the check
    rows (checker.check) or one failure row."""
    name = w.name if rank is None else "%s-r%d" % (w.name, rank)
    if args.race:
        name += "-race"
    name += args.suffix
    src = os.path.join(tmp, name + ".mlir")
    with open(src, "w") as f:
        f.write(linalg_text(w, args.dynamic_m, args.weight_layout))
    bundle = os.path.join(args.outdir, name)
    shutil.rmtree(bundle, ignore_errors=True)
    # The race control omits a barrier of the fused workspace reduction,
    # which a kernel sequence does not have.
    opts = ([] if rank is None else ["rank=%d" % rank]) + \
        (["sequences=false"] if args.race else []) + \
        ([args.search_options] if args.search_options else [])
    search = "--dsm-search" + ("=" + " ".join(opts) if opts else "")
    proc = subprocess.run(
        [ff_opt, src,
         fuse_flag(w), search,
         '--lower-to-nvvm=format=bin emit-bundle=%s%s' % (
             bundle, (" test-omit-barrier" if args.race else "") +
             (" " + args.lower_options if args.lower_options else "")),
         "-o", os.devnull], capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(bundle, ignore_errors=True)
        return [{"name": name, "status": first_diagnostic(proc.stderr)}]
    rows = checker.check([bundle], ptxas)
    for r in rows:
        r["name"] = name if len(rows) == 1 else name + "/" + r["name"]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ff-opt")
    ap.add_argument("--ptxas")
    ap.add_argument("--only", help="comma-separated workload names")
    ap.add_argument("--dynamic-m", action="store_true",
                    help="G1-G10 and S1-S8 (and with --single-gemms the "
                    "single GEMMs) with a dynamic M")
    ap.add_argument("--ranks", type=int, default=0,
                    help="compile the R best plans of each workload")
    ap.add_argument("--lower-options", default="",
                    help="extra --lower-to-nvvm options, e.g. multicast-a=true")
    ap.add_argument("--weight-layout", choices=("kn", "nk"), default="kn",
                    help="nk: PyTorch Linear weights [out, in], FHWC "
                         "conv filters (OIHW, channels_last) and bf16 conv "
                         "results, as scripts/bench/bench.py passes them")
    ap.add_argument("--search-options", default="",
                    help="extra --dsm-search options, e.g. deterministic")
    ap.add_argument("--suffix", default="",
                    help="appended to every bundle name")
    ap.add_argument("--race", action="store_true",
                    help="build <name>-race bundles with a known race "
                         "(--lower-to-nvvm=test-omit-barrier), the negative "
                         "control of compute-sanitizer racecheck")
    ap.add_argument("--spread", type=int, default=0,
                    help="with --ranks: up to S more plans of other shapes")
    ap.add_argument("--single-gemms", action="store_true",
                    help="also the single GEMMs at 4096^3 and 8192^3 (the "
                         "GEMM engine against cuBLAS in bench.py)")
    ap.add_argument("--anchors", action="store_true",
                    help="also the T3 (narrow) and T4 (DSM window) chains of "
                         "perf-anchors.md that bench.py times")
    ap.add_argument("--dynamic-sweep", action="store_true",
                    help="also G1-G10 and S1-S8 at the M of bench.py's "
                         "dynamic-M sweep, static (dyn-G5-m300, ...): what "
                         "a plan searched at that very M runs")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    ff_opt = find_ff_opt(args.ff_opt)
    ptxas = checker.find_ptxas(args.ptxas)
    if not ptxas:
        sys.exit("compile-workloads: ptxas not found")
    os.makedirs(args.outdir, exist_ok=True)
    todo = (workloads.gemm_chains() + workloads.gated_chains()
            if args.dynamic_m else selected())
    if args.single_gemms:
        # With a dynamic M, the short-M GEMMs are the square ones' bins.
        todo += [w for w in workloads.single_gemms()
                 if not (args.dynamic_m and "-m" in w.name)]
    if args.anchors and not args.dynamic_m:
        todo += workloads.narrow_and_dsm_window()
    if args.dynamic_sweep and not args.dynamic_m:
        todo += workloads.dynamic_m_sweep()
    if args.only:
        names = set(args.only.split(","))
        todo = [w for w in todo if w.name in names]

    cols = ("name", "cluster", "block", "smem", "regs", "spills", "status")
    print(" | ".join(cols))
    print("|".join("---" for _ in cols))
    if args.ranks and args.dynamic_m:
        sys.exit("compile-workloads: --ranks needs static M")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        jobs = [(w, None) for w in todo] if not args.ranks else \
            [(w, i) for w in todo
             for i in spread_ranks(w, ff_opt, tmp, args.ranks, args.spread,
                                   args.search_options)]
        futures = [pool.submit(compile_one, w, args, ff_opt, ptxas, tmp, rank)
                   for w, rank in jobs]
        for fut in futures:
            for r in fut.result():
                if r["status"] != "ok":
                    failed += 1
                print(" | ".join(str(r.get(c, "-")) for c in cols),
                      flush=True)
    print("%d bundles, %d failed; bundles in %s" %
          (len(jobs), failed, args.outdir))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
