// CUDA backend: the level kernel on Thrust's CUDA system, compiled by nvcc.
// Device memory is taken with plain cudaMalloc (never managed memory).
#include <cuda_runtime.h>
#include <thrust/system/cuda/execution_policy.h>

#include "cuda_error.hpp"
#include "games.hpp"
#include "solve_driver.hpp"

namespace cgtb::detail {

namespace {

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
    ~buffer() {
      if (p) cudaFree(p);
    }
    T* data() const { return p; }
  };

  explicit cuda_backend(const solve_options&) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) throw input_error("--backend cuda: no CUDA device is present");
  }
  /// Calls f(policy) with the Thrust policy for a level (always the device).
  template <class F>
  void with_policy(std::uint64_t, F&& f) const {
    f(thrust::cuda::par);
  }
  std::size_t available_bytes() const {
    std::size_t free_b = 0, total = 0;
    cuda_check(cudaMemGetInfo(&free_b, &total), "cudaMemGetInfo");
    return free_b;
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
  template <class T>
  void copy_to_device(T* dst, const T* src, std::size_t n) {
    cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy", "to the device");
  }
  template <class T>
  const T* to_host(const buffer<T>& b, std::size_t n, std::vector<T>& staging) {
    staging.resize(n);
    cuda_check(cudaMemcpy(staging.data(), b.data(), n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy",
               "to the host");
    return staging.data();
  }
  /// Whether the host can read this backend's buffers (then the solver fills
  /// them in place instead of copying).
  static constexpr bool host_visible = false;
  void check(const char* what) {
    cuda_check(cudaGetLastError(), "cudaGetLastError", what);
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", what);
  }
};

}  // namespace

template <class Game, class Rule>
void solve_cuda(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) {
  solve_with<cuda_backend, Game, Rule>(game, opts, consume);
}

#define CGTB_SOLVE(G, R) \
  template void solve_cuda<G, R>(const G&, const solve_options&, const level_consumer<typename R::record>&);
#include "cgtb/instantiations.inc"
#undef CGTB_SOLVE

}  // namespace cgtb::detail
