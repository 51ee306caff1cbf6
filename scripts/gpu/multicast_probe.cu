// multicast_probe.cu - does TMA multicast cut the L2 bytes of a shared tile?
//
// Our swapped 64-row down GEMMs read as many L2 bytes with the token tile
// multicast in clusters of 4 as without (ncu lts__t_bytes), while cuBLAS's
// tst_64x88 4x1 kernel reads 0.55x (docs/benchmarks/ncu-h200-s58-s6-down.md).
// This probe runs only the producer side of such a ring (one thread issues
// the loads, one warp releases each stage in every CTA that loads into it)
// over S6's and S2's down GEMMs (a 64-row weight tile per CTA, a token
// tile shared along the cluster), so the memory system's behaviour is all
// that is measured. The token tile is loaded
//   uni    by every CTA itself (no sharing);
//   rot    whole, multicast by rank k mod C at k step k (ours);
//   rank0  whole, multicast by rank 0 at every k step;
//   slice  in C slices of tokens / C rows, each rank multicasting its own
//          at every k step (cuBLAS's SASS: UTMALDG.3D.MULTICAST per CTA);
// in four tile orders along the clusters (mcKernel), the peers' stages
// released from one thread or from C lanes at once. It also finds which
// SMs share a GPC (gpcOfSm) and, with "once", writes where each cluster
// ran (placement.txt: GPC/token tile/weight group per cluster).
// Findings: docs/benchmarks/multicast-probe-h200-s59.md.
// Usage: multicast_probe [once]   ("once": one launch per case, for ncu)
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//          multicast_probe.cu -o multicast_probe -lcuda

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.h"

enum Mode { Uni = 0, Rot = 1, Rank0 = 2, Slice = 3 };
static const char *modeName[] = {"uni", "rot", "rank0", "slice"};

struct Job {
  int tokTiles; // token tiles (grid = tokTiles x weight tiles)
  int tok;      // token rows per tile
  int cluster;  // CTAs per cluster, along the weight rows
  int kSteps;   // 64-wide k steps
  int stages;
  int order;    // the tile order (mcKernel)
  int parallel; // consumers release the peers' stages from C lanes at once
  int *where;   // if set: each CTA's SM id, token tile and weight tile
};

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 "
      "p, [%0], %1;\n @!p bra W;\n}" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void clusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

template <int M>
__global__ void __launch_bounds__(64)
    mcKernel(const __grid_constant__ CUtensorMap w,
             const __grid_constant__ CUtensorMap x,
             const __grid_constant__ CUtensorMap xs, Job job) {
  extern __shared__ __align__(1024) uint8_t buf[];
  const int C = job.cluster;
  const int tokBytes = job.tok * 128;
  // Each stage: the 64-row weight box, then the token tile (1024-aligned).
  const int stageBytes = (8192 + tokBytes + 1023) / 1024 * 1024;
  uint64_t *full = reinterpret_cast<uint64_t *>(buf + job.stages * stageBytes);
  uint64_t *empty = full + job.stages;
  uint32_t rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  // The cluster's place in the tile order: its dispatch index, or with
  // order >= 2 the index transposed over the GPCs (clusters j and j + 8
  // are dispatched to the same one of the 8, so each GPC takes a run of
  // consecutive places). Places map to tiles token tile fastest (orders
  // 0, 2) or weight group fastest (1, 3).
  const int clusters = gridDim.x / C;
  int place = blockIdx.x / C;
  if (job.order >= 2) {
    const int gpcs = 8, runs = (clusters + gpcs - 1) / gpcs;
    const int rem = clusters % gpcs ? clusters % gpcs : gpcs;
    const int g = place % gpcs, r = place / gpcs;
    place = g * (runs - 1) + min(g, rem) + r;
  }
  const int groups = clusters / job.tokTiles;
  const bool wFast = job.order & 1;
  const int tokTile = wFast ? place / groups : place % job.tokTiles;
  const int wTile = (wFast ? place % groups : place / job.tokTiles) * C + rank;
  if (job.where && threadIdx.x == 0) {
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    job.where[blockIdx.x] = sm | tokTile << 8 | wTile << 16;
  }
  const bool shared = M != Uni && C > 1;
  if (threadIdx.x == 0) {
    for (int s = 0; s < job.stages; ++s) {
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(full + s)));
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(empty + s)),
          "r"(shared ? C : 1));
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  clusterSync();
  const uint16_t mask = static_cast<uint16_t>((1u << C) - 1);
  if (threadIdx.x == 0) {
    for (int i = 0; i < job.kSteps; ++i) {
      const int s = i % job.stages;
      if (i >= job.stages)
        wait(smem(empty + s), ((i / job.stages) - 1) & 1);
      const uint32_t fb = smem(full + s);
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb),
          "r"(8192 + tokBytes)
          : "memory");
      uint8_t *dst = buf + s * stageBytes;
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
          "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(dst)),
          "l"(&w), "r"(i * 64), "r"(wTile * 64), "r"(fb)
          : "memory");
      const int row = tokTile * job.tok;
      if (!shared) {
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                         smem(dst + 8192)),
                     "l"(&x), "r"(i * 64), "r"(row), "r"(fb)
                     : "memory");
      } else if (M == Slice) {
        const int rows = job.tok / C;
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
            "complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], "
            "[%4], %5;" ::"r"(smem(dst + 8192 + rank * rows * 128)),
            "l"(&xs), "r"(i * 64), "r"(row + int(rank) * rows), "r"(fb),
            "h"(mask)
            : "memory");
      } else if ((M == Rot && int(rank) == i % C) ||
                 (M == Rank0 && rank == 0)) {
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
            "complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], "
            "[%4], %5;" ::"r"(smem(dst + 8192)),
            "l"(&x), "r"(i * 64), "r"(row), "r"(fb), "h"(mask)
            : "memory");
      }
    }
  } else if (threadIdx.x >= 32 && (job.parallel || threadIdx.x == 32)) {
    // Free the stage in every CTA that multicasts into it: one thread
    // arriving on each peer in turn, or (parallel) lane r on peer r, as
    // CUTLASS's consumer release does.
    const int lane = threadIdx.x - 32;
    for (int i = 0; i < job.kSteps; ++i) {
      const int s = i % job.stages;
      wait(smem(full + s), (i / job.stages) & 1);
      for (int r = 0; r < (shared ? C : 0); ++r) {
        if (job.parallel && r != lane)
          continue;
        uint32_t remote;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                     : "=r"(remote)
                     : "r"(smem(empty + s)), "r"(r));
        asm volatile(
            "mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote)
            : "memory");
      }
      if (!shared && lane == 0)
        asm volatile(
            "mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(empty + s))
            : "memory");
    }
  }
  __syncwarp();
  clusterSync();
}

static CUtensorMap encode(void *base, cuuint64_t inner, cuuint64_t rows,
                          cuuint32_t boxRows, CUtensorMapL2promotion promo) {
  CUtensorMap m;
  cuuint64_t dims[2] = {inner, rows};
  cuuint64_t strides[1] = {inner * 2};
  cuuint32_t box[2] = {64, boxRows};
  cuuint32_t elem[2] = {1, 1};
  CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims,
                            strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, promo,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return m;
}

// Which SMs share a GPC: every CTA of a cluster runs in one GPC, so the
// SM ids of each cluster of a launch whose clusters are all resident at
// once (each CTA spins ~20 us) join one group; launches with clusters of
// 16, 8 and 4 are unioned.
__global__ void whereKernel(int *where) {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x == 0)
    where[blockIdx.x] = sm;
  const long long t0 = clock64();
  while (clock64() - t0 < 40000)
    ;
}

// A launch of `ctas` CTAs of `threads` in 1-D clusters of `c`; `attr`
// must outlive the config.
static cudaLaunchConfig_t clusterLaunch(cudaLaunchAttribute &attr, int ctas,
                                        int threads, int smem, int c) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(ctas);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = c;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

static std::vector<int> gpcOfSm(int sms) {
  std::vector<int> parent(sms);
  for (int i = 0; i < sms; ++i)
    parent[i] = i;
  auto find = [&](int x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  int *where;
  CK(cudaMalloc(&where, 4096 * sizeof(int)));
  CK(cudaFuncSetAttribute(whereKernel,
                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (int c : {16, 8, 4, 16, 8, 4, 16, 8, 4}) {
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = clusterLaunch(attr, c, 32, 0, c);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, whereKernel, &cfg) !=
            cudaSuccess ||
        clusters == 0) {
      cudaGetLastError();
      continue;
    }
    cfg.gridDim = dim3(clusters * c);
    CK(cudaLaunchKernelEx(&cfg, whereKernel, where));
    std::vector<int> h(clusters * c);
    CK(cudaMemcpy(h.data(), where, h.size() * sizeof(int),
                  cudaMemcpyDeviceToHost));
    for (int i = 0; i < clusters * c; ++i)
      parent[find(h[i])] = find(h[i - i % c]);
  }
  CK(cudaFree(where));
  std::vector<int> gpc(sms, -1);
  std::vector<int> roots;
  for (int i = 0; i < sms; ++i) {
    int r = find(i);
    auto it = std::find(roots.begin(), roots.end(), r);
    gpc[i] = int(it - roots.begin());
    if (it == roots.end())
      roots.push_back(r);
  }
  return gpc;
}

int main(int argc, char **argv) {
  const bool once = argc > 1 && !std::strcmp(argv[1], "once");
  struct Shape {
    const char *name;
    int m, n, k, tok;
  };
  // S6's and S2's down GEMMs: tokens x weight rows x K, the token tile.
  const Shape shapes[] = {{"S6DN440", 440, 1536, 8960, 88},
                          {"S2DN300", 300, 2048, 5632, 80}};
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::vector<int> gpc = gpcOfSm(sms);
  {
    int groups = *std::max_element(gpc.begin(), gpc.end()) + 1;
    std::printf("%d SMs in %d groups:", sms, groups);
    for (int g = 0; g < groups; ++g) {
      std::printf(" [");
      for (int i = 0; i < sms; ++i)
        if (gpc[i] == g)
          std::printf("%d ", i);
      std::printf("]");
    }
    std::printf("\n");
  }
  int *where;
  CK(cudaMalloc(&where, 4096 * sizeof(int)));
  FILE *placement = once ? std::fopen("placement.txt", "w") : nullptr;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  decltype(&mcKernel<Uni>) kernels[4] = {mcKernel<Uni>, mcKernel<Rot>,
                                         mcKernel<Rank0>, mcKernel<Slice>};
  for (auto *k : kernels)
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            232448));
  std::printf("%-3s %-8s %-6s %-2s %-5s %-6s %-8s %-9s %-9s\n", "id", "shape",
              "mode", "C", "order", "par", "us", "req GB/s", "L2 MB*");
  int id = 0;
  for (const Shape &sh : shapes) {
    void *w, *x;
    CK(cudaMalloc(&w, size_t(sh.n) * sh.k * 2));
    CK(cudaMemset(w, 1, size_t(sh.n) * sh.k * 2));
    CK(cudaMalloc(&x, size_t(sh.m) * sh.k * 2));
    CK(cudaMemset(x, 1, size_t(sh.m) * sh.k * 2));
    const int tokTiles = (sh.m + sh.tok - 1) / sh.tok;
    for (int p = 1; p >= 1; --p) { // 256B promotion (none: no change)
      CUtensorMapL2promotion promo = p ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                       : CU_TENSOR_MAP_L2_PROMOTION_NONE;
      CUtensorMap wm = encode(w, sh.k, sh.n, 64, promo);
      CUtensorMap xm = encode(x, sh.k, sh.m, sh.tok, promo);
      for (int c : {1, 2, 4})
        for (int mode = 0; mode < 4; ++mode)
          for (int order = 0; order < 4; ++order)
            for (int par = 0; par < 2; ++par) {
              if (par && (mode == Uni || order))
                continue;
              if (order && mode != Uni && mode != Rot)
                continue;
              if ((c == 1) != (mode == Uni))
                continue;
              if (mode == Slice && sh.tok % c)
                continue;
              CUtensorMap xsm = encode(x, sh.k, sh.m, sh.tok / c, promo);
              Job job{tokTiles, sh.tok, c, sh.k / 64, 8, order, par, nullptr};
              const int stageBytes = (8192 + sh.tok * 128 + 1023) / 1024 * 1024;
              const int smemBytes = job.stages * stageBytes + 16 * job.stages;
              const int ctas = tokTiles * (sh.n / 64);
              cudaLaunchAttribute attr;
              cudaLaunchConfig_t cfg =
                  clusterLaunch(attr, ctas, 64, smemBytes, c);
              auto launch = [&] {
                CK(cudaLaunchKernelEx(&cfg, kernels[mode], wm, xm, xsm, job));
              };
              // What the CTAs ask of L2 if a multicast is served once.
              const double shareTok = mode == Uni ? 1.0 : 1.0 / c;
              const double l2 =
                  double(ctas) * job.kSteps * (8192 + sh.tok * 128 * shareTok);
              const double req =
                  double(ctas) * job.kSteps * (8192 + sh.tok * 128);
              float us = 0;
              if (once) {
                job.where = where;
                launch();
                CK(cudaDeviceSynchronize());
                std::vector<int> h(ctas);
                CK(cudaMemcpy(h.data(), where, ctas * sizeof(int),
                              cudaMemcpyDeviceToHost));
                // Per cluster: its GPC, token tile and weight group.
                std::fprintf(placement, "%d %s %s c%d o%d:", id, sh.name,
                             modeName[mode], c, order);
                for (int cl = 0; cl < ctas / c; ++cl) {
                  const int v = h[cl * c];
                  std::fprintf(placement, " %d/%d/%d", gpc[v & 255],
                               v >> 8 & 255, (v >> 16) / c);
                }
                std::fprintf(placement, "\n");
              } else {
                std::vector<float> ts;
                for (int r = 0; r < 23; ++r) {
                  CK(cudaEventRecord(e0));
                  launch();
                  CK(cudaEventRecord(e1));
                  CK(cudaEventSynchronize(e1));
                  float ms;
                  CK(cudaEventElapsedTime(&ms, e0, e1));
                  if (r >= 3)
                    ts.push_back(ms * 1e3f);
                }
                std::sort(ts.begin(), ts.end());
                us = ts[ts.size() / 2];
              }
              CK(cudaGetLastError());
              std::printf(
                  "%-3d %-8s %-6s %-2d %-5d %-6s %-8.2f %-9.0f %-9.1f\n", id++,
                  sh.name, modeName[mode], c, order, par ? "par" : "one", us,
                  once ? 0.0 : req / us * 1e-3, l2 * 1e-6);
            }
    }
    CK(cudaFree(w));
    CK(cudaFree(x));
  }
  if (placement)
    std::fclose(placement);
  std::printf("* L2 MB: the bytes the CTAs ask of L2 when a multicast is "
              "read once\n");
  return 0;
}
