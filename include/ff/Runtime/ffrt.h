/*===- ffrt.h - C API of the FlashFuser runtime -------------------*- C -*-===*\
|*                                                                            *|
|* A small C ABI over ff::rt::LoadedBundle for Python's ctypes and other      *|
|* foreign callers (library libffrt.so). Every function returns 0 on success  *|
|* and a nonzero FFRT_* code otherwise; ffrt_last_error() then holds a        *|
|* message naming the problem (thread-local, valid until the next call).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FF_RUNTIME_FFRT_H
#define FF_RUNTIME_FFRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FFRT_OK 0
#define FFRT_ERROR_INVALID_ARGUMENT 1 /* bad launch argument or API misuse */
#define FFRT_ERROR_BUNDLE 2           /* unreadable, invalid or corrupted */
#define FFRT_ERROR_NO_DEVICE 3        /* no CUDA driver or device */
#define FFRT_ERROR_CUDA 4             /* a driver call failed */

#define FFRT_MAX_RANK 8

typedef struct ffrt_bundle ffrt_bundle;

/** One tensor argument. Strides are in elements (has_strides = 0 means
 *  contiguous row-major); dtype is "bf16", "f16" or "f32". */
typedef struct ffrt_tensor {
  uint64_t data;
  const char *dtype;
  int32_t ndim;
  int32_t has_strides;
  int64_t shape[FFRT_MAX_RANK];
  int64_t strides[FFRT_MAX_RANK];
} ffrt_tensor;

/** What a launch would do, from ffrt_validate. */
typedef struct ffrt_plan {
  int64_t m;
  int32_t kernel;
  uint32_t grid[3];
} ffrt_plan;

const char *ffrt_last_error(void);
const char *ffrt_version(void);

/** 0 when a CUDA driver and device are present; FFRT_ERROR_NO_DEVICE else. */
int ffrt_driver_available(void);

/** SHA-256 of a buffer as 64 hex digits plus NUL. */
int ffrt_sha256_hex(const void *data, size_t size, char out[65]);

/** The hash a bundle directory's contents should carry (docs/bundle.md),
 *  whatever its manifest says. */
int ffrt_bundle_compute_hash(const char *dir, char out[65]);

/** Opens a bundle directory (manifest validated; hash checked when
 *  verify_hash). Needs no GPU. */
int ffrt_bundle_open(const char *dir, int verify_hash, ffrt_bundle **out);
void ffrt_bundle_close(ffrt_bundle *bundle);

/** Validates arguments (inputs then outputs, manifest order). With
 *  query_pointers, also checks that each pointer is device memory of the
 *  current context's device (needs a GPU). */
int ffrt_validate(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                  int query_pointers, ffrt_plan *plan);

/** Loads the kernels into the current context and checks that they can be
 *  scheduled. Optional: the first launch does it too. */
int ffrt_prepare(ffrt_bundle *bundle);

/** Validates and launches on `stream` (a CUstream / cudaStream_t; NULL is the
 *  default stream). Asynchronous like any kernel launch. */
int ffrt_launch(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                void *stream);

/** A counter the runtime increments whenever it frees device memory that an
 *  earlier launch of this bundle may reference (a workspace grown for a
 *  larger M, the tensor-map cache flushed). A CUDA graph that captured a
 *  launch stays valid while the counter keeps the value it had before the
 *  capture. 0 for a NULL bundle. */
uint64_t ffrt_bundle_epoch(const ffrt_bundle *bundle);

/** One launch recorded in a CUDA graph (ffrt_graph_capture). */
typedef struct ffrt_graph ffrt_graph;

/** Records the launch ffrt_launch(bundle, args, nargs, ...) would make into
 *  a CUDA graph on a stream of the runtime's own, without running it. Launch
 *  the same arguments once before (nothing is allocated while capturing).
 *  The graph stays valid while ffrt_bundle_epoch(bundle) keeps the value it
 *  had before this call and the tensors stay allocated; it does not keep
 *  the bundle open. Needs a GPU. */
int ffrt_graph_capture(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                       ffrt_graph **out);

/** Replays a captured launch on `stream` (NULL: the default stream): one
 *  cuGraphLaunch. */
int ffrt_graph_launch(ffrt_graph *graph, void *stream);
void ffrt_graph_destroy(ffrt_graph *graph);

/** Whether `stream` (NULL: the legacy default stream) is capturing a CUDA
 *  graph: 1 while a capture on it is active or invalidated, 0 when none is,
 *  -1 when the driver cannot tell (no driver; the query refused, e.g. on the
 *  legacy stream while another stream captures in global mode). Records no
 *  error message: it is the cached call's per-call check. */
int ffrt_stream_capturing(void *stream);

/** The device ordinal of the calling thread's current CUDA context (the
 *  device PyTorch's current device names), or -1 with no driver or no
 *  current context. Records no error message: it is the cached call's
 *  per-call check. */
int ffrt_current_device(void);

#ifdef __cplusplus
}
#endif

#endif /* FF_RUNTIME_FFRT_H */
