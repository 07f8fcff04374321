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

/// Device memory for `bytes` bytes (at least one) from plain cudaMalloc.
/// Running out of device memory is a resource limit, as running out of host
/// memory is: resource_error (exit status 3), the CUDA error cleared so that
/// no later check reports it again. Any other failure: cuda_check.
inline void* cuda_allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes > 0 ? bytes : 1);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw resource_error("cannot allocate " + std::to_string(bytes) + " bytes of device memory");
  }
  cuda_check(e, "cudaMalloc");
  return p;
}

}  // namespace cgtb::detail
