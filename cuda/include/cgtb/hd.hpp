// Host/device portability layer: one source for every kernel.
//
// Value rules and move generators are written once as CGTB_HD functions. nvcc
// compiles them for the GPU (and the host); g++ compiles the same text for the
// CPU backend, where Thrust's OpenMP system runs them.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CGTB_HD __host__ __device__
#define CGTB_DEVICE_COMPILE 1
#else
#define CGTB_HD
#endif

namespace cgtb {

/// Number of set bits of a 64-bit word.
CGTB_HD inline int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

/// Index of the lowest set bit of a non-zero 64-bit word.
CGTB_HD inline int ctz64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

/// Smallest non-negative integer whose bit is clear in `mask` (the mex of the
/// set of values whose bits are set). Returns 64 when all 64 bits are set,
/// which callers treat as an overflow sentinel.
CGTB_HD inline int mex64(std::uint64_t mask) { return mask == ~0ull ? 64 : ctz64(~mask); }

}  // namespace cgtb
