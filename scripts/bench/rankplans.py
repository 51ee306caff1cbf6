"""Helpers of the ranked-plan sweeps (scripts/bench/sessions/*): the search
at a given rank over a single-GEMM module, the fields of the schedule it
records, and lowering the searched module into a kernel bundle."""
import re
import subprocess

FF_OPT = "build/bin/ff-opt"
FUSE = "--dsm-fuse=fuse-single-gemms=true"
# cls_m, cls_n, cls_k, blk_m, blk_n, grid_m, grid_n, stages, cost_ns.
SCHED = re.compile(r"#dsm\.schedule<cluster = \[(\d+), (\d+), (\d+), 1\], "
                   r"block = \[(\d+), (\d+),[^>]*grid = \[(\d+), (\d+),"
                   r"[^>]*stages = (\d+), cost_ns = (\d+)>")


def search_rank(src, rank):
    """(searched module text, SCHED match or None, stderr) of `src` with
    the plan of rank `rank` recorded."""
    res = subprocess.run([FF_OPT, src, FUSE, f"--dsm-search=rank={rank}"],
                         capture_output=True, text=True)
    return res.stdout, SCHED.search(res.stdout), res.stderr


def lower(text, bundle):
    """Lowers a searched module into `bundle`: "" or ff-opt's error."""
    low = subprocess.run([FF_OPT, "-", "--lower-to-nvvm=format=bin "
                          "emit-bundle=" + bundle, "-o", "/dev/null"],
                         input=text, capture_output=True, text=True)
    return "" if low.returncode == 0 else low.stderr[:300]
