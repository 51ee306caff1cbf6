"""Twenty-seventh session, ninth call: the Python package on a dynamic-M
kernel-sequence bundle (.device/s27r/G8: two GEMM kernels per M bin),
called like a user does (flashfuser.load, then calls that replay the
recorded CUDA graph), at M in three bins, against an fp32 reference on
fresh random data with the output poisoned first."""
import sys
import torch
sys.path.insert(0, "python")
import flashfuser

k = flashfuser.load(".device/s27r/G8")
torch.manual_seed(7)
w1 = (torch.randn(8192, 2048, device="cuda") / 2048 ** 0.5).bfloat16()
w2 = (torch.randn(2048, 8192, device="cuda") / 8192 ** 0.5).bfloat16()
worst = 0.0
for m in (77, 128, 300, 77):
    x = torch.randn(m, 2048, device="cuda").bfloat16()
    out = torch.full((m, 2048), float("nan"), device="cuda").bfloat16()
    for _ in range(3):  # first call launches, later ones replay the graph
        k(x, w1, w2, out=out)
    torch.cuda.synchronize()
    h = torch.nn.functional.gelu(x.float() @ w1.float().t(), approximate="tanh")
    ref = h.bfloat16().float() @ w2.float().t()
    rel = ((out.float() - ref).norm() / ref.norm()).item()
    worst = max(worst, rel)
    print(f"M={m}: rel_l2 {rel:.3e}, nan {torch.isnan(out).any().item()}, "
          f"kernel {k.kernel_for(m)['name']}")
print("PASS" if worst < 1e-2 else "FAIL", f"worst rel_l2 {worst:.3e} (bound 1e-2)")
