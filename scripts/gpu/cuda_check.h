// cuda_check.h - exit on a failed CUDA call in the standalone probes of
// scripts/gpu (built with nvcc alone on the GPU machine).
//   CK(runtime call)  cudaError_t, reported with cudaGetErrorString
//   CU(driver call)   CUresult (needs -lcuda where used)
#ifndef FF_SCRIPTS_GPU_CUDA_CHECK_H
#define FF_SCRIPTS_GPU_CUDA_CHECK_H

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x,         \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CU(x)                                                                  \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x,         \
                   static_cast<int>(r_));                                      \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#endif // FF_SCRIPTS_GPU_CUDA_CHECK_H
