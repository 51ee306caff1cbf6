"""Fifty-fourth session: PyTorch's chain of a G or S workload at M (as
bench.py builds it: nn.Linear weights, a gated FFN's merged gate|up GEMM,
or with `split` its gate and up GEMMs apart), run once after warm-up
between cudaProfilerStart/Stop so that `ncu --profile-from-start off`
sees exactly its kernels.
Usage: chain_once.py WORKLOAD M [split]"""
import dataclasses
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
import torch  # noqa: E402

import bench  # noqa: E402
import workloads  # noqa: E402

name, m = sys.argv[1], int(sys.argv[2])
split = len(sys.argv) > 3 and sys.argv[3] == "split"
w = next(x for x in workloads.gemm_chains() + workloads.gated_chains()
         if x.name == name)
w = dataclasses.replace(w, m=m)
gen = torch.Generator(device="cuda").manual_seed(0)
inputs, eager, _ = bench.make(w, gen)
run = bench.split_chain(w, inputs) if split else (lambda: eager(*inputs))
for _ in range(5):
    run()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
run()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
