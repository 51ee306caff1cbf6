//===- Reference.h - Independent fp32 reference for ff-run ------*- C++ -*-===//
//
// The reference shares no code with the fused path: the GEMMs run in cuBLAS
// (cublasGemmEx, CUBLAS_COMPUTE_32F, loaded with dlopen) and the activation
// is applied on the host in double precision.
//
//===----------------------------------------------------------------------===//

#ifndef FF_TOOLS_FFRUN_REFERENCE_H
#define FF_TOOLS_FFRUN_REFERENCE_H

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Manifest.h"

#include <string>
#include <vector>

namespace ff::run {

/// Host copy of an input, already rounded to its dtype, and its device copy.
struct HostTensor {
  std::vector<int64_t> shape;
  rt::DType dtype;
  std::string layout;
  std::vector<float> values;
  rt::cu::CUdeviceptr device = 0;
};

/// Activation in double precision.
double activate(rt::Activation act, double x);

/// Computes the fp32 reference output of the chain into `out` (row-major
/// [M, L] or [M, N] for gemm). Inputs in manifest order.
bool computeReference(const rt::cu::Driver &d, const rt::Manifest &man,
                      int64_t m, const std::vector<HostTensor> &inputs,
                      std::vector<float> &out, std::string &error);

} // namespace ff::run

#endif // FF_TOOLS_FFRUN_REFERENCE_H
