// launch_probe.cu - what a cached call's launch costs: cuLaunchKernelEx of
// prebuilt cluster launches against cuGraphLaunch of the same launches
// captured in a CUDA graph (what the runtime's cached calls replay).
//
// A call is 1 or 2 kernels shaped like a small chain's: 64 CTAs of 256
// threads in clusters of 2, a 640-byte __grid_constant__ parameter block
// (three tensor maps and pointers), programmatic stream serialization on
// each launch, each kernel spinning SPIN_NS on %globaltimer. Per mode:
//   host      host µs per call, batches of 32 calls, the GPU drained
//             between batches (untimed);
//   events    events around each call, all queued, median of 200
//             (scripts/bench/bench.py's per-call figure);
//   loop      500 calls between two events, per call.
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//          launch_probe.cu -o launch_probe -lcuda

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

struct alignas(64) Params {
  unsigned char maps[3][128];
  void *ptrs[8];
  long long extents[24];
  int spinNs;
};

__global__ void spin(const __grid_constant__ Params p) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < static_cast<unsigned long long>(p.spinNs));
  asm volatile("griddepcontrol.launch_dependents;");
  if (p.ptrs[0] && threadIdx.x == 0 && blockIdx.x == 0)
    *static_cast<int *>(p.ptrs[0]) = 1;
}

namespace {

CUfunction fn;
Params params;
void *args[] = {&params};

void launchAll(CUstream s, int kernels) {
  CUlaunchAttribute attrs[2] = {};
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = 2;
  attrs[0].value.clusterDim.y = attrs[0].value.clusterDim.z = 1;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attrs[1].value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 64;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 256;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.hStream = s;
  cfg.attrs = attrs;
  cfg.numAttrs = 2;
  for (int k = 0; k < kernels; ++k)
    CU(cuLaunchKernelEx(&cfg, fn, args, nullptr));
}

template <typename F>
double hostUs(F call, CUstream s) {
  const int batches = 128, batch = 32;
  double total = 0;
  for (int i = 0; i < 64; ++i)
    call();
  CU(cuStreamSynchronize(s));
  for (int b = 0; b < batches; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i)
      call();
    total += std::chrono::duration<double, std::micro>(
                 std::chrono::steady_clock::now() - t0)
                 .count();
    CU(cuStreamSynchronize(s));
  }
  return total / (batches * batch);
}

template <typename F>
double eventsUs(F call, CUstream s) {
  const int reps = 200;
  std::vector<CUevent> ev(2 * reps);
  for (CUevent &e : ev)
    CU(cuEventCreate(&e, CU_EVENT_DEFAULT));
  for (int i = 0; i < 20; ++i)
    call();
  for (int i = 0; i < reps; ++i) {
    CU(cuEventRecord(ev[2 * i], s));
    call();
    CU(cuEventRecord(ev[2 * i + 1], s));
  }
  CU(cuStreamSynchronize(s));
  std::vector<float> ms(reps);
  for (int i = 0; i < reps; ++i)
    CU(cuEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]));
  for (CUevent &e : ev)
    CU(cuEventDestroy(e));
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[reps / 2] * 1e3;
}

template <typename F>
double loopUs(F call, CUstream s) {
  CUevent a, b;
  CU(cuEventCreate(&a, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&b, CU_EVENT_DEFAULT));
  for (int i = 0; i < 20; ++i)
    call();
  CU(cuEventRecord(a, s));
  for (int i = 0; i < 500; ++i)
    call();
  CU(cuEventRecord(b, s));
  CU(cuStreamSynchronize(s));
  float ms = 0;
  CU(cuEventElapsedTime(&ms, a, b));
  CU(cuEventDestroy(a));
  CU(cuEventDestroy(b));
  return ms * 1e3 / 500;
}

} // namespace

int main() {
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  CK(cudaGetFuncBySymbol(&fn, reinterpret_cast<const void *>(spin)));
  int *flag = nullptr;
  CK(cudaMalloc(&flag, sizeof(int)));
  params.ptrs[0] = flag;
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::printf("| kernels | spin ns | mode | host us | events us | loop us |\n"
              "|---|---|---|---|---|---|\n");
  for (int spinNs : {2000, 5000}) {
    params.spinNs = spinNs;
    for (int kernels : {1, 2}) {
      CUgraph g;
      CUgraphExec ge;
      CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
      launchAll(s, kernels);
      CU(cuStreamEndCapture(s, &g));
      CU(cuGraphInstantiate(&ge, g, 0));
      auto direct = [&] { launchAll(s, kernels); };
      auto graph = [&] { CU(cuGraphLaunch(ge, s)); };
      for (int round = 0; round < 2; ++round) {
        std::printf("| %d | %d | direct | %.2f | %.2f | %.2f |\n", kernels,
                    spinNs, hostUs(direct, s), eventsUs(direct, s),
                    loopUs(direct, s));
        std::printf("| %d | %d | graph | %.2f | %.2f | %.2f |\n", kernels,
                    spinNs, hostUs(graph, s), eventsUs(graph, s),
                    loopUs(graph, s));
      }
      CU(cuGraphExecDestroy(ge));
      CU(cuGraphDestroy(g));
    }
  }
  int v = 0;
  CK(cudaMemcpy(&v, flag, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("kernels ran: %s\n", v == 1 ? "yes" : "NO");
  return v == 1 ? 0 : 1;
}
