"""Thirtieth session: the cuDNN chain of a convolution workload (channels
last, bf16), run 30 times for ncu to profile (s30i.sh)."""
import math
import sys
import torch
import torch.nn.functional as F

b, ic, h, w, oc1, oc2, k1, k2 = [int(v) for v in sys.argv[1:9]]
x = torch.randn(b, ic, h, w, device="cuda").bfloat16().to(
    memory_format=torch.channels_last)
c1 = (torch.randn(oc1, ic, k1, k1, device="cuda") /
      math.sqrt(ic * k1 * k1)).bfloat16().to(memory_format=torch.channels_last)
c2 = (torch.randn(oc2, oc1, k2, k2, device="cuda") /
      math.sqrt(oc1)).bfloat16().to(memory_format=torch.channels_last)
for _ in range(30):
    F.conv2d(F.relu(F.conv2d(x, c1, padding=k1 // 2)), c2)
torch.cuda.synchronize()
