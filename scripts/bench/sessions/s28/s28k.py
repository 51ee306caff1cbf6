"""Twenty-eighth session, last GPU call: flashfuser.gated_gemm's bundle
(.device/s28k/GG-py: flashfuser.compile_bundle({"kind": "gated_gemm",
"m": -1, "n": 2816, "k": 1024, "dtype": "bf16", "weight_layout": "nk"}))
loaded and called like a user does, fused ("never") and with the default
"auto", at M in several bins, against an fp32 reference on fresh random
data with the output poisoned first (bound 1e-2)."""
import sys
import torch
sys.path.insert(0, "python")
import flashfuser

torch.manual_seed(5)
n, k = 2816, 1024
wg = (torch.randn(n, k, device="cuda") / k ** 0.5).bfloat16()
wu = (torch.randn(n, k, device="cuda") / k ** 0.5).bfloat16()
worst = 0.0
for mode in ("never", "auto"):
    kern = flashfuser.load(".device/s28k/GG-py", fallback=mode)
    for m in (1, 77, 128, 600, 3000, 77):
        x = torch.randn(m, k, device="cuda").bfloat16()
        out = torch.full((m, n), float("nan"), device="cuda").bfloat16()
        for _ in range(3):
            kern(x, wg, wu, out=out)
        torch.cuda.synchronize()
        ref = torch.nn.functional.silu(x.float() @ wg.float().t()) * \
            (x.float() @ wu.float().t())
        rel = ((out.float() - ref).norm() / ref.norm()).item()
        worst = max(worst, rel)
        print(f"{mode} M={m}: rel_l2 {rel:.3e}, nan "
              f"{torch.isnan(out).any().item()}")
print("PASS" if worst < 1e-2 else "FAIL", f"worst rel_l2 {worst:.3e} (bound 1e-2)")
