// Conjecture checks (cgtb/conjectures.hpp) on Thrust's CUDA system: one
// thread per game, device memory from the device's pool (cuda_allocate).
#include <cuda_runtime.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include "cgtb/conjectures.hpp"
#include "cgtb/error.hpp"
#include "cuda_error.hpp"

namespace cgtb::detail {

namespace {

template <class T>
struct device_buffer {
  T* p = nullptr;
  explicit device_buffer(std::size_t n) : p(static_cast<T*>(cuda_allocate(n * sizeof(T)))) {}
  ~device_buffer() { cuda_release(p); }
};

template <class F>
void launch(std::uint64_t n, const F& f) {
  thrust::for_each(thrust::cuda::par, thrust::counting_iterator<std::uint64_t>(0),
                   thrust::counting_iterator<std::uint64_t>(n), f);
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", "conjecture kernel");
}

}  // namespace

void run_subtraction_check_cuda(int k, int bound, subtraction_result* out) {
  require_cuda_device();
  const std::uint64_t n = std::uint64_t{1} << (k - 1);
  device_buffer<subtraction_result> d(n);
  launch(n, subtraction_check{k, bound, d.p});
  cuda_check(cudaMemcpy(out, d.p, n * sizeof(subtraction_result), cudaMemcpyDeviceToHost), "cudaMemcpy", "to the host");
}

void run_code_check_cuda(int K, int bound, code_result* out, int rows) {
  require_cuda_device();
  const std::uint64_t n = std::uint64_t{1} << (2 * K);
  device_buffer<code_result> d(n);
  launch(n, code_check{K, bound, d.p, rows});
  cuda_check(cudaMemcpy(out, d.p, n * sizeof(code_result), cudaMemcpyDeviceToHost), "cudaMemcpy", "to the host");
}

void run_selective_check_cuda(int k, int bound, int rows, std::int32_t* out) {
  require_cuda_device();
  const std::uint64_t items = (std::uint64_t{1} << k) - 1;
  const std::uint64_t per = static_cast<std::uint64_t>(2 * rows) * static_cast<std::uint64_t>(bound + 1);
  device_buffer<std::int16_t> scratch(items * per);
  device_buffer<std::int32_t> d(items * static_cast<std::uint64_t>(rows) * 4);
  launch(items, selective_check{k, bound, rows, scratch.p, d.p});
  cuda_check(cudaMemcpy(out, d.p, items * rows * 4 * sizeof(std::int32_t), cudaMemcpyDeviceToHost), "cudaMemcpy",
             "to the host");
}

}  // namespace cgtb::detail
