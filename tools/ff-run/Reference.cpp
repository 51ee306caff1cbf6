//===- Reference.cpp - Independent fp32 reference for ff-run --------------===//

#include "Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>

using namespace ff;
using namespace ff::rt;
using namespace ff::rt::cu;

double ff::run::activate(Activation act, double x) {
  switch (act) {
  case Activation::Identity:
    return x;
  case Activation::Relu:
    return x > 0 ? x : 0;
  case Activation::GeluErf:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  case Activation::GeluTanh: {
    const double c = std::sqrt(2.0 / M_PI);
    return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
  }
  case Activation::Silu:
    return x / (1.0 + std::exp(-x));
  case Activation::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  }
  return x;
}

namespace {
// The few cuBLAS declarations we use (cublas_api.h values).
using cublasHandle_t = struct cublasContext *;
constexpr int CUBLAS_OP_N = 0, CUBLAS_OP_T = 1;
constexpr int CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14;
constexpr int CUBLAS_COMPUTE_32F = 68;
constexpr int CUBLAS_GEMM_DEFAULT = -1;

struct Cublas {
  int (*create)(cublasHandle_t *);
  int (*destroy)(cublasHandle_t);
  int (*gemmEx)(cublasHandle_t, int, int, int, int, int, const void *,
                const void *, int, int, const void *, int, int, const void *,
                void *, int, int, int, int);
  cublasHandle_t handle = nullptr;
};

bool loadCublas(Cublas &c, std::string &error) {
  static void *lib = nullptr;
  if (!lib) {
    std::vector<std::string> names;
    if (const char *env = std::getenv("FF_CUBLAS_LIB"))
      names.push_back(env);
    for (const char *n : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"})
      names.push_back(n);
    std::string home =
        std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
    names.push_back(home + "/lib64/libcublas.so");
    for (const std::string &n : names)
      if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!lib) {
      error = "cannot load cuBLAS (libcublas.so.13/.12; set FF_CUBLAS_LIB)";
      return false;
    }
  }
  c.create =
      reinterpret_cast<decltype(c.create)>(dlsym(lib, "cublasCreate_v2"));
  c.destroy =
      reinterpret_cast<decltype(c.destroy)>(dlsym(lib, "cublasDestroy_v2"));
  c.gemmEx = reinterpret_cast<decltype(c.gemmEx)>(dlsym(lib, "cublasGemmEx"));
  if (!c.create || !c.destroy || !c.gemmEx) {
    error = "cuBLAS lacks cublasCreate_v2/cublasGemmEx";
    return false;
  }
  int s = c.create(&c.handle);
  if (s != 0) {
    error = "cublasCreate failed with status " + std::to_string(s);
    return false;
  }
  return true;
}

int cudaType(DType t) {
  return t == DType::BF16  ? CUDA_R_16BF
         : t == DType::F16 ? CUDA_R_16F
                           : CUDA_R_32F;
}

/// Row-major C[m, n] (fp32) = A[m, k] · B, where B is [k, n] ("kn") or
/// [n, k] ("nk"). Column-major view: C^T = B^T · A^T.
bool gemm(Cublas &c, int64_t m, int64_t n, int64_t k, CUdeviceptr a,
          DType aType, CUdeviceptr b, DType bType, const std::string &layout,
          CUdeviceptr out, std::string &error) {
  float one = 1.f, zero = 0.f;
  bool nk = layout == "nk";
  int s = c.gemmEx(c.handle, nk ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N,
                   int(n), int(m), int(k), &one, reinterpret_cast<void *>(b),
                   cudaType(bType), nk ? int(k) : int(n),
                   reinterpret_cast<void *>(a), cudaType(aType), int(k), &zero,
                   reinterpret_cast<void *>(out), CUDA_R_32F, int(n),
                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (s != 0) {
    error = "cublasGemmEx failed with status " + std::to_string(s);
    return false;
  }
  return true;
}

struct DeviceBuffer {
  const Driver &d;
  CUdeviceptr p = 0;
  explicit DeviceBuffer(const Driver &d) : d(d) {}
  ~DeviceBuffer() {
    if (p)
      d.cuMemFree(p);
  }
  bool alloc(size_t bytes, std::string &error) {
    CUresult r = d.cuMemAlloc(&p, bytes);
    if (r != CUDA_SUCCESS) {
      error = d.errorString("cuMemAlloc", r);
      p = 0;
      return false;
    }
    return true;
  }
};
} // namespace

bool ff::run::computeReference(const Driver &d, const Manifest &man, int64_t m,
                               const std::vector<HostTensor> &in,
                               std::vector<float> &out, std::string &error) {
  const ChainSpec &c = man.chain;
  if (c.kind == ChainKind::Chain) {
    error = "no reference for chain kind \"chain\"";
    return false;
  }
  Cublas cb;
  if (!loadCublas(cb, error))
    return false;
  struct Guard {
    Cublas &c;
    ~Guard() { c.destroy(c.handle); }
  } guard{cb};

  const HostTensor &x = in[0];
  int64_t k = x.shape.back();
  // Width of the first GEMM's output (N): from the first weight's layout.
  // A "kn" weight of higher rank (a 1x1 conv's HWCF filter) is its
  // row-major [in, out] matrix: out is the innermost extent.
  const HostTensor &w1 = in[1];
  int64_t n = w1.layout == "nk" ? w1.shape[0] : w1.shape.back();
  auto sync = [&]() {
    CUresult r = d.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
      error = d.errorString("cuCtxSynchronize", r);
    return r == CUDA_SUCCESS;
  };

  DeviceBuffer h0(d), h1(d), col(d), w1f(d);
  CUdeviceptr aPtr = x.device, bPtr = w1.device;
  DType aType = x.dtype, bType = w1.dtype;
  // A filter's taps: HWCF [KH, KW, C, F] ("kn") or FHWC [F, KH, KW, C]
  // ("nk"); KH is dimension `tap`.
  size_t tap = w1.layout == "nk" ? 1 : 0;
  bool conv = x.shape.size() == 4 && w1.shape.size() == 4 &&
              (w1.shape[tap] > 1 || w1.shape[tap + 1] > 1);
  if (conv) {
    // A KH x KW convolution, stride 1, "same" zero padding, of the NHWC
    // input: the first GEMM is the host-side im2col of the input,
    // [N*H*W, KH*KW*C] in fp32 with column (r*KW + s)*C + c =
    // x[n, h + r - KH/2, w + s - KW/2, c] (zero outside the image), times
    // the filter in fp32, which is the row-major [KH*KW*C, F] matrix (HWCF)
    // or the K-major [F, KH*KW*C] one (FHWC).
    int64_t nImg = x.shape[0], hh = x.shape[1], ww = x.shape[2],
            cc = x.shape[3], kh = w1.shape[tap], kw = w1.shape[tap + 1];
    if (w1.shape[tap + 2] != cc || kh % 2 == 0 || kw % 2 == 0 ||
        nImg * hh * ww != m) {
      error = "no reference for this convolution: expected an NHWC input "
              "of M = N*H*W pixels and an odd [KH, KW, C, F] (HWCF) or "
              "[F, KH, KW, C] (FHWC) filter";
      return false;
    }
    k = kh * kw * cc;
    std::vector<float> cols(size_t(m * k), 0.f);
    for (int64_t p = 0; p < m; ++p) {
      int64_t img = p / (hh * ww), y = p / ww % hh, xw = p % ww;
      for (int64_t r = 0; r < kh; ++r)
        for (int64_t s = 0; s < kw; ++s) {
          int64_t iy = y + r - kh / 2, ix = xw + s - kw / 2;
          if (iy < 0 || iy >= hh || ix < 0 || ix >= ww)
            continue;
          const float *src = &x.values[size_t(((img * hh + iy) * ww + ix) * cc)];
          std::copy(src, src + cc, &cols[size_t(p * k + (r * kw + s) * cc)]);
        }
    }
    CUresult r;
    if (!col.alloc(cols.size() * 4, error) ||
        !w1f.alloc(w1.values.size() * 4, error))
      return false;
    if ((r = d.cuMemcpyHtoD(col.p, cols.data(), cols.size() * 4)) !=
            CUDA_SUCCESS ||
        (r = d.cuMemcpyHtoD(w1f.p, w1.values.data(), w1.values.size() * 4)) !=
            CUDA_SUCCESS) {
      error = d.errorString("cuMemcpyHtoD", r);
      return false;
    }
    aPtr = col.p;
    bPtr = w1f.p;
    aType = bType = DType::F32;
  }
  if (!h0.alloc(size_t(m * n) * 4, error) ||
      !gemm(cb, m, n, k, aPtr, aType, bPtr, bType, w1.layout, h0.p, error))
    return false;
  bool gated = c.kind == ChainKind::GatedFfn || c.kind == ChainKind::GatedGemm;
  if (gated) {
    if (conv) {
      error = "no reference for a gated convolution chain";
      return false;
    }
    const HostTensor &wu = in[2];
    if (!h1.alloc(size_t(m * n) * 4, error) ||
        !gemm(cb, m, n, k, x.device, x.dtype, wu.device, wu.dtype, wu.layout,
              h1.p, error))
      return false;
  }
  if (!sync())
    return false;
  std::vector<float> h(size_t(m * n));
  CUresult r = d.cuMemcpyDtoH(h.data(), h0.p, h.size() * 4);
  if (r != CUDA_SUCCESS) {
    error = d.errorString("cuMemcpyDtoH", r);
    return false;
  }
  if (c.kind == ChainKind::Gemm) {
    // gemm: out = act(x·w), the activation as an epilogue.
    for (float &v : h)
      v = float(activate(c.activation, double(v)));
    out = std::move(h);
    return true;
  }
  std::vector<float> up;
  if (gated) {
    up.resize(h.size());
    if ((r = d.cuMemcpyDtoH(up.data(), h1.p, up.size() * 4)) != CUDA_SUCCESS) {
      error = d.errorString("cuMemcpyDtoH", r);
      return false;
    }
  }
  for (size_t i = 0; i < h.size(); ++i) {
    double v = activate(c.activation, double(h[i]));
    if (!up.empty())
      v *= double(up[i]);
    h[i] = float(v);
  }
  // gated_gemm: out = act(x·wg) * (x·wu).
  if (c.kind == ChainKind::GatedGemm) {
    out = std::move(h);
    return true;
  }
  // Second GEMM in fp32: activated intermediate times the fp32 copy of the
  // down projection.
  const HostTensor &w2 = in.back();
  int64_t l = w2.layout == "nk" ? w2.shape[0] : w2.shape.back();
  DeviceBuffer hd(d), w2d(d), od(d);
  if (!hd.alloc(h.size() * 4, error) ||
      !w2d.alloc(w2.values.size() * 4, error) ||
      !od.alloc(size_t(m * l) * 4, error))
    return false;
  if ((r = d.cuMemcpyHtoD(hd.p, h.data(), h.size() * 4)) != CUDA_SUCCESS ||
      (r = d.cuMemcpyHtoD(w2d.p, w2.values.data(), w2.values.size() * 4)) !=
          CUDA_SUCCESS) {
    error = d.errorString("cuMemcpyHtoD", r);
    return false;
  }
  if (!gemm(cb, m, l, n, hd.p, DType::F32, w2d.p, DType::F32, w2.layout, od.p,
            error) ||
      !sync())
    return false;
  out.resize(size_t(m * l));
  if ((r = d.cuMemcpyDtoH(out.data(), od.p, out.size() * 4)) != CUDA_SUCCESS) {
    error = d.errorString("cuMemcpyDtoH", r);
    return false;
  }
  return true;
}
