// naive_ffn.cuh - the row of the naive FFN that naive_chain.cu's naive_ffn
// and race_control.cu's smem_ffn both compute; only where the intermediate
// row lives (workspace or shared memory) and the barrier differ.

#ifndef FF_PROBE_NAIVE_FFN_CUH
#define FF_PROBE_NAIVE_FFN_CUH

#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;

__device__ __forceinline__ float geluTanh(float x) {
  return 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

/// out[row] = gelu_tanh(x[row] · w1) · w2 with x [M, K], w1 [K, N],
/// w2 [N, L] ("kn"), the bf16-rounded intermediate in h (N floats); the
/// CTA's threads share the work. `sync` = false leaves out the barrier
/// between writing h and reading it (racecheck's negative control).
__device__ __forceinline__ void naiveFfnRow(const bf16 *x, const bf16 *w1,
                                            const bf16 *w2, bf16 *out,
                                            long long row, int n, int k,
                                            int l, float *h, bool sync) {
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    float s = 0.f;
    for (int i = 0; i < k; ++i)
      s += __bfloat162float(x[row * k + i]) * __bfloat162float(w1[i * n + j]);
    h[j] = __bfloat162float(__float2bfloat16(geluTanh(s)));
  }
  if (sync)
    __syncthreads();
  for (int j = threadIdx.x; j < l; j += blockDim.x) {
    float s = 0.f;
    for (int i = 0; i < n; ++i)
      s += h[i] * __bfloat162float(w2[i * l + j]);
    out[row * l + j] = __float2bfloat16(s);
  }
}

#endif // FF_PROBE_NAIVE_FFN_CUH
