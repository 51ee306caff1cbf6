// race_control.cu - the racecheck controls of scripts/gpu/reliability.sh.
// naive_ffn's computation (naive_chain.cu) with the intermediate row h in
// shared memory. With `sync` = 1 a barrier separates writing h from reading
// it (racecheck must be clean); with `sync` = 0 the barrier is left out, a
// read-after-write hazard between threads that racecheck must report.
//
// nvcc -cubin -O3 -gencode=arch=compute_90a,code=sm_90a race_control.cu

#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;

__device__ __forceinline__ float geluTanh(float x) {
  return 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

/// out = gelu_tanh(x · w1) · w2; x [M, K], w1 [K, N], w2 [N, L] ("kn"); one
/// CTA per row, N floats of dynamic shared memory.
extern "C" __global__ void smem_ffn(const bf16 *x, const bf16 *w1,
                                    const bf16 *w2, bf16 *out, long long m,
                                    int n, int k, int l, int sync) {
  extern __shared__ float h[];
  long long row = blockIdx.x;
  if (row >= m)
    return;
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
