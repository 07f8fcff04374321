// Host/device portability layer: one source for every kernel.
//
// Value rules and move generators are written once as CGTB_HD functions. nvcc
// compiles them for the GPU (and the host); g++ compiles the same text for the
// CPU backend, where Thrust's OpenMP system runs them.
#pragma once

#include <cstdint>
#if defined(__BMI2__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

#if defined(__CUDACC__)
#define CGTB_HD __host__ __device__
#else
#define CGTB_HD
#endif

/// Before a loop of constant bound: the device unrolls it, so that an array
/// the loop indexes (a few words, a position's bytes) stays in registers
/// instead of each thread's local memory. The host compiler decides alone.
#if defined(__CUDA_ARCH__)
#define CGTB_UNROLL _Pragma("unroll")
#else
#define CGTB_UNROLL
#endif

namespace cgtb {

/// Number of set bits of a 64-bit word. Host code built without the
/// popcount instruction (the x86-64 baseline) counts in registers by
/// parallel byte sums rather than calling the compiler's library routine.
CGTB_HD inline int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#elif defined(__POPCNT__) || !defined(__x86_64__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
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

/// Index of the highest set bit of a non-zero 64-bit word.
CGTB_HD inline int highest_bit64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}

/// Position of the k-th set bit (k from 0) of w; w has more than k set bits.
/// The device halves the word by population counts; the host finds the byte
/// by its running byte sums, all in one register (S. Vigna, "Broadword
/// implementation of rank/select queries", WEA 2008, section 5).
CGTB_HD inline int select_in_word(std::uint64_t w, int k) {
#if defined(__CUDA_ARCH__)
  int pos = 0;
  for (int half = 32; half; half >>= 1) {
    const std::uint64_t low = w & ((1ull << half) - 1);
    const int c = popcount64(low);
    if (k >= c) {
      k -= c;
      w >>= half;
      pos += half;
    } else {
      w = low;
    }
  }
  return pos;
#elif defined(__BMI2__)
  return ctz64(_pdep_u64(1ull << k, w));
#else
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  std::uint64_t s = w - ((w >> 1) & 0x5555555555555555ull);
  s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
  s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full;
  const std::uint64_t sums = s * ones;  // byte i: set bits in bytes 0..i
  // Bytes whose running sum is at most k come before the byte of the bit.
  const std::uint64_t at_most = ((static_cast<std::uint64_t>(k) * ones | highs) - sums) & highs;
  const int place = static_cast<int>((((at_most >> 7) * ones) >> 56) * 8);
  int rank = k - static_cast<int>(((sums << 8) >> place) & 0xff);
  std::uint64_t byte = (w >> place) & 0xff;
  for (; rank; --rank) byte &= byte - 1;
  return place + ctz64(byte);
#endif
}

/// Smallest non-negative integer whose bit is clear in `mask` (the mex of the
/// set of values whose bits are set). Returns 64 when all 64 bits are set,
/// which callers treat as an overflow sentinel.
/// Atomic compare-and-swap on a 64-bit word: stores `desired` if *addr equals
/// `expected`; returns the value *addr held before (relaxed ordering: the
/// hash-table builds that use it are read only after their pass ends).
CGTB_HD inline std::uint64_t atomic_cas64(std::uint64_t* addr, std::uint64_t expected, std::uint64_t desired) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(reinterpret_cast<unsigned long long*>(addr), static_cast<unsigned long long>(expected),
                   static_cast<unsigned long long>(desired));
#else
  __atomic_compare_exchange_n(addr, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
#endif
}

/// Atomic load of a 64-bit word with acquire ordering: the writes a thread
/// made before publishing this word (memory_fence, then a CAS) are visible
/// once the load sees the published value.
CGTB_HD inline std::uint64_t atomic_load64(const std::uint64_t* addr) {
#if defined(__CUDA_ARCH__)
  return cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*const_cast<std::uint64_t*>(addr))
      .load(cuda::memory_order_acquire);
#else
  return __atomic_load_n(addr, __ATOMIC_ACQUIRE);
#endif
}

/// A flag many threads raise and read while a pass runs (relaxed ordering:
/// what it guards is read only after the pass ends).
CGTB_HD inline int flag_read(const int* flag) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile int*>(flag);
#else
  return __atomic_load_n(flag, __ATOMIC_RELAXED);
#endif
}
CGTB_HD inline void flag_raise(int* flag) {
#if defined(__CUDA_ARCH__)
  *static_cast<volatile int*>(flag) = 1;
#else
  __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
#endif
}

/// Atomic fetch-and-add on a 64-bit counter; returns the value before.
CGTB_HD inline unsigned long long atomic_add_u64(unsigned long long* addr, unsigned long long v) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(addr, v);
#else
  return __atomic_fetch_add(addr, v, __ATOMIC_RELAXED);
#endif
}

/// Release fence: this thread's earlier writes are visible to a thread that
/// acquires a word this thread writes after the fence.
CGTB_HD inline void memory_fence() {
#if defined(__CUDA_ARCH__)
  __threadfence();
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

/// High 64 bits of the 128-bit product a * b: maps a hash a onto [0, b)
/// (Lemire's range reduction), so tables need not have power-of-two sizes.
CGTB_HD inline std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  __extension__ typedef unsigned __int128 u128;
  return static_cast<std::uint64_t>((static_cast<u128>(a) * b) >> 64);
#endif
}

CGTB_HD inline int mex64(std::uint64_t mask) { return mask == ~0ull ? 64 : ctz64(~mask); }

}  // namespace cgtb
