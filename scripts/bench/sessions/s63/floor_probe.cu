// Sixty-third session: the GPU time per launch of a near-empty kernel
// replayed back to back inside one CUDA graph (50 launches per graph, the
// graph replayed 200 times, events around each replay; median per launch),
// for the launch shapes our small fused and sequence kernels use: 16 CTAs
// of 256 threads, with or without 185 KB of dynamic shared memory, in
// clusters of 1, 2, 4, 8, with or without a cluster barrier at entry and
// exit (what a DSM kernel must do before touching a peer's shared memory
// and before it exits), and with the programmatic-serialization attribute
// (PDL: griddepcontrol.wait at entry, launch_dependents right after).
//   nvcc -arch=sm_90a -O2 -o /tmp/floor floor_probe.cu && /tmp/floor
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// flags: 1 cluster barrier at entry and exit, 2 griddepcontrol (PDL),
// 4 touch the dynamic shared memory (one store per thread).
__global__ void probe(int *p, int flags) {
  extern __shared__ int smem[];
  if (flags & 2)
    asm volatile("griddepcontrol.wait;" ::: "memory");
  if (flags & 2)
    asm volatile("griddepcontrol.launch_dependents;");
  if (flags & 1)
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (flags & 4)
    smem[threadIdx.x] = threadIdx.x;
  if (p && threadIdx.x == 1000)
    *p = smem[0];
  if (flags & 1)
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

struct Shape {
  const char *name;
  int grid, cluster, smem, flags;
  bool pdl;
};

static float perLaunchUs(const Shape &sh, cudaStream_t s) {
  const int n = 50;
  int *p = nullptr;
  int flags = sh.flags;
  void *args[] = {&p, &flags};
  cudaLaunchAttribute attrs[2];
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(sh.grid);
  c.blockDim = dim3(256);
  c.dynamicSmemBytes = sh.smem;
  c.stream = s;
  int na = 0;
  if (sh.cluster > 1) {
    attrs[na].id = cudaLaunchAttributeClusterDimension;
    attrs[na].val.clusterDim.x = sh.cluster;
    attrs[na].val.clusterDim.y = 1;
    attrs[na].val.clusterDim.z = 1;
    ++na;
  }
  if (sh.pdl) {
    attrs[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[na].val.programmaticStreamSerializationAllowed = 1;
    ++na;
  }
  c.attrs = attrs;
  c.numAttrs = na;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < n; ++i)
    CHECK(cudaLaunchKernelExC(&c, (const void *)probe, args));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int r = 0; r < 220; ++r) {
    CHECK(cudaEventRecord(a, s));
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 20)
      t.push_back(ms * 1000 / n);
  }
  std::sort(t.begin(), t.end());
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  return t[t.size() / 2];
}

int main() {
  CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             189440));
  CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeNonPortableClusterSizeAllowed,
                             1));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int big = 189440;
  std::vector<Shape> shapes = {
      {"plain", 16, 1, 0, 0, false},
      {"smem", 16, 1, big, 4, false},
      {"pdl", 16, 1, 0, 2, true},
      {"smem+pdl", 16, 1, big, 6, true},
      {"c2", 16, 2, 0, 0, false},
      {"c4", 16, 4, 0, 0, false},
      {"c8", 16, 8, 0, 0, false},
      {"c8+bar", 16, 8, 0, 1, false},
      {"c8+smem", 16, 8, big, 4, false},
      {"c8+smem+bar", 16, 8, big, 5, false},
      {"c8+smem+bar+pdl", 16, 8, big, 7, true},
      {"c4+smem+bar+pdl", 16, 4, big, 7, true},
      {"c2+smem+bar+pdl", 16, 2, big, 7, true},
      {"c1 g128+smem+pdl", 128, 1, big, 6, true},
      {"c8 g128+smem+bar+pdl", 128, 8, big, 7, true},
  };
  std::printf("| launch | us per launch (graph of 50) |\n|---|---|\n");
  for (int round = 0; round < 2; ++round)
    for (auto &sh : shapes)
      std::printf("| %s (r%d) | %.2f |\n", sh.name, round + 1,
                  perLaunchUs(sh, s));
  return 0;
}
