// Weight-stream probe: how fast can TMA stream a K-major bf16 weight matrix
// W[N, K] from HBM into shared memory, by access pattern? No math: one
// producer thread issues the boxes of each ring stage, one consumer thread
// waits for the stage and frees it. The CTA grid is that of our M = 128
// down GEMMs (rows_per_cta rows of W over K / splits). Every rep runs after
// a 512 MiB memset, so W comes from HBM (cold L2). Prints one row per
// pattern: median us, GB/s of W, and the read and copy ceilings measured in
// the same process.
//
// scripts/gpu/stream_probe.cu (twenty-ninth session, H100) compared weight
// layouts and box shapes with consumers that free a slot at once; this one
// varies the request order (a box's k tiles back to back, ring steps in
// pairs), the L2 policy of the weight loads and the consumer (holding a
// stage until the next one landed, as our kernels do).
//
//   nvcc -O3 -arch=sm_90a -o streamprobe streamprobe.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                        \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct Params {
  int rowsPerCta, nBlocks, kcPerCta; // kc: 64-element k chunks (128 B)
  int stageRows, stageKc;            // one ring stage of W
  int boxRows, boxKc;                // one TMA request (boxKc > 1: 3-d map)
  int stages;
  int rowsOuter; // walk a CTA's row groups outermost (long runs per row)
  int withA;     // also load A[128, 64-k] per stage (L2 resident)
  int evictFirst;
  int group; // the producer waits for `group` free slots, then fills them
  int pairIl; // steps in pairs, each row box's two k chunks back to back
  int lag;     // the consumer frees step i's slot after step i + 1 landed
  int workNs;  // and spends this long on each step (the wgmmas)
};

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n.reg .pred p;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra W;\n}" ::"r"(bar),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void load2d(uint32_t dst, const CUtensorMap *m,
                                       int c0, int c1, uint32_t bar,
                                       uint64_t pol, bool hint) {
  if (hint)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3}], "
                 "[%4], %5;" ::"r"(dst),
                 "l"(m), "r"(c0), "r"(c1), "r"(bar), "l"(pol)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"(m), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}
__device__ __forceinline__ void load3d(uint32_t dst, const CUtensorMap *m,
                                       int c0, int c1, int c2, uint32_t bar,
                                       uint64_t pol, bool hint) {
  if (hint)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3, %4}], "
                 "[%5], %6;" ::"r"(dst),
                 "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(bar), "l"(pol)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                     dst),
                 "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
                 : "memory");
}

__global__ void __launch_bounds__(64)
    streamKernel(const __grid_constant__ CUtensorMap w,
                 const __grid_constant__ CUtensorMap a, Params p) {
  extern __shared__ __align__(1024) unsigned char smemRaw[];
  unsigned char *smem = reinterpret_cast<unsigned char *>(
      (reinterpret_cast<uintptr_t>(smemRaw) + 1023) & ~uintptr_t(1023));
  __shared__ __align__(8) uint64_t full[8], empty[8];
  const int wBytes = p.stageRows * p.stageKc * 128;
  const int aBytes = p.withA ? 128 * p.stageKc * 128 : 0;
  const int stageBytes = wBytes + aBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
          smemAddr(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
          smemAddr(&empty[s])));
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  const int nb = blockIdx.x % p.nBlocks, ks = blockIdx.x / p.nBlocks;
  const int row0 = nb * p.rowsPerCta, kc0 = ks * p.kcPerCta;
  const int rowGroups = p.rowsPerCta / p.stageRows;
  const int kGroups = p.kcPerCta / p.stageKc;
  const int steps = rowGroups * kGroups;
  if (threadIdx.x == 0) {
    uint64_t pol = 0;
    if (p.evictFirst)
      asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                   : "=l"(pol));
    // Pairs of steps (two slots, two barriers): row box r of step i, then
    // of step i + 1, so that a row's two k chunks are requested together.
    for (int i = 0; p.pairIl && i < steps; i += 2) {
      for (int j = i; j < i + 2; ++j)
        if (j >= p.stages)
          mbarWait(smemAddr(&empty[j % p.stages]), ((j / p.stages) - 1) & 1);
      for (int j = i; j < i + 2; ++j)
        asm volatile(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                smemAddr(&full[j % p.stages])),
            "r"(stageBytes)
            : "memory");
      for (int r = 0; r < p.stageRows; r += p.boxRows)
        for (int j = i; j < i + 2; ++j) {
          int s = j % p.stages;
          load2d(smemAddr(smem + s * stageBytes + r * 128), &w,
                 (kc0 + j) * 64, row0 + r, smemAddr(&full[s]), pol,
                 p.evictFirst);
        }
      for (int j = i; p.withA && j < i + 2; ++j) {
        int s = j % p.stages;
        load2d(smemAddr(smem + s * stageBytes + wBytes), &a, (kc0 + j) * 64,
               0, smemAddr(&full[s]), 0, false);
      }
    }
    for (int i = 0; !p.pairIl && i < steps; ++i) {
      int s = i % p.stages;
      // Groups: wait until the group's slots are all free, then fill them.
      if (i % p.group == 0)
        for (int j = i; j < i + p.group && j < steps; ++j)
          if (j >= p.stages)
            mbarWait(smemAddr(&empty[j % p.stages]), ((j / p.stages) - 1) & 1);
      uint32_t bar = smemAddr(&full[s]);
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
          "r"(stageBytes)
          : "memory");
      int rg = p.rowsOuter ? i / kGroups : i % rowGroups;
      int kg = p.rowsOuter ? i % kGroups : i / rowGroups;
      int r0 = row0 + rg * p.stageRows, k0 = kc0 + kg * p.stageKc;
      uint32_t dst = smemAddr(smem + s * stageBytes);
      for (int r = 0; r < p.stageRows; r += p.boxRows)
        for (int c = 0; c < p.stageKc; c += p.boxKc) {
          if (p.boxKc > 1)
            load3d(dst, &w, 0, r0 + r, k0 + c, bar, pol, p.evictFirst);
          else
            load2d(dst, &w, (k0 + c) * 64, r0 + r, bar, pol, p.evictFirst);
          dst += p.boxRows * p.boxKc * 128;
        }
      for (int c = 0; c < (p.withA ? p.stageKc : 0); ++c) {
        load2d(dst, &a, (k0 + c) * 64, 0, bar, 0, false);
        dst += 128 * 128;
      }
    }
  } else if (threadIdx.x == 32) {
    // Our kernels' consumers release stage i - 1 once they issued step i's
    // wgmmas (lag); workNs stands for the wgmmas' time.
    for (int i = 0; i < steps; ++i) {
      int s = i % p.stages;
      mbarWait(smemAddr(&full[s]), (i / p.stages) & 1);
      if (p.workNs)
        __nanosleep(p.workNs);
      int r = p.lag ? i - 1 : i;
      if (r >= 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                         smemAddr(&empty[r % p.stages]))
                     : "memory");
    }
  }
}

__global__ void readKernel(const uint4 *x, size_t n, uint4 *sink) {
  uint4 acc = {0, 0, 0, 0};
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = x[i];
    acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
  }
  if (acc.x == 0x12345678u && acc.y == 0x9abcdefu)
    sink[0] = acc;
}

static CUtensorMap makeMap(void *base, int rank, const uint64_t *dims,
                           const uint64_t *stridesBytes, const uint32_t *box,
                           CUtensorMapL2promotion promo) {
  CUtensorMap m;
  uint32_t elemStrides[3] = {1, 1, 1};
  CUresult r = cuTensorMapEncodeTiled(
      &m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, rank, base, dims, stridesBytes,
      box, elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, promo,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", int(r));
    exit(1);
  }
  return m;
}

struct Case {
  const char *name;
  int n, k, rowsPerCta, splits;
  Params p;
};

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 30;
  CK(cudaFree(0));
  const size_t flushBytes = 512ull << 20;
  void *flush;
  CK(cudaMalloc(&flush, flushBytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // {stageRows, stageKc, boxRows, boxKc, stages, rowsOuter, withA, evict}
  struct Pat {
    const char *name;
    int stageRows, stageKc, boxRows, boxKc, stages, rowsOuter, withA, evict;
    int group = 1, pairIl = 0, lag = 1, workNs = 250, promo = 3;
  };
  const CUtensorMapL2promotion promos[] = {
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
  // Consumers hold a stage until the next one landed and spend 250 ns on
  // it, unless the last fields say otherwise (pairIl, lag, workNs, promo).
  const Pat pats[] = {
      {"ours, 4 st, no lag/work", 0, 1, 64, 1, 4, 0, 1, 0, 1, 0, 0, 0},
      {"ours, 4 st", 0, 1, 64, 1, 4, 0, 1, 0},
      {"ours, 6 st", 0, 1, 64, 1, 6, 0, 1, 0},
      {"ours, 4 st, promo none", 0, 1, 64, 1, 4, 0, 1, 0, 1, 0, 1, 250, 0},
      {"ours, 4 st, promo 128", 0, 1, 64, 1, 4, 0, 1, 0, 1, 0, 1, 250, 2},
      {"ours, 4 st, evict_first", 0, 1, 64, 1, 4, 0, 1, 1},
      {"pairs il, 4 st", 0, 1, 64, 1, 4, 0, 1, 0, 1, 1},
      {"pairs il, 6 st", 0, 1, 64, 1, 6, 0, 1, 0, 1, 1},
      {"pairs il, 6 st, evict", 0, 1, 64, 1, 6, 0, 1, 1, 1, 1},
      {"pairs il, 4 st, no lag/work", 0, 1, 64, 1, 4, 0, 1, 0, 1, 1, 0, 0},
      {"burst x2 kc, 2 st", 0, 2, 64, 1, 2, 0, 1, 0},
      {"burst x2 kc, 3 st", 0, 2, 64, 1, 3, 0, 1, 0},
  };
  // {name, N, K, rows per CTA, splits along k}: the down GEMMs of S1
  // (128 x 128 over 4 along k) and G5 (128 x 256 over 4).
  struct Shape {
    const char *name;
    int n, k, rows, splits;
  };
  const Shape shapes[] = {{"S1-down", 3072, 8192, 128, 4},
                          {"G5-down", 4096, 16384, 256, 4},
                          {"S1-gate|up", 16384, 3072, 128, 1}};
  printf("%-10s | %-34s | %5s | %8s | %7s\n", "shape", "pattern", "ctas",
         "us", "GB/s");
  for (const Shape &sh : shapes) {
    size_t wBytes = size_t(sh.n) * sh.k * 2;
    void *w, *a, *dst;
    CK(cudaMalloc(&w, wBytes));
    CK(cudaMalloc(&dst, wBytes));
    CK(cudaMalloc(&a, size_t(128) * sh.k * 2));
    CK(cudaMemset(w, 0x3c, wBytes));
    CK(cudaMemset(a, 0x3c, size_t(128) * sh.k * 2));
    auto timeIt = [&](auto launch) {
      std::vector<float> t;
      for (int r = 0; r < reps + 3; ++r) {
        CK(cudaMemsetAsync(flush, r & 0xff, flushBytes));
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 3)
          t.push_back(ms * 1000.f);
      }
      return median(t);
    };
    float readUs = timeIt([&] {
      readKernel<<<132 * 8, 512>>>((const uint4 *)w, wBytes / 16,
                                   (uint4 *)dst);
    });
    float copyUs = timeIt(
        [&] { CK(cudaMemcpyAsync(dst, w, wBytes, cudaMemcpyDeviceToDevice)); });
    CK(cudaGetLastError());
    printf("%-10s | %-34s | %5d | %8.2f | %7.0f\n", sh.name, "read kernel",
           132 * 8, readUs, wBytes / readUs / 1e3);
    printf("%-10s | %-34s | %5s | %8.2f | %7.0f\n", sh.name,
           "cudaMemcpy d2d (read+write)", "-", copyUs,
           2 * wBytes / copyUs / 1e3);
    for (int round = 0; round < 2; ++round)
    for (const Pat &pt : pats) {
      Params p{};
      p.rowsPerCta = sh.rows;
      p.nBlocks = sh.n / sh.rows;
      p.kcPerCta = sh.k / 64 / sh.splits;
      p.stageRows = pt.stageRows ? pt.stageRows : sh.rows;
      p.stageKc = pt.stageKc;
      p.boxRows = pt.boxRows;
      p.boxKc = pt.boxKc;
      p.stages = pt.stages;
      p.rowsOuter = pt.rowsOuter;
      p.withA = pt.withA;
      p.evictFirst = pt.evict;
      p.group = pt.group;
      p.pairIl = pt.pairIl;
      p.lag = pt.lag;
      p.workNs = pt.workNs;
      int stageBytes =
          p.stageRows * p.stageKc * 128 + (p.withA ? 128 * p.stageKc * 128 : 0);
      int smem = stageBytes * p.stages + 1024;
      if (smem > 227 * 1024 || p.kcPerCta % p.stageKc ||
          p.rowsPerCta % p.stageRows) {
        printf("%-10s | %-34s | skipped (smem %d)\n", sh.name, pt.name, smem);
        continue;
      }
      CUtensorMap wm, am;
      if (p.boxKc > 1) {
        uint64_t dims[3] = {64, uint64_t(sh.n), uint64_t(sh.k / 64)};
        uint64_t strides[2] = {uint64_t(sh.k) * 2, 128};
        uint32_t box[3] = {64, uint32_t(p.boxRows), uint32_t(p.boxKc)};
        wm = makeMap(w, 3, dims, strides, box, promos[pt.promo]);
      } else {
        uint64_t dims[2] = {uint64_t(sh.k), uint64_t(sh.n)};
        uint64_t strides[1] = {uint64_t(sh.k) * 2};
        uint32_t box[2] = {64, uint32_t(p.boxRows)};
        wm = makeMap(w, 2, dims, strides, box, promos[pt.promo]);
      }
      {
        uint64_t dims[2] = {uint64_t(sh.k), 128};
        uint64_t strides[1] = {uint64_t(sh.k) * 2};
        uint32_t box[2] = {64, 128};
        am = makeMap(a, 2, dims, strides, box, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
      }
      CK(cudaFuncSetAttribute(streamKernel,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              smem));
      int ctas = p.nBlocks * sh.splits;
      float us = timeIt([&] { streamKernel<<<ctas, 64, smem>>>(wm, am, p); });
      CK(cudaGetLastError());
      printf("%-10s | %-34s | %5d | %8.2f | %7.0f | round %d\n", sh.name,
             pt.name, ctas, us, wBytes / us / 1e3, round + 1);
    }
    CK(cudaFree(w));
    CK(cudaFree(a));
    CK(cudaFree(dst));
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
