// dsm_bench.cu - distributed shared memory microbenchmark (FlashFuser Fig. 4 /
// Fig. 13 style) for Hopper thread-block clusters of 2, 4, 8 and 16 CTAs.
//
// Measures, per cluster size:
//   - remote smem bandwidth of ld.shared::cluster, st.shared::cluster and
//     cp.async.bulk.shared::cluster.shared::cta (one full wave of clusters,
//     GPU-wide aggregate and per CTA);
//   - remote smem latency (pointer chase with dependent ld.shared::cluster,
//     rank 0 chasing in every peer; local smem for comparison);
//   - the dsm_comm collectives on a 32 KiB tile per CTA: all-exchange (every
//     CTA reads every peer's tile), shuffle (CTA r reads slice r of every
//     peer: the all-to-all re-partition) and reduce-scatter (CTA r sums
//     slice r over the cluster), each followed by a cluster barrier.
// Writes the cost model's calibration JSON to argv[1] (default
// dsm_calibration.json) and prints a table.
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//          dsm_bench.cu -o dsm_bench

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.h"

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t mapa(uint32_t a, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(r)
               : "r"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ uint4 ldCluster(uint32_t a) {
  uint4 v;
  asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(a)
               : "memory");
  return v;
}
__device__ __forceinline__ float4 ldClusterF4(uint32_t a) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(a)
               : "memory");
  return v;
}
__device__ __forceinline__ uint32_t ldClusterU32(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];"
               : "=r"(v)
               : "r"(a)
               : "memory");
  return v;
}
__device__ __forceinline__ void stCluster(uint32_t a, uint4 v) {
  asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a),
               "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}
__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t clusterSize() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
  return r;
}
/// Non-.aligned form: some kernels reach it right after a single-thread
/// section, and .aligned requires the whole warp to execute it together.
__device__ __forceinline__ void clusterSync() {
  __syncwarp();
  asm volatile("barrier.cluster.arrive;\n\t"
               "barrier.cluster.wait;" ::
                   : "memory");
}

extern __shared__ __align__(1024) uint8_t dsmem[];

/// mode 0: ld.shared::cluster from the next rank; 1: st.shared::cluster to
/// it; 2: ld.shared::cluster of the CTA's own smem (local baseline).
__global__ void pairwiseKernel(int mode, int iters, int bytes,
                               unsigned long long *sink) {
  uint32_t rank = clusterRank(), n = clusterSize();
  for (int i = threadIdx.x * 16; i < bytes; i += blockDim.x * 16)
    *reinterpret_cast<uint4 *>(dsmem + i) = make_uint4(i, rank, i ^ rank, 1);
  clusterSync();
  uint32_t peer = mode == 2 ? rank : (rank + 1) % n;
  uint32_t base = mapa(smemAddr(dsmem), peer);
  uint4 acc = make_uint4(0, 0, 0, 0);
  int vecs = bytes / 16;
  for (int it = 0; it < iters; ++it) {
#pragma unroll 4
    for (int v = threadIdx.x; v < vecs; v += blockDim.x) {
      uint32_t a = base + uint32_t(v) * 16;
      if (mode == 1) {
        stCluster(a, make_uint4(it, v, rank, 0));
      } else {
        uint4 x = ldCluster(a);
        acc.x ^= x.x;
        acc.y ^= x.y;
        acc.z ^= x.z;
        acc.w ^= x.w;
      }
    }
  }
  clusterSync();
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
    sink[0] = acc.x;
}

/// Rank 0's thread 0 chases a chain of dependent loads through every rank's
/// smem; cycles[peer] = total cycles for `steps` loads.
__global__ void chaseKernel(int steps, int words, long long *cycles,
                            unsigned long long *sink) {
  uint32_t *buf = reinterpret_cast<uint32_t *>(dsmem);
  uint32_t rank = clusterRank(), n = clusterSize();
  // Stride of 33 words walks all banks and defeats nothing but keeps every
  // step dependent on the last.
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    buf[i] = uint32_t((i + 33) % words);
  clusterSync();
  if (rank == 0 && threadIdx.x == 0) {
    uint32_t idx = 0;
    for (uint32_t peer = 0; peer < n; ++peer) {
      uint32_t base = mapa(smemAddr(buf), peer);
      for (int s = 0; s < 64; ++s)
        idx = ldClusterU32(base + idx * 4);
      long long t0 = clock64();
      for (int s = 0; s < steps; ++s)
        idx = ldClusterU32(base + idx * 4);
      long long t1 = clock64();
      cycles[peer] = t1 - t0;
    }
    sink[1] = idx;
  }
  clusterSync();
}

/// Pairwise cp.async.bulk exchange: every CTA sends `chunks` x `chunkBytes`
/// per iteration into the receive buffer of its partner rank + n/2 (an
/// involution, so each CTA's sender is also its receiver), completing on the
/// partner's mbarrier. Double buffering plus that mutual dependency keep a
/// copy of iteration i + 2 from landing in the phase of iteration i; a ring
/// (rank + 1) has no such flow control and deadlocks once a sender runs two
/// iterations ahead.
__global__ void bulkKernel(int iters, int chunkBytes, int chunks,
                           unsigned long long *sink) {
  __shared__ __align__(8) uint64_t bar[2];
  uint32_t rank = clusterRank(), n = clusterSize();
  int total = chunkBytes * chunks;
  uint8_t *src = dsmem;
  uint8_t *recv = dsmem + total; // 2 x total
  for (int i = threadIdx.x * 16; i < total; i += blockDim.x * 16)
    *reinterpret_cast<uint4 *>(src + i) = make_uint4(i, rank, 7, 9);
  if (threadIdx.x == 0) {
    for (int b = 0; b < 2; ++b)
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(&bar[b]))
          : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  clusterSync();
  if (threadIdx.x == 0) {
    uint32_t peer = (rank + n / 2) % n;
    uint32_t myBar[2] = {smemAddr(&bar[0]), smemAddr(&bar[1])};
    uint32_t peerBar[2] = {mapa(myBar[0], peer), mapa(myBar[1], peer)};
    uint32_t peerRecv[2] = {mapa(smemAddr(recv), peer),
                            mapa(smemAddr(recv + total), peer)};
    uint32_t srcAddr = smemAddr(src);
    for (int it = 0; it < iters; ++it) {
      int b = it & 1;
      uint32_t parity = uint32_t(it >> 1) & 1;
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
              myBar[b]),
          "r"(total)
          : "memory");
      for (int c = 0; c < chunks; ++c)
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
                     "complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         peerRecv[b] + uint32_t(c * chunkBytes)),
                     "r"(srcAddr + uint32_t(c * chunkBytes)), "r"(chunkBytes),
                     "r"(peerBar[b])
                     : "memory");
      uint32_t done = 0;
      while (!done)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(myBar[b]), "r"(parity)
                     : "memory");
    }
  }
  clusterSync();
  if (threadIdx.x == 0 && recv[0] == 0xab && recv[1] == 0xcd)
    sink[2] = recv[2];
}

/// kind 0 all-exchange, 1 shuffle (all-to-all of slices), 2 reduce-scatter
/// (fp32 sum of slice `rank` over the cluster). One cluster barrier per op.
__global__ void collectiveKernel(int kind, int iters, int tileBytes,
                                 unsigned long long *sink) {
  uint32_t rank = clusterRank(), n = clusterSize();
  uint8_t *tile = dsmem, *out = dsmem + tileBytes;
  for (int i = threadIdx.x * 16; i < tileBytes; i += blockDim.x * 16) {
    float4 f = make_float4(float(i & 255), float(rank), 1.f, 0.5f);
    *reinterpret_cast<float4 *>(tile + i) = f;
  }
  clusterSync();
  uint32_t local = smemAddr(tile);
  int slice = tileBytes / int(n);
  float4 acc = make_float4(0, 0, 0, 0);
  for (int it = 0; it < iters; ++it) {
    if (kind == 0) {
      for (uint32_t p = 1; p < n; ++p) {
        uint32_t base = mapa(local, (rank + p) % n);
        for (int v = threadIdx.x; v < tileBytes / 16; v += blockDim.x) {
          float4 x = ldClusterF4(base + uint32_t(v) * 16);
          acc.x += x.x;
          acc.y += x.y;
          acc.z += x.z;
          acc.w += x.w;
        }
      }
    } else if (kind == 1) {
      for (uint32_t p = 1; p < n; ++p) {
        uint32_t peer = (rank + p) % n;
        uint32_t base = mapa(local, peer) + rank * uint32_t(slice);
        for (int v = threadIdx.x; v < slice / 16; v += blockDim.x) {
          float4 x = ldClusterF4(base + uint32_t(v) * 16);
          *reinterpret_cast<float4 *>(out + peer * slice + v * 16) = x;
        }
      }
    } else {
      for (int v = threadIdx.x; v < slice / 16; v += blockDim.x) {
        float4 s = make_float4(0, 0, 0, 0);
        for (uint32_t p = 0; p < n; ++p) {
          uint32_t base = mapa(local, (rank + p) % n) + rank * uint32_t(slice);
          float4 x = ldClusterF4(base + uint32_t(v) * 16);
          s.x += x.x;
          s.y += x.y;
          s.z += x.z;
          s.w += x.w;
        }
        *reinterpret_cast<float4 *>(out + rank * slice + v * 16) = s;
      }
    }
    clusterSync();
  }
  if (acc.x == -1.f)
    sink[3] = uint64_t(acc.y + acc.z + acc.w + float(out[0]));
}

struct Launch {
  int clusterSize, threads, smem, clusters;
};

template <typename Kernel, typename... Args>
float timeLaunch(Kernel kernel, Launch &l, bool occupancyGrid, Args... args) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          l.smem));
  if (l.clusterSize > 8)
    CK(cudaFuncSetAttribute(kernel,
                            cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = l.clusterSize;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.blockDim = dim3(l.threads);
  cfg.dynamicSmemBytes = l.smem;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cfg.gridDim = dim3(l.clusterSize);
  if (occupancyGrid) {
    int maxClusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&maxClusters, kernel, &cfg));
    l.clusters = maxClusters;
    if (maxClusters < 1) {
      std::fprintf(stderr, "cluster size %d cannot be scheduled\n",
                   l.clusterSize);
      std::exit(1);
    }
    cfg.gridDim = dim3(l.clusterSize * maxClusters);
  } else {
    l.clusters = 1;
  }
  CK(cudaLaunchKernelEx(&cfg, kernel, args...)); // warm-up
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> samples;
  for (int rep = 0; rep < 5; ++rep) {
    CK(cudaEventRecord(e0));
    CK(cudaLaunchKernelEx(&cfg, kernel, args...));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    samples.push_back(ms);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "dsm_calibration.json";
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int clockKhz = 0;
  CK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
  std::printf("device: %s, %d SMs, sm_%d%d, clock %d MHz\n", prop.name,
              prop.multiProcessorCount, prop.major, prop.minor,
              clockKhz / 1000);
  unsigned long long *sink;
  long long *cycles;
  CK(cudaMalloc(&sink, 64));
  CK(cudaMalloc(&cycles, 64 * sizeof(long long)));

  const int bwBytes = 64 * 1024, bwIters = 400, threads = 512;
  const int chaseSteps = 2048, chaseWords = 8192;
  const int tileBytes = 32 * 1024, collIters = 400;
  const int chunkBytes = 8192, chunks = 4, bulkIters = 2000;

  // Local smem baseline, in clusters of 2 (rank reads its own smem).
  Launch base{2, threads, bwBytes, 0};
  float msLocal =
      timeLaunch(pairwiseKernel, base, true, 2, bwIters, bwBytes, sink);
  double localGbps = double(base.clusters) * 2 * bwIters * double(bwBytes) /
                     (msLocal * 1e-3) / 1e9;

  std::string dsmJson, collJson[3];
  const char *collNames[3] = {"all_exchange", "shuffle", "reduce_scatter"};
  double localLatency = 0;
  std::printf("\n%-8s %6s %12s %12s %12s %12s %14s %14s\n", "cluster", "CTAs",
              "ld GB/s", "st GB/s", "bulk GB/s", "per-CTA ld", "remote lat",
              "local lat");
  for (int c : {2, 4, 8, 16}) {
    std::fprintf(stderr, "[cluster %d] ld/st\n", c);
    Launch l{c, threads, bwBytes, 0};
    float msLd = timeLaunch(pairwiseKernel, l, true, 0, bwIters, bwBytes, sink);
    int ctas = l.clusters * c;
    double ldGbps =
        double(ctas) * bwIters * double(bwBytes) / (msLd * 1e-3) / 1e9;
    float msSt = timeLaunch(pairwiseKernel, l, true, 1, bwIters, bwBytes, sink);
    double stGbps =
        double(ctas) * bwIters * double(bwBytes) / (msSt * 1e-3) / 1e9;
    std::fprintf(stderr, "[cluster %d] bulk\n", c);
    Launch lb{c, 128, 3 * chunkBytes * chunks, 0};
    float msBulk =
        timeLaunch(bulkKernel, lb, true, bulkIters, chunkBytes, chunks, sink);
    double bulkGbps = double(lb.clusters * c) * bulkIters *
                      double(chunkBytes * chunks) / (msBulk * 1e-3) / 1e9;
    std::fprintf(stderr, "[cluster %d] chase\n", c);
    Launch lc{c, 128, chaseWords * 4, 0};
    timeLaunch(chaseKernel, lc, false, chaseSteps, chaseWords, cycles, sink);
    std::vector<long long> cyc(c);
    CK(cudaMemcpy(cyc.data(), cycles, c * sizeof(long long),
                  cudaMemcpyDeviceToHost));
    double remote = 0;
    for (int p = 1; p < c; ++p)
      remote += double(cyc[p]) / chaseSteps;
    remote /= (c - 1);
    double local = double(cyc[0]) / chaseSteps;
    localLatency = local;
    double best = std::max(ldGbps, std::max(stGbps, bulkGbps));
    std::printf("%-8d %6d %12.0f %12.0f %12.0f %12.1f %14.1f %14.1f\n", c, ctas,
                ldGbps, stGbps, bulkGbps, ldGbps / ctas, remote, local);
    char buf[512];
    std::snprintf(buf, sizeof(buf),
                  "%s    {\"cluster\": %d, \"bandwidth_gbps\": %.0f, "
                  "\"latency_cycles\": %.0f, \"ld_gbps\": %.0f, \"st_gbps\": "
                  "%.0f, \"bulk_gbps\": %.0f, \"ld_gbps_per_cta\": %.1f, "
                  "\"ctas\": %d}",
                  dsmJson.empty() ? "" : ",\n", c, best, remote, ldGbps, stGbps,
                  bulkGbps, ldGbps / ctas, ctas);
    dsmJson += buf;
    for (int kind = 0; kind < 3; ++kind) {
      std::fprintf(stderr, "[cluster %d] %s\n", c, collNames[kind]);
      Launch lk{c, 256, 2 * tileBytes, 0};
      float ms = timeLaunch(collectiveKernel, lk, true, kind, collIters,
                            tileBytes, sink);
      double opNs = ms * 1e6 / collIters;
      // Remote bytes each cluster moves per op.
      double bytes = kind == 0 ? double(c) * (c - 1) * tileBytes
                               : double(c - 1) * tileBytes;
      double gbps = bytes * lk.clusters / (opNs * 1e-9) / 1e9;
      std::snprintf(buf, sizeof(buf),
                    "%s      {\"cluster\": %d, \"tile_bytes\": %d, "
                    "\"time_ns\": %.0f, \"remote_bytes\": %.0f, "
                    "\"aggregate_gbps\": %.0f}",
                    collJson[kind].empty() ? "" : ",\n", c, tileBytes, opNs,
                    bytes, gbps);
      collJson[kind] += buf;
      std::printf("    %-15s cluster %2d: %8.0f ns/op, %8.0f GB/s aggregate\n",
                  collNames[kind], c, opNs, gbps);
    }
  }
  std::printf("local smem: %.0f GB/s aggregate (%.1f per CTA), %.1f cycles\n",
              localGbps, localGbps / (base.clusters * 2), localLatency);

  FILE *f = std::fopen(outPath, "w");
  if (!f) {
    std::perror(outPath);
    return 1;
  }
  std::fprintf(f,
               "{\n  \"target\": \"%s\",\n  \"sms\": %d,\n  \"clock_mhz\": "
               "%d,\n  \"method\": \"scripts/gpu/dsm_bench.cu; bandwidth is "
               "GPU-wide aggregate over one wave of clusters (best of "
               "ld/st.shared::cluster and cp.async.bulk), latency is a "
               "dependent ld.shared::cluster chase in cycles\",\n"
               "  \"dsm\": [\n%s\n  ],\n"
               "  \"local_smem\": {\"bandwidth_gbps\": %.0f, "
               "\"latency_cycles\": %.0f},\n"
               "  \"collectives\": {\n",
               prop.name, prop.multiProcessorCount, clockKhz / 1000,
               dsmJson.c_str(), localGbps, localLatency);
  for (int k = 0; k < 3; ++k)
    std::fprintf(f, "    \"%s\": [\n%s\n    ]%s\n", collNames[k],
                 collJson[k].c_str(), k < 2 ? "," : "");
  std::fprintf(f, "  }\n}\n");
  std::fclose(f);
  std::printf("wrote %s\n", outPath);
  return 0;
}
