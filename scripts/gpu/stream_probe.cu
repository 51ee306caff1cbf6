// stream_probe.cu - how fast can a TMA ring stream a weight matrix from HBM?
//
// The memory-bound sequence kernels (M = 128) stream their weights at about
// 2.3 TB/s. This probe runs only their producer side: one thread issues the
// TMA loads of a ring of stages, one warp releases each stage as soon as it
// lands, so the measured time is the memory system's alone. It compares the
// weight layouts a kernel could read:
//   nk     W[N][K] row-major, a box of 64 k x R rows (rows K * 2 bytes apart);
//   tiled  the same bytes pre-packed as [N/R][K/64][R][64], one box is one
//          contiguous R * 128-byte block;
// with and without the activation tile (L2-resident, shared by every CTA) in
// each stage, for the shapes of S1's gated and down GEMMs.
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//          stream_probe.cu -o stream_probe -lcuda

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

struct Job {
  int tiles;     // row panels, each `boxes` boxes of R rows
  int splits;    // CTAs per panel along K
  int boxes;     // weight boxes per stage (2 = gate and up)
  int rows;      // R
  int boxRowStride; // rows between a stage's boxes
  int kSteps;    // 64-wide k steps of the whole K
  int tiled;     // 0: nk 2D map; 1: 4D pre-packed map
  int withA;     // load the 128-row activation tile too
  int stages;
};

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 "
               "p, [%0], %1;\n @!p bra W;\n}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

__global__ void __launch_bounds__(64)
    streamKernel(const __grid_constant__ CUtensorMap w,
                 const __grid_constant__ CUtensorMap a, Job job) {
  extern __shared__ __align__(1024) uint8_t buf[];
  const int boxBytes = job.rows * 128;
  const int stageBytes = job.boxes * boxBytes + (job.withA ? 128 * 128 : 0);
  uint64_t *full = reinterpret_cast<uint64_t *>(buf + job.stages * stageBytes);
  uint64_t *empty = full + job.stages;
  const int tile = blockIdx.x / job.splits, split = blockIdx.x % job.splits;
  const int k0 = split * job.kSteps / job.splits;
  const int k1 = (split + 1) * job.kSteps / job.splits;
  if (threadIdx.x == 0) {
    for (int s = 0; s < job.stages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(full + s)));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(empty + s)));
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = k0, i = 0; k < k1; ++k, ++i) {
      const int s = i % job.stages;
      if (i >= job.stages)
        wait(smem(empty + s), ((i / job.stages) - 1) & 1);
      const uint32_t fb = smem(full + s);
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb),
                   "r"(stageBytes));
      uint8_t *dst = buf + s * stageBytes;
      for (int b = 0; b < job.boxes; ++b) {
        const int row = tile * job.rows + b * job.boxRowStride;
        if (job.tiled)
          asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                       "complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(
                           smem(dst + b * boxBytes)),
                       "l"(&w), "r"(0), "r"(0), "r"(k), "r"(row / job.rows), "r"(fb)
                       : "memory");
        else
          asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                       "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                           smem(dst + b * boxBytes)),
                       "l"(&w), "r"(k * 64), "r"(row), "r"(fb)
                       : "memory");
      }
      if (job.withA)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                         smem(dst + job.boxes * boxBytes)),
                     "l"(&a), "r"(k * 64), "r"(0), "r"(fb)
                     : "memory");
    }
  } else if (threadIdx.x == 32) {
    for (int k = k0, i = 0; k < k1; ++k, ++i) {
      const int s = i % job.stages;
      wait(smem(full + s), (i / job.stages) & 1);
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(empty + s))
                   : "memory");
    }
  }
}

// The same bytes without TMA tensor boxes: plain 16-byte loads (grid
// stride), and 1-D bulk copies (cp.async.bulk) of contiguous 32 KiB chunks
// through a ring, one CTA per SM.
__global__ void __launch_bounds__(512)
    ldgKernel(const int4 *w, size_t n16, int *sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16;
       i += size_t(gridDim.x) * blockDim.x) {
    int4 v = __ldcs(w + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff)
    *sink = acc;
}

__global__ void __launch_bounds__(64)
    bulkKernel(const uint8_t *w, size_t bytes, int stages) {
  extern __shared__ __align__(1024) uint8_t buf[];
  constexpr int chunk = 32768;
  uint64_t *full = reinterpret_cast<uint64_t *>(buf + stages * chunk);
  uint64_t *empty = full + stages;
  const size_t chunks = bytes / chunk;
  const size_t c0 = blockIdx.x * chunks / gridDim.x;
  const size_t c1 = (blockIdx.x + 1) * chunks / gridDim.x;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(full + s)));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(empty + s)));
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (size_t c = c0, i = 0; c < c1; ++c, ++i) {
      const int s = int(i % stages);
      if (i >= size_t(stages))
        wait(smem(empty + s), ((i / stages) - 1) & 1);
      const uint32_t fb = smem(full + s);
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb),
                   "r"(chunk));
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
                   "bytes [%0], [%1], %2, [%3];" ::"r"(smem(buf + s * chunk)),
                   "l"(w + c * chunk), "r"(chunk), "r"(fb)
                   : "memory");
    }
  } else if (threadIdx.x == 32) {
    for (size_t c = c0, i = 0; c < c1; ++c, ++i) {
      const int s = int(i % stages);
      wait(smem(full + s), (i / stages) & 1);
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(empty + s))
                   : "memory");
    }
  }
}

static CUtensorMap encode(void *base, int rank, const cuuint64_t *dims,
                          const cuuint64_t *strides, const cuuint32_t *box,
                          CUtensorMapL2promotion promo) {
  CUtensorMap m;
  cuuint32_t elem[4] = {1, 1, 1, 1};
  CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, rank, base,
                            dims, strides, box, elem,
                            CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, promo,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return m;
}

int main() {
  const int n = 8192, k = 3072; // S1: gate and up are n x k, down is k x n
  void *w;
  void *act;
  const size_t wBytes = size_t(2) * n * k * 2; // gate + up (= 2 x down)
  CK(cudaMalloc(&w, wBytes));
  CK(cudaMemset(w, 1, wBytes));
  CK(cudaMalloc(&act, size_t(128) * n * 2));
  CK(cudaMemset(act, 1, size_t(128) * n * 2));
  CK(cudaFuncSetAttribute(streamKernel,
                          cudaFuncAttributeMaxDynamicSharedMemorySize, 232448));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // Median of 20 timed launches after 3 warm-up ones, in microseconds.
  auto medianUs = [&](auto launch) {
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
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
  };
  std::printf("%-6s %-6s %-5s %-4s %-7s %-6s %-9s %-8s\n", "shape", "layout",
              "A", "ctas", "stages", "promo", "us", "W TB/s");
  struct Shape {
    const char *name;
    int rowsTotal, kTotal, tiles, splits, boxes, rows, stages;
  };
  // gated: 2 x (8192 x 3072), 128 panels of 64 rows, both weights per stage.
  // down: 3072 x 8192, 24 panels of 128 rows, split K 4 or 5.
  const Shape shapes[] = {{"gated", 2 * n, k, 128, 1, 2, 64, 7},
                          {"gated", 2 * n, k, 128, 1, 2, 64, 4},
                          {"down4", k, n, 24, 4, 1, 128, 4},
                          {"down5", k, n, 24, 5, 1, 128, 4},
                          {"down11", k, n, 24, 11, 1, 128, 4},
                          {"gat128", 2 * n, k, 128, 1, 1, 128, 7},
                          {"flat", 2 * n, k, 264, 1, 1, 64, 6}};
  for (const Shape &sh : shapes)
    for (int tiled = 0; tiled < 2; ++tiled)
      for (int withA = 0; withA < 2; ++withA)
        for (int p = 0; p < 2; ++p) {
          if (tiled && p == 0)
            continue; // promotion only matters for the strided layout
          CUtensorMapL2promotion promo = p ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                           : CU_TENSOR_MAP_L2_PROMOTION_NONE;
          CUtensorMap wm, am;
          if (tiled) {
            cuuint64_t dims[4] = {64, cuuint64_t(sh.rows),
                                  cuuint64_t(sh.kTotal / 64),
                                  cuuint64_t(sh.rowsTotal / sh.rows)};
            cuuint64_t strides[3] = {128, cuuint64_t(sh.rows) * 128,
                                     cuuint64_t(sh.rows) * sh.kTotal * 2};
            cuuint32_t box[4] = {64, cuuint32_t(sh.rows), 1, 1};
            wm = encode(w, 4, dims, strides, box, promo);
          } else {
            cuuint64_t dims[2] = {cuuint64_t(sh.kTotal),
                                  cuuint64_t(sh.rowsTotal)};
            cuuint64_t strides[1] = {cuuint64_t(sh.kTotal) * 2};
            cuuint32_t box[2] = {64, cuuint32_t(sh.rows)};
            wm = encode(w, 2, dims, strides, box, promo);
          }
          {
            cuuint64_t dims[2] = {cuuint64_t(sh.kTotal), 128};
            cuuint64_t strides[1] = {cuuint64_t(sh.kTotal) * 2};
            cuuint32_t box[2] = {64, 128};
            am = encode(act, 2, dims, strides, box,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
          }
          Job job{sh.tiles, sh.splits, sh.boxes, sh.rows,
                  sh.rowsTotal / sh.boxes, sh.kTotal / 64, tiled, withA,
                  sh.stages};
          const int stageBytes =
              sh.boxes * sh.rows * 128 + (withA ? 128 * 128 : 0);
          const int smemBytes = sh.stages * stageBytes + 2 * 8 * sh.stages;
          if (smemBytes > 232448)
            continue;
          const int ctas = sh.tiles * sh.splits;
          const float us = medianUs(
              [&] { streamKernel<<<ctas, 64, smemBytes>>>(wm, am, job); });
          const double bytes = double(sh.rowsTotal) * sh.kTotal * 2;
          std::printf("%-6s %-6s %-5s %-4d %-7d %-6s %-9.2f %-8.3f\n", sh.name,
                      tiled ? "tiled" : "nk", withA ? "yes" : "no", ctas,
                      sh.stages, p ? "256B" : "none", us, bytes / us * 1e-6);
        }
  // Reference streams of the gated weights' bytes.
  auto timeIt = [&](const char *name, auto launch) {
    const float us = medianUs(launch);
    std::printf("%-28s %-9.2f %-8.3f\n", name, us, wBytes / us * 1e-6);
  };
  int *sink;
  CK(cudaMalloc(&sink, 4));
  for (int per : {4, 8, 16})
    timeIt(per == 4 ? "ldg.v4 132x4 CTAs of 512"
                    : per == 8 ? "ldg.v4 132x8 CTAs of 512"
                               : "ldg.v4 132x16 CTAs of 512",
           [&] {
             ldgKernel<<<132 * per, 512>>>(static_cast<const int4 *>(w),
                                           wBytes / 16, sink);
           });
  CK(cudaFuncSetAttribute(bulkKernel,
                          cudaFuncAttributeMaxDynamicSharedMemorySize, 232448));
  for (int stages : {3, 6})
    timeIt(stages == 3 ? "bulk 1-D 32 KiB x3, 132 CTAs"
                       : "bulk 1-D 32 KiB x6, 132 CTAs",
           [&] {
             bulkKernel<<<132, 64, stages * 32768 + 16 * stages>>>(
                 static_cast<const uint8_t *>(w), wBytes, stages);
           });
  return 0;
}
