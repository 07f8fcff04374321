// The Backend concept: what the level loop (level_loop.hpp) and the index of a
// solve (solve_index.hpp) ask of a backend. Two backends model it:
// cpu_backend (backend_cpu.cpp, Thrust's OpenMP system) and cuda_backend
// (backend_cuda.cu, Thrust's CUDA system); a third (e.g. one rank of a
// distributed build) models it too. check_backend<B>() states each member
// with a static_assert whose message names what is missing.
//
// | member | meaning |
// |---|---|
// | `static constexpr std::uint64_t chunk_size` | positions one work item of a level kernel solves |
// | `static constexpr int prefetch_batch` | addresses a work item prefetches before reading them (cgtb/prefetch.hpp; 0:
// none) | | `static constexpr bool host_visible` | the host reads the backend's buffers in place | | `template <class
// T> struct buffer` | owned memory for values of T; `T* data() const` | | `template <class T> struct staging` | a
// reusable host copy for to_host | | `explicit B(const solve_options&)` | set up for one solve (threads, --max-memory)
// | | `void enter_thread() const` | called on each thread that runs kernels (the level pipeline's too) | | `bool
// pipelined() const` | whether solved levels may be consumed beside the next solve | | `void with_policy(std::uint64_t
// n, F f)` | calls f(policy), the Thrust execution policy for n items | | `std::size_t available_bytes() const`, `const
// char* memory_name() const` | memory left to the solve and its name ("host", "GPU") | | `buffer<T>
// allocate<T>(std::size_t n)` | uninitialised memory for n values; throws resource_error | | `buffer<T> upload(const
// std::vector<T>&)` | a copy of host values in the backend's memory | | `void copy_to_device(T* dst, const T* src,
// std::size_t n)` | host to backend | | `const T* to_host(const T* p, std::size_t n, staging<T>&)` | the host's view of
// n values (p itself where host_visible) | | `const T* download(const T* p, std::size_t n, std::vector<T>&)` | a
// one-off host copy | | `void check(const char* what)` | waits for the kernels and turns a failure into an
// internal_error naming `what` |
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"

namespace cgtb::detail {

namespace backend_traits {

/// A callable that accepts any execution policy (for with_policy's check).
struct any_policy {
  template <class Policy>
  void operator()(Policy) const {}
};

#define CGTB_BACKEND_TRAIT(NAME, EXPR) \
  template <class B, class = void>     \
  struct NAME : std::false_type {};    \
  template <class B>                   \
  struct NAME<B, std::void_t<decltype(EXPR)>> : std::true_type {};

CGTB_BACKEND_TRAIT(has_chunk_size, std::uint64_t{B::chunk_size})
CGTB_BACKEND_TRAIT(has_prefetch_batch, int{B::prefetch_batch})
CGTB_BACKEND_TRAIT(has_host_visible, bool{B::host_visible})
CGTB_BACKEND_TRAIT(has_buffer, std::declval<const typename B::template buffer<int>&>().data())
CGTB_BACKEND_TRAIT(has_staging, typename B::template staging<int>{})
CGTB_BACKEND_TRAIT(has_options_constructor, B(std::declval<const solve_options&>()))
CGTB_BACKEND_TRAIT(has_enter_thread, std::declval<const B&>().enter_thread())
CGTB_BACKEND_TRAIT(has_pipelined, bool{std::declval<const B&>().pipelined()})
CGTB_BACKEND_TRAIT(has_with_policy, std::declval<B&>().with_policy(std::uint64_t{1}, any_policy{}))
CGTB_BACKEND_TRAIT(has_available_bytes, std::size_t{std::declval<const B&>().available_bytes()})
CGTB_BACKEND_TRAIT(has_memory_name, static_cast<const char*>(std::declval<const B&>().memory_name()))
CGTB_BACKEND_TRAIT(has_allocate, std::declval<B&>().template allocate<int>(std::size_t{1}).data())
CGTB_BACKEND_TRAIT(has_upload, std::declval<B&>().upload(std::declval<const std::vector<int>&>()).data())
CGTB_BACKEND_TRAIT(has_copy_to_device,
                   std::declval<B&>().copy_to_device(std::declval<int*>(), std::declval<const int*>(), std::size_t{1}))
CGTB_BACKEND_TRAIT(has_to_host,
                   static_cast<const int*>(std::declval<B&>().to_host(
                       std::declval<const int*>(), std::size_t{1}, std::declval<typename B::template staging<int>&>())))
CGTB_BACKEND_TRAIT(has_download,
                   static_cast<const int*>(std::declval<B&>().download(std::declval<const int*>(), std::size_t{1},
                                                                       std::declval<std::vector<int>&>())))
CGTB_BACKEND_TRAIT(has_check, std::declval<B&>().check("what"))

#undef CGTB_BACKEND_TRAIT

}  // namespace backend_traits

/// Fails to compile, with a message naming the member, unless B models the
/// Backend concept (the table at the top of this file).
template <class B>
constexpr bool check_backend() {
  using namespace backend_traits;
  // Its constants and memory.
  static_assert(has_chunk_size<B>::value, "a Backend needs static constexpr std::uint64_t chunk_size");
  static_assert(has_prefetch_batch<B>::value, "a Backend needs static constexpr int prefetch_batch");
  static_assert(has_host_visible<B>::value, "a Backend needs static constexpr bool host_visible");
  static_assert(has_buffer<B>::value, "a Backend needs template <class T> struct buffer with T* data() const");
  static_assert(has_staging<B>::value, "a Backend needs template <class T> struct staging (default-constructible)");
  // Its set-up and its threads.
  static_assert(has_options_constructor<B>::value, "a Backend needs a constructor from const solve_options&");
  static_assert(has_enter_thread<B>::value, "a Backend needs void enter_thread() const");
  static_assert(has_pipelined<B>::value, "a Backend needs bool pipelined() const");
  static_assert(has_available_bytes<B>::value, "a Backend needs std::size_t available_bytes() const");
  static_assert(has_memory_name<B>::value, "a Backend needs const char* memory_name() const");
  // Allocation, transfers and kernels.
  static_assert(has_allocate<B>::value, "a Backend needs template <class T> buffer<T> allocate(std::size_t n)");
  static_assert(has_copy_to_device<B>::value, "a Backend needs copy_to_device(T* dst, const T* src, std::size_t n)");
  static_assert(has_to_host<B>::value, "a Backend needs const T* to_host(const T*, std::size_t, staging<T>&)");
  static_assert(has_check<B>::value, "a Backend needs void check(const char* what)");
#ifndef __CUDACC__
  // nvcc reports a member function template instantiated only here as
  // declared but never referenced (#177): these three are checked by g++
  // (the CPU backend) and by their use in the CUDA backend.
  static_assert(has_with_policy<B>::value, "a Backend needs with_policy(std::uint64_t n, F f) calling f(policy)");
  static_assert(has_upload<B>::value, "a Backend needs buffer<T> upload(const std::vector<T>&)");
  static_assert(has_download<B>::value, "a Backend needs const T* download(const T*, std::size_t, std::vector<T>&)");
#endif
  return true;
}

}  // namespace cgtb::detail
