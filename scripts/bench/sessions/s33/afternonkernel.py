"""Thirty-third session: a call whose first kernel is launched
programmatically right after a stream operation that is not a kernel (a
device-to-device cudaMemcpyAsync: PyTorch's copy_ of a contiguous tensor
of the same dtype; and a cudaMemsetAsync through the runtime's own API is
not reachable from here), eagerly and captured into a PyTorch CUDA graph
with the copy: the call must read the copied input. Prints PASS/FAIL per
case; exits 1 on any failure.

  FLASHFUSER_RUNTIME_LIB=... PYTHONPATH=python \\
      python3 afternonkernel.py BUNDLE"""
import sys

import torch

sys.path.insert(0, "scripts/gpu")
import flashfuser  # noqa: E402
from python_check import chain_reference, random_inputs, rel_l2  # noqa: E402,E501

k = flashfuser.load(sys.argv[1], graphs=False)
gen = torch.Generator(device="cuda").manual_seed(3)
xs = random_inputs(k, 128, gen)
src = [torch.randn_like(xs[0], dtype=torch.float32).to(torch.bfloat16)
       for _ in range(2)]
x = torch.empty_like(xs[0])
out = torch.empty([128 if d == -1 else d for d in k.outputs[0]["shape"]],
                  dtype=torch.bfloat16, device="cuda")


def check(name, s):
    err = rel_l2(out, chain_reference(k, [s] + xs[1:]))
    ok = err < 1e-2
    print(f"{name}: rel_l2={err:.3e} {'PASS' if ok else 'FAIL'}")
    return ok


ok = True
for i in range(4):                  # eager: copy, then the call, queued
    out.fill_(float("nan"))
    x.copy_(src[i % 2])
    k(x, *xs[1:], out=out)
torch.cuda.synchronize()
ok &= check("eager copy_ then call", src[1])
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    x.copy_(src[0])
    k(x, *xs[1:], out=out)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    x.copy_(src[0])
    k(x, *xs[1:], out=out)
src[0].copy_(src[1])                # the graph's copy now reads set 1
out.fill_(float("nan"))
g.replay()
torch.cuda.synchronize()
ok &= check("captured copy_ then call, replayed", src[1])
sys.exit(0 if ok else 1)
