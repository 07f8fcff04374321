// Conjecture checks (cgtb/conjectures.hpp) on Thrust's OpenMP system, and the
// run-time choice of backend.
#include <omp.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include <memory>

#include "cgtb/conjectures.hpp"
#include "cgtb/error.hpp"

namespace cgtb {

namespace detail {
#ifdef CGTB_HAVE_CUDA
void run_subtraction_check_cuda(int k, int bound, subtraction_result* out);
void run_code_check_cuda(int K, int bound, code_result* out, int rows);
void run_selective_check_cuda(int k, int bound, int rows, std::int32_t* out);
#endif
}  // namespace detail

/// The call of a CUDA check, where the CUDA backend is built.
#ifdef CGTB_HAVE_CUDA
#define CGTB_ON_CUDA(call) call
#else
#define CGTB_ON_CUDA(call)
#endif

namespace {

template <class F>
void for_each_cpu(const solve_options& opts, std::uint64_t n, const F& f) {
  if (opts.threads > 0) omp_set_num_threads(opts.threads);
  thrust::for_each(thrust::omp::par, thrust::counting_iterator<std::uint64_t>(0),
                   thrust::counting_iterator<std::uint64_t>(n), f);
}

void check_k(int k, int lo, int hi, const char* what) {
  if (k < lo || k > hi)
    throw input_error(std::string(what) + " " + std::to_string(k) + " is outside " + std::to_string(lo) + ".." +
                      std::to_string(hi));
}

/// Runs a check on the backend opts.backend names, as the solver chooses it
/// (require_backend): `on_cuda()` on the CUDA backend, `on_cpu()` on the
/// host.
template <class OnCuda, class OnCpu>
void run_on_backend(const solve_options& opts, [[maybe_unused]] OnCuda on_cuda, OnCpu on_cpu) {
  require_backend(opts.backend);
#ifdef CGTB_HAVE_CUDA
  if (opts.backend == backend_kind::cuda) return on_cuda();
#endif
  on_cpu();
}

}  // namespace

void run_subtraction_check(int k, int bound, const solve_options& opts, subtraction_result* out) {
  check_k(k, 1, kMaxConjectureK, "k");
  run_on_backend(
      opts, [&] { CGTB_ON_CUDA(detail::run_subtraction_check_cuda(k, bound, out)); },
      [&] {
        for_each_cpu(opts, std::uint64_t{1} << (k - 1), subtraction_check{k, bound, out});
      });
}

void run_code_check(int K, int bound, const solve_options& opts, code_result* out, int rows) {
  check_k(K, 1, 15, "code length");
  check_k(rows, 1, kMaxCodeRows, "rows");
  run_on_backend(
      opts, [&] { CGTB_ON_CUDA(detail::run_code_check_cuda(K, bound, out, rows)); },
      [&] {
        for_each_cpu(opts, std::uint64_t{1} << (2 * K), code_check{K, bound, out, rows});
      });
}

void run_selective_check(int k, int bound, int rows, const solve_options& opts, std::int32_t* out) {
  check_k(k, 1, 16, "k");
  if (bound < 3 || rows < 1) throw input_error("selective check needs --bound >= 3 and --rows >= 1");
  const double scratch_bytes = 4.0 * rows * (bound + 1.0) * static_cast<double>((std::uint64_t{1} << k) - 1);
  if (scratch_bytes > 4e9)
    throw input_error("selective check: k = " + std::to_string(k) + ", " + std::to_string(rows) + " rows and bound " +
                      std::to_string(bound) + " need " + std::to_string(static_cast<long long>(scratch_bytes / 1e6)) +
                      " MB of scratch; lower -k, --rows or --bound");
  run_on_backend(
      opts, [&] { CGTB_ON_CUDA(detail::run_selective_check_cuda(k, bound, rows, out)); },
      [&] {
        const std::uint64_t items = (std::uint64_t{1} << k) - 1;
        const std::uint64_t per = static_cast<std::uint64_t>(2 * rows) * static_cast<std::uint64_t>(bound + 1);
        std::unique_ptr<std::int16_t[]> scratch(new std::int16_t[items * per]);
        for_each_cpu(opts, items, selective_check{k, bound, rows, scratch.get(), out});
      });
}

}  // namespace cgtb
