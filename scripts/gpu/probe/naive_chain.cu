// naive_chain.cu - deliberately simple FFN / gated-FFN kernels (one CTA per
// row, no tensor cores, no clusters) that exercise the runtime's plain param
// kinds (ptr, i64, i32, workspace) and ff-run's ffn / gated_ffn references,
// before the compiler's fused kernels exist. The intermediate is rounded to
// bf16 like a fused kernel's.
//
// nvcc -cubin -O3 -gencode=arch=compute_90a,code=sm_90a naive_chain.cu

#include "naive_ffn.cuh"

__device__ __forceinline__ float silu(float x) {
  return x / (1.f + __expf(-x));
}

/// out = gelu_tanh(x · w1) · w2; x [M, K], w1 [K, N], w2 [N, L] ("kn").
/// h (one row per CTA, fp32) lives in the runtime's workspace.
extern "C" __global__ void naive_ffn(const bf16 *x, const bf16 *w1,
                                     const bf16 *w2, bf16 *out, long long m,
                                     int n, int k, int l, float *ws) {
  long long row = blockIdx.x;
  if (row >= m)
    return;
  naiveFfnRow(x, w1, w2, out, row, n, k, l, ws + row * n, /*sync=*/true);
}

/// out = (silu(x · wg) ⊙ (x · wu)) · wd with nn.Linear weights ("nk"):
/// wg, wu [N, K], wd [L, N].
extern "C" __global__ void naive_gated(const bf16 *x, const bf16 *wg,
                                       const bf16 *wu, const bf16 *wd,
                                       bf16 *out, long long m, int n, int k,
                                       int l, float *ws) {
  long long row = blockIdx.x;
  if (row >= m)
    return;
  float *h = ws + row * n;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    float g = 0.f, u = 0.f;
    for (int i = 0; i < k; ++i) {
      float xv = __bfloat162float(x[row * k + i]);
      g += xv * __bfloat162float(wg[j * k + i]);
      u += xv * __bfloat162float(wu[j * k + i]);
    }
    h[j] = __bfloat162float(__float2bfloat16(silu(g) * u));
  }
  __syncthreads();
  for (int j = threadIdx.x; j < l; j += blockDim.x) {
    float s = 0.f;
    for (int i = 0; i < n; ++i)
      s += h[i] * __bfloat162float(wd[j * n + i]);
    out[row * l + j] = __float2bfloat16(s);
  }
}
