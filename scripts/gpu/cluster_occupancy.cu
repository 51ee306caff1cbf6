// Co-resident clusters per cluster size on the GPU at hand, the figure the
// cost model's wave term needs (GpuTarget::getMaxActiveClusters). For each
// cluster size 1, 2, 3, 4, 6, 8, 12, 16 and one CTA per SM (200 KB of
// dynamic shared memory), prints cudaOccupancyMaxActiveClusters and, from one launch of
// that many clusters that all spin until every CTA has arrived (so they
// are co-resident), how many distinct SMs they occupied.
//
//   nvcc -arch=sm_90a -o /tmp/cluster_occupancy scripts/gpu/cluster_occupancy.cu
//   /tmp/cluster_occupancy
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void recordSm(int *smOf, unsigned *arrived, unsigned total) {
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    smOf[blockIdx.x] = int(sm);
    atomicAdd(arrived, 1u);
    // Every CTA waits for all: the launch only finishes if the grid was
    // co-resident, which is what max active clusters promises.
    while (atomicAdd(arrived, 0u) < total)
      __nanosleep(100);
  }
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const int smem = 200 * 1024;
  CK(cudaFuncSetAttribute(recordSm, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          smem));
  CK(cudaFuncSetAttribute(recordSm,
                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::printf("cluster | max active clusters | CTAs | SMs used\n");
  for (int cs : {1, 2, 3, 4, 6, 8, 12, 16}) {
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cs;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(128);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(cs);
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, recordSm, &cfg));
    int ctas = clusters * cs;
    int *smOf;
    unsigned *arrived;
    CK(cudaMalloc(&smOf, ctas * sizeof(int)));
    CK(cudaMalloc(&arrived, sizeof(unsigned)));
    CK(cudaMemset(arrived, 0, sizeof(unsigned)));
    cfg.gridDim = dim3(ctas);
    CK(cudaLaunchKernelEx(&cfg, recordSm, smOf, arrived, unsigned(ctas)));
    CK(cudaDeviceSynchronize());
    std::vector<int> h(ctas);
    CK(cudaMemcpy(h.data(), smOf, ctas * sizeof(int), cudaMemcpyDeviceToHost));
    std::set<int> used(h.begin(), h.end());
    std::printf("%7d | %19d | %4d | %8zu\n", cs, clusters, ctas, used.size());
    CK(cudaFree(smOf));
    CK(cudaFree(arrived));
  }
  return 0;
}
