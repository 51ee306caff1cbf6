// race_control.cu - the racecheck controls of scripts/gpu/reliability.sh.
// naive_ffn's computation (naive_chain.cu) with the intermediate row h in
// shared memory. With `sync` = 1 a barrier separates writing h from reading
// it (racecheck must be clean); with `sync` = 0 the barrier is left out, a
// read-after-write hazard between threads that racecheck must report.
//
// nvcc -cubin -O3 -gencode=arch=compute_90a,code=sm_90a race_control.cu

#include "naive_ffn.cuh"

/// out = gelu_tanh(x · w1) · w2; x [M, K], w1 [K, N], w2 [N, L] ("kn"); one
/// CTA per row, N floats of dynamic shared memory.
extern "C" __global__ void smem_ffn(const bf16 *x, const bf16 *w1,
                                    const bf16 *w2, bf16 *out, long long m,
                                    int n, int k, int l, int sync) {
  extern __shared__ float h[];
  long long row = blockIdx.x;
  if (row >= m)
    return;
  naiveFfnRow(x, w1, w2, out, row, n, k, l, h, sync != 0);
}
