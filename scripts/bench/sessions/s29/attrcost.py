"""Twenty-ninth session: the host cost of the tensor attributes a cached
call reads (timeit, ns per access, on the GPU host's PyTorch), and of
building and looking up the layout key with `device` or `get_device()`."""
import timeit
import torch

t = torch.randn(128, 512, device="cuda").bfloat16()
args = (t, torch.randn(512, 32, device="cuda").bfloat16(),
        torch.randn(256, 512, device="cuda").bfloat16(),
        torch.empty(128, 256, device="cuda").bfloat16())
N = 200000
for stmt in ("t.shape", "t.stride()", "t.dtype", "t.device", "t.get_device()",
             "t.data_ptr()", "t.is_cuda", "t.is_contiguous()"):
    ns = min(timeit.repeat(stmt, globals={"t": t}, number=N, repeat=5)) / N * 1e9
    print(f"{stmt:22} {ns:7.1f} ns")
g = {"args": args}
key_dev = "tuple([(t.shape, t.stride(), t.dtype, t.device) for t in args])"
key_idx = "tuple([(t.shape, t.stride(), t.dtype, t.get_device()) for t in args])"
ptrs = "tuple([t.data_ptr() for t in args])"
for name, stmt in (("layout key, device", key_dev), ("layout key, get_device()", key_idx),
                   ("pointers", ptrs)):
    ns = min(timeit.repeat(stmt, globals=g, number=N // 4, repeat=5)) / (N // 4) * 1e9
    print(f"{name:26} {ns:7.1f} ns")
d1 = {eval(key_dev, g): 1}
d2 = {eval(key_idx, g): 1}
for name, stmt, d in (("lookup, device", f"d.get({key_dev})", d1),
                      ("lookup, get_device()", f"d.get({key_idx})", d2)):
    ns = min(timeit.repeat(stmt, globals=dict(g, d=d), number=N // 4, repeat=5)) / (N // 4) * 1e9
    print(f"{name:26} {ns:7.1f} ns")
