//===- CudaDeclsCheck.cpp - Check driver declarations against cuda.h ------===//
//
// Compiled only where the CUDA toolkit's headers exist: the runtime declares
// the driver-API types itself (CudaDriver.h) and this TU proves those
// declarations agree with the real ones.
//
//===----------------------------------------------------------------------===//

#include "ff/Runtime/CudaDriver.h"

#include <cstddef>
#include <cuda.h>
#include <type_traits>

namespace ours = ff::rt::cu;

#define FF_CHECK_ENUM(name)                                                    \
  static_assert(static_cast<long long>(ours::name) ==                          \
                    static_cast<long long>(::name),                            \
                #name " differs from cuda.h")

FF_CHECK_ENUM(CUDA_SUCCESS);
FF_CHECK_ENUM(CUDA_ERROR_INVALID_VALUE);
FF_CHECK_ENUM(CUDA_ERROR_NOT_INITIALIZED);
FF_CHECK_ENUM(CUDA_ERROR_NO_DEVICE);
FF_CHECK_ENUM(CUDA_ERROR_INVALID_IMAGE);
FF_CHECK_ENUM(CU_STREAM_NON_BLOCKING);
FF_CHECK_ENUM(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
FF_CHECK_ENUM(CU_STREAM_CAPTURE_STATUS_NONE);
FF_CHECK_ENUM(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
FF_CHECK_ENUM(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
FF_CHECK_ENUM(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
FF_CHECK_ENUM(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
FF_CHECK_ENUM(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
FF_CHECK_ENUM(CU_FUNC_ATTRIBUTE_NUM_REGS);
FF_CHECK_ENUM(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
FF_CHECK_ENUM(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
FF_CHECK_ENUM(CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
FF_CHECK_ENUM(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL);
FF_CHECK_ENUM(CU_MEMORYTYPE_HOST);
FF_CHECK_ENUM(CU_MEMORYTYPE_DEVICE);
FF_CHECK_ENUM(CU_MEMORYTYPE_UNIFIED);
FF_CHECK_ENUM(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
FF_CHECK_ENUM(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
FF_CHECK_ENUM(CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
FF_CHECK_ENUM(CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
FF_CHECK_ENUM(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
FF_CHECK_ENUM(CU_TENSOR_MAP_INTERLEAVE_NONE);
FF_CHECK_ENUM(CU_TENSOR_MAP_INTERLEAVE_16B);
FF_CHECK_ENUM(CU_TENSOR_MAP_INTERLEAVE_32B);
FF_CHECK_ENUM(CU_TENSOR_MAP_SWIZZLE_NONE);
FF_CHECK_ENUM(CU_TENSOR_MAP_SWIZZLE_32B);
FF_CHECK_ENUM(CU_TENSOR_MAP_SWIZZLE_64B);
FF_CHECK_ENUM(CU_TENSOR_MAP_SWIZZLE_128B);
FF_CHECK_ENUM(CU_TENSOR_MAP_L2_PROMOTION_NONE);
FF_CHECK_ENUM(CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
FF_CHECK_ENUM(CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
FF_CHECK_ENUM(CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
FF_CHECK_ENUM(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
FF_CHECK_ENUM(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);

static_assert(sizeof(ours::CUtensorMap) == sizeof(::CUtensorMap) &&
                  alignof(ours::CUtensorMap) == alignof(::CUtensorMap),
              "CUtensorMap layout");
static_assert(sizeof(ours::CUlaunchAttribute) == sizeof(::CUlaunchAttribute) &&
                  offsetof(ours::CUlaunchAttribute, value) ==
                      offsetof(::CUlaunchAttribute, value),
              "CUlaunchAttribute layout");
static_assert(offsetof(ours::CUlaunchAttributeValue, clusterDim) ==
                      offsetof(::CUlaunchAttributeValue, clusterDim) &&
                  offsetof(ours::CUlaunchAttributeValue,
                           programmaticStreamSerializationAllowed) ==
                      offsetof(::CUlaunchAttributeValue,
                               programmaticStreamSerializationAllowed),
              "CUlaunchAttributeValue layout");
static_assert(sizeof(ours::CUlaunchConfig) == sizeof(::CUlaunchConfig) &&
                  offsetof(ours::CUlaunchConfig, sharedMemBytes) ==
                      offsetof(::CUlaunchConfig, sharedMemBytes) &&
                  offsetof(ours::CUlaunchConfig, hStream) ==
                      offsetof(::CUlaunchConfig, hStream) &&
                  offsetof(ours::CUlaunchConfig, attrs) ==
                      offsetof(::CUlaunchConfig, attrs) &&
                  offsetof(ours::CUlaunchConfig, numAttrs) ==
                      offsetof(::CUlaunchConfig, numAttrs),
              "CUlaunchConfig layout");

// Entry-point signatures, where getting one wrong would corrupt arguments
// silently: cuda.h's enums are passed as int and its CUtensorMap as ours.
template <typename T>
struct Ours {
  using type = std::conditional_t<std::is_enum_v<T>, int, T>;
};
template <>
struct Ours<::CUtensorMap *> {
  using type = ours::CUtensorMap *;
};
template <typename Ptr, typename Fn>
struct SameSignature : std::false_type {};
template <typename R, typename... A, typename R2, typename... B>
struct SameSignature<R (*)(A...), R2(B...)>
    : std::is_same<R(A...),
                   typename Ours<R2>::type(typename Ours<B>::type...)> {};
#define FF_CHECK_ENTRY(name)                                                   \
  static_assert(                                                               \
      SameSignature<decltype(ours::Driver::name), decltype(::name)>::value,    \
      #name " signature differs from cuda.h")

FF_CHECK_ENTRY(cuTensorMapEncodeTiled);
FF_CHECK_ENTRY(cuTensorMapEncodeIm2col);
