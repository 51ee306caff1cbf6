// Thirtieth session: host time of one launch of an empty cluster kernel
// (grid 8, cluster 8, 128 threads) through cudaLaunchKernelEx, with and
// without the programmatic-serialization attribute, against
// cudaGraphLaunch of a graph of the same launch (one node, and two nodes
// in sequence). Bursts of 200 launches with a synchronize between bursts,
// so the launch queue never fills; the host time of the launch calls only,
// median over 50 bursts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void empty(int *p) {
  if (p && threadIdx.x == 1000)
    *p = 1;
}

static cudaLaunchConfig_t config(cudaLaunchAttribute *attrs, bool pdl) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(8);
  c.blockDim = dim3(128);
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 8;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[1].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = attrs;
  c.numAttrs = pdl ? 2 : 1;
  return c;
}

template <typename F> static double perLaunchUs(F launch, cudaStream_t s) {
  std::vector<double> bursts;
  for (int b = 0; b < 55; ++b) {
    double total = 0;
    for (int i = 0; i < 200; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      launch();
      auto t1 = std::chrono::steady_clock::now();
      total += std::chrono::duration<double, std::micro>(t1 - t0).count();
    }
    cudaStreamSynchronize(s);
    if (b >= 5)
      bursts.push_back(total / 200);
  }
  std::sort(bursts.begin(), bursts.end());
  return bursts[bursts.size() / 2];
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int *p = nullptr;
  void *args[] = {&p};
  cudaLaunchAttribute attrs[2];
  cudaLaunchConfig_t plain = config(attrs, false);
  plain.stream = s;
  cudaLaunchAttribute attrs2[2];
  cudaLaunchConfig_t pdl = config(attrs2, true);
  pdl.stream = s;
  auto one = [&] { cudaLaunchKernelExC(&plain, (void *)empty, args); };
  auto two = [&] {
    cudaLaunchKernelExC(&plain, (void *)empty, args);
    cudaLaunchKernelExC(&pdl, (void *)empty, args);
  };
  auto classic = [&] { empty<<<8, 128, 0, s>>>(p); };
  cudaGraph_t g1, g2;
  cudaGraphExec_t e1, e2;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  one();
  cudaStreamEndCapture(s, &g1);
  cudaGraphInstantiate(&e1, g1, 0);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  two();
  cudaStreamEndCapture(s, &g2);
  cudaGraphInstantiate(&e2, g2, 0);
  auto graph1 = [&] { cudaGraphLaunch(e1, s); };
  auto graph2 = [&] { cudaGraphLaunch(e2, s); };
  int capturing = 0;
  cudaStreamCaptureStatus st;
  auto query = [&] { cudaStreamIsCapturing(s, &st); capturing += st; };
  for (int rep = 0; rep < 2; ++rep) {
    printf("launch <<<8,128>>> (no cluster): %.2f us\n", perLaunchUs(classic, s));
    printf("cudaLaunchKernelEx, cluster 8:   %.2f us\n", perLaunchUs(one, s));
    printf("two cudaLaunchKernelEx (2nd PDL): %.2f us\n", perLaunchUs(two, s));
    printf("cudaGraphLaunch, 1 node:         %.2f us\n", perLaunchUs(graph1, s));
    printf("cudaGraphLaunch, 2 nodes:        %.2f us\n", perLaunchUs(graph2, s));
    printf("cudaStreamIsCapturing:           %.3f us\n", perLaunchUs(query, s));
  }
  cudaError_t err = cudaDeviceSynchronize();
  printf("status: %s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
