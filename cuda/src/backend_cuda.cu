// CUDA backend: the level kernel on Thrust's CUDA system, compiled by nvcc.
// Device memory comes from the device's stream-ordered pool (never managed
// memory); see cuda_backend.
#include <cuda_runtime.h>
#include <thrust/system/cuda/execution_policy.h>

#include <vector>

#include "cuda_error.hpp"
#include "games.hpp"
#include "level_loop.hpp"

namespace cgtb::detail {

namespace {

/// Device memory comes from the device's stream-ordered pool, told to keep
/// what the levels free (release threshold: everything) so that each level's
/// buffers and Thrust's temporaries reuse it instead of calling cudaMalloc;
/// the pool is trimmed when the solve ends. Kernels run on the legacy default
/// stream; a solved level's copy to the host runs on a non-blocking stream of
/// its own, in pinned memory, and so overlaps the kernels of the next levels.
struct cuda_backend {
  static constexpr std::uint64_t chunk_size = 1;
  /// Prefetch hint (cgtb/prefetch.hpp): none; other warps hide the latency
  /// of a thread's reads.
  static constexpr int prefetch_batch = 0;

  template <class T>
  struct buffer {
    T* p = nullptr;
    buffer() = default;
    explicit buffer(T* q) : p(q) {}
    buffer(buffer&& o) noexcept : p(o.p) { o.p = nullptr; }
    buffer& operator=(buffer&& o) noexcept {
      std::swap(p, o.p);
      return *this;
    }
    ~buffer() { cuda_release(p); }
    T* data() const { return p; }
  };

  /// A pinned host buffer and the non-blocking stream its copies run on
  /// (to_host); grown, never shrunk, while the solve runs.
  template <class T>
  struct staging {
    T* p = nullptr;
    std::size_t capacity = 0;
    cudaStream_t stream = nullptr;
    staging() = default;
    staging(const staging&) = delete;
    staging& operator=(const staging&) = delete;
    ~staging() {
      if (stream) (void)cudaStreamSynchronize(stream);
      if (p) (void)cudaFreeHost(p);
      if (stream) (void)cudaStreamDestroy(stream);
    }
  };

  explicit cuda_backend(const solve_options&) {
    require_cuda_device();
    if (!cuda_pools_supported()) return;  // plain cudaMalloc per buffer (cuda_allocate)
    int device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetDefaultMemPool(&pool_, device), "cudaDeviceGetDefaultMemPool");
    std::uint64_t keep = ~std::uint64_t{0};
    cuda_check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
  }
  ~cuda_backend() {
    if (pool_ && cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess) (void)cudaMemPoolTrimTo(pool_, 0);
  }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;

  /// Per-thread set-up of a thread that calls to_host: none (the runtime
  /// makes the device's primary context current in every thread).
  void enter_thread() const {}
  /// Whether solved levels may be copied and written on the level
  /// pipeline's thread beside the solve: always (the host is idle otherwise).
  bool pipelined() const { return true; }

  /// Thrust's temporary storage (sort, count, compaction) from the pool.
  struct temporary_allocator {
    using value_type = char;
    char* allocate(std::ptrdiff_t n) { return static_cast<char*>(cuda_allocate(static_cast<std::size_t>(n))); }
    void deallocate(char* p, std::size_t) { cuda_release(p); }
  };
  /// Calls f(policy) with the Thrust policy for a level (always the device).
  template <class F>
  void with_policy(std::uint64_t, F&& f) const {
    f(thrust::cuda::par(temporaries_));
  }
  /// Free device memory: what the driver reports, plus what the pool holds
  /// unused.
  std::size_t available_bytes() const {
    std::size_t free_b = 0, total = 0;
    cuda_check(cudaMemGetInfo(&free_b, &total), "cudaMemGetInfo");
    if (!pool_) return free_b;
    std::uint64_t reserved = 0, used = 0;
    cuda_check(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved), "cudaMemPoolGetAttribute");
    cuda_check(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemCurrent, &used), "cudaMemPoolGetAttribute");
    return free_b + static_cast<std::size_t>(reserved > used ? reserved - used : 0);
  }
  const char* memory_name() const { return "device"; }

  template <class T>
  buffer<T> allocate(std::size_t n) {
    return buffer<T>(static_cast<T*>(cuda_allocate(n * sizeof(T))));
  }
  template <class T>
  buffer<T> upload(const std::vector<T>& v) {
    auto b = allocate<T>(v.size());
    copy_to_device(b.data(), v.data(), v.size());
    return b;
  }
  /// Copies to the device on the legacy default stream (ordered with the
  /// kernels; not with the staging streams).
  template <class T>
  void copy_to_device(T* dst, const T* src, std::size_t n) {
    cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy", "to the device");
  }
  /// Copies n values at device address d into s (on s's own stream) and
  /// returns them; the kernels that wrote them must have finished (check()
  /// returned after them). Safe to call from the level pipeline's thread
  /// while this thread's kernels run: a copy waits for nothing but itself.
  template <class T>
  const T* to_host(const T* d, std::size_t n, staging<T>& s) {
    if (!s.stream) cuda_check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    if (n > s.capacity) {
      cuda_check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize", "staging");
      if (s.p) cuda_check(cudaFreeHost(s.p), "cudaFreeHost");
      s.p = nullptr;
      s.capacity = 0;
      // Levels grow towards the middle of the game: room for half as much
      // again, so that the buffer is not freed and pinned anew every level.
      std::size_t room = n + n / 2;
      void* q = nullptr;
      if (cudaMallocHost(&q, room * sizeof(T)) != cudaSuccess) {
        (void)cudaGetLastError();
        room = n;
        if (cudaMallocHost(&q, room * sizeof(T)) != cudaSuccess) {
          (void)cudaGetLastError();
          throw resource_error("cannot allocate " + std::to_string(n * sizeof(T)) + " bytes of pinned host memory");
        }
      }
      s.p = static_cast<T*>(q);
      s.capacity = room;
    }
    cuda_check(cudaMemcpyAsync(s.p, d, n * sizeof(T), cudaMemcpyDeviceToHost, s.stream), "cudaMemcpyAsync",
               "to the host");
    cuda_check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize", "to the host");
    return s.p;
  }
  /// A one-off host copy of n values at device address d, into `out`
  /// (pageable memory, resized to n; a synchronous copy on the legacy
  /// stream, after this thread's kernels); returns out.data(). For copies
  /// the host waits for anyway, where pinning would buy nothing.
  template <class T>
  const T* download(const T* d, std::size_t n, std::vector<T>& out) {
    out.resize(n);
    cuda_check(cudaMemcpy(out.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy", "to the host");
    return out.data();
  }
  /// Whether the host can read this backend's buffers (then the solver fills
  /// them in place instead of copying).
  static constexpr bool host_visible = false;
  /// Waits for this thread's kernels (the legacy default stream only: copies
  /// on the staging streams go on).
  void check(const char* what) {
    cuda_check(cudaGetLastError(), "cudaGetLastError", what);
    cuda_check(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize", what);
  }

 private:
  cudaMemPool_t pool_ = nullptr;
  mutable temporary_allocator temporaries_;
};

}  // namespace

CGTB_DEFINE_SOLVE_ON(solve_cuda, cuda_backend)
#define CGTB_SOLVE(G, R) CGTB_SOLVE_ON(solve_cuda, G, R)
#include "cgtb/instantiations.inc"
#undef CGTB_SOLVE

}  // namespace cgtb::detail
