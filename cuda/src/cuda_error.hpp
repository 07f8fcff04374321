// CUDA runtime errors as cgtb errors, for both .cu files (the CUDA backend and
// the CUDA conjecture checks).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cgtb/error.hpp"

namespace cgtb::detail {

/// Throws internal_error when `e` is not cudaSuccess: a failing CUDA runtime
/// call is no fault of the user's input, nor a limit they can lower (exit
/// status 1). The message names `call`, the runtime call that returned e,
/// `during`, what it served (may be null), and the CUDA error.
inline void cuda_check(cudaError_t e, const char* call, const char* during = nullptr) {
  if (e == cudaSuccess) return;
  std::string m = std::string("CUDA call ") + call;
  if (during) m += std::string(" (") + during + ")";
  throw internal_error(m + " failed: " + cudaGetErrorName(e) + ", " + cudaGetErrorString(e));
}

/// Throws resource_error (exit status 3, as the solver reports it) when no
/// CUDA device is present: the CUDA backend and the CUDA conjecture checks
/// call it before anything else.
inline void require_cuda_device() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    throw resource_error(std::string("--backend cuda: no CUDA device is present") +
                         (e != cudaSuccess ? std::string(" (") + cudaGetErrorString(e) + ")" : std::string()));
  }
}

/// True when the current device has stream-ordered memory pools (every GPU
/// since CUDA 11.2 on Linux, save some virtualised ones); queried once.
inline bool cuda_pools_supported() {
  static const bool supported = [] {
    int device = 0, value = 0;
    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&value, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && value != 0;
  }();
  return supported;
}

/// Device memory for `bytes` bytes (at least one) from the device's
/// stream-ordered pool (cudaMallocAsync on the legacy default stream: usable
/// at once by the kernels of that stream; by other streams once the host has
/// synchronised with it), or from cudaMalloc where the device has no pools.
/// Running out of device memory is a resource limit, as running out of host
/// memory is: resource_error (exit status 3), the CUDA error cleared so that
/// no later check reports it again. Any other failure: cuda_check. Give it
/// back with cuda_release.
inline void* cuda_allocate(std::size_t bytes) {
  void* p = nullptr;
  const std::size_t n = bytes > 0 ? bytes : 1;
  const bool pooled = cuda_pools_supported();
  cudaError_t e = pooled ? cudaMallocAsync(&p, n, cudaStreamLegacy) : cudaMalloc(&p, n);
  if (e == cudaErrorMemoryAllocation && pooled) {
    // The pool keeps freed memory (its release threshold is unlimited), in
    // blocks that may be too small or not yet free: once the queued work is
    // done, give the unused blocks back to the device and try once more.
    (void)cudaGetLastError();
    cudaMemPool_t pool = nullptr;
    int device = 0;
    if (cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess && cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess)
      (void)cudaMemPoolTrimTo(pool, 0);
    e = cudaMallocAsync(&p, n, cudaStreamLegacy);
  }
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw resource_error("cannot allocate " + std::to_string(bytes) + " bytes of device memory");
  }
  cuda_check(e, pooled ? "cudaMallocAsync" : "cudaMalloc");
  return p;
}

/// Returns memory of cuda_allocate: to the pool once the work queued on the
/// legacy default stream is done (no error is raised: destructors call it).
inline void cuda_release(void* p) {
  if (!p) return;
  if (cuda_pools_supported())
    (void)cudaFreeAsync(p, cudaStreamLegacy);
  else
    (void)cudaFree(p);
}

}  // namespace cgtb::detail
