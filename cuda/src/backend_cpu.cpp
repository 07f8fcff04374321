// CPU backend: the level kernel on Thrust's OpenMP system, compiled by g++
// with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP.
#include <omp.h>
#include <sys/mman.h>
#include <thrust/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <type_traits>
#include <vector>

#include "games.hpp"
#include "level_loop.hpp"

namespace cgtb::detail {

namespace {
std::size_t meminfo_available_bytes();
}

std::size_t host_available_bytes() { return meminfo_available_bytes(); }

void* allocate_host_pages(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t{2} << 20;
  bytes = std::max<std::size_t>(bytes, 1);
  void* p = nullptr;
  if (posix_memalign(&p, bytes >= huge ? huge : 64, bytes) != 0 || !p)
    throw resource_error("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
#ifdef MADV_HUGEPAGE
  if (bytes >= huge) madvise(p, bytes / huge * huge, MADV_HUGEPAGE);
#endif
  return p;
}

void free_deleter::operator()(void* p) const { std::free(p); }

namespace {

/// Bytes of memory the kernel may still take: MemAvailable of /proc/meminfo.
std::size_t meminfo_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(size);
}

struct cpu_backend {
  static constexpr std::uint64_t chunk_size = 256;
  /// Prefetch hint (cgtb/prefetch.hpp): a thread's reads of option records
  /// and hash slots are latency-bound, so 16 addresses are prefetched before
  /// they are read, and their cache misses overlap.
  static constexpr int prefetch_batch = 16;

  template <class T>
  struct buffer {
    std::unique_ptr<T, detail::free_deleter> p;
    T* data() const { return p.get(); }
  };

  explicit cpu_backend(const solve_options& o) : max_memory(o.max_memory), threads(o.threads) { enter_thread(); }
  /// Gives the calling thread's OpenMP teams the size of --threads (an
  /// OpenMP setting is per thread: the level pipeline's thread calls it too).
  void enter_thread() const {
    if (threads > 0) omp_set_num_threads(threads);
  }
  /// Whether solved levels may be written on the level pipeline's thread
  /// beside the solve: not when --threads 1 asks for one thread.
  bool pipelined() const { return threads != 1; }
  std::size_t max_memory;
  int threads;
  /// Levels below this many positions run on the calling thread: for them an
  /// OpenMP team costs more than it saves (barrier spinning, worse under load).
  static constexpr std::uint64_t parallel_threshold = 1u << 14;

  /// Calls f(policy) with the Thrust policy for a level of n positions.
  template <class F>
  void with_policy(std::uint64_t n, F&& f) const {
    if (n < parallel_threshold)
      f(thrust::seq);
    else
      f(thrust::omp::par);
  }
  std::size_t available_bytes() const {
    const std::size_t a = host_available_bytes();
    return max_memory ? std::min(a, max_memory) : a;
  }
  const char* memory_name() const { return "host"; }

  /// Uninitialised memory for n values of a trivial type
  /// (detail::allocate_host_pages: huge pages from 2 MB on).
  template <class T>
  buffer<T> allocate(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    return {std::unique_ptr<T, detail::free_deleter>(static_cast<T*>(detail::allocate_host_pages(n * sizeof(T))))};
  }
  template <class T>
  buffer<T> upload(const std::vector<T>& v) {
    auto b = allocate<T>(v.size());
    std::copy(v.begin(), v.end(), b.data());
    return b;
  }
  template <class T>
  void copy_to_device(T* dst, const T* src, std::size_t n) {
    std::copy(src, src + n, dst);
  }
  /// Host copies of buffers: none needed, the host reads the buffers.
  template <class T>
  struct staging {};
  /// The host's view of n values at p: p itself.
  template <class T>
  const T* to_host(const T* p, std::size_t, staging<T>&) {
    return p;
  }
  /// A one-off host copy of n values at p (download): p itself.
  template <class T>
  const T* download(const T* p, std::size_t, std::vector<T>&) {
    return p;
  }
  /// Whether the host can read this backend's buffers (then the solver fills
  /// them in place instead of copying).
  static constexpr bool host_visible = true;
  void check(const char*) {}
};

}  // namespace

CGTB_DEFINE_SOLVE_ON(solve_cpu, cpu_backend)
#define CGTB_SOLVE(G, R) CGTB_SOLVE_ON(solve_cpu, G, R)
#include "cgtb/instantiations.inc"
#undef CGTB_SOLVE

}  // namespace cgtb::detail
