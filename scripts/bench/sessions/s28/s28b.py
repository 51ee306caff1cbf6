"""Twenty-eighth session, second call: the Python package on a dynamic-M
gated kernel-sequence bundle (.device/s28c/S1: a gated GEMM and the down
GEMM per M bin), called like a user does (flashfuser.load, then calls that
replay the recorded CUDA graph), at M in three bins, against an fp32
reference on fresh random data with the output poisoned first."""
import sys
import torch
sys.path.insert(0, "python")
import flashfuser

k = flashfuser.load(".device/s28c/S1")
torch.manual_seed(11)
n, kk = 8192, 3072  # S1: K = L = 3072, N = 8192
wg = (torch.randn(n, kk, device="cuda") / kk ** 0.5).bfloat16()
wu = (torch.randn(n, kk, device="cuda") / kk ** 0.5).bfloat16()
wd = (torch.randn(kk, n, device="cuda") / n ** 0.5).bfloat16()
worst = 0.0
for m in (77, 128, 300, 77):
    x = torch.randn(m, kk, device="cuda").bfloat16()
    out = torch.full((m, kk), float("nan"), device="cuda").bfloat16()
    for _ in range(3):  # first call launches, later ones replay the graph
        k(x, wg, wu, wd, out=out)
    torch.cuda.synchronize()
    g = x.float() @ wg.float().t()
    h = torch.nn.functional.silu(g) * (x.float() @ wu.float().t())
    ref = h.bfloat16().float() @ wd.float().t()
    rel = ((out.float() - ref).norm() / ref.norm()).item()
    worst = max(worst, rel)
    print(f"M={m}: rel_l2 {rel:.3e}, nan {torch.isnan(out).any().item()}, "
          f"kernel {k.kernel_for(m)['name']}")
print("PASS" if worst < 1e-2 else "FAIL", f"worst rel_l2 {worst:.3e} (bound 1e-2)")
