// Chooses the backend at run time and holds the host-only helpers of the
// backend interface.
#include <cstdlib>  // defines __GLIBC__ on glibc
#include <mutex>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "games.hpp"

namespace cgtb {

namespace detail {
template <class Game, class Rule>
void solve_cpu(const Game&, const solve_options&, const level_consumer<typename Rule::record>&);
#ifdef CGTB_HAVE_CUDA
template <class Game, class Rule>
void solve_cuda(const Game&, const solve_options&, const level_consumer<typename Rule::record>&);
#endif
}  // namespace detail

backend_kind parse_backend(const std::string& name) {
  if (name == "cpu") return backend_kind::cpu;
  if (name == "cuda" || name == "gpu") return backend_kind::cuda;
  throw input_error("unknown backend '" + name + "' (expected cpu or cuda)");
}

const char* backend_name(backend_kind b) { return b == backend_kind::cpu ? "cpu" : "cuda"; }

bool cuda_backend_compiled() {
#ifdef CGTB_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

void require_backend(backend_kind b) {
  if (b == backend_kind::cuda && !cuda_backend_compiled())
    throw input_error("--backend cuda: this cgtb was built without the CUDA backend (no nvcc at configure time)");
}

namespace {

/// Has glibc serve every allocation of 1 MB and more from its own mapping,
/// given back to the system when freed. By default glibc raises that
/// threshold (up to 32 MB) each time such a block is freed, after which the
/// solver's level buffers come from the heap and stay resident when freed:
/// builds peaked up to 40 % over their plans (`cgtb plan`), which count live
/// buffers only (docs/performance.md, "The forward pass's compaction").
void give_freed_buffers_back() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] { mallopt(M_MMAP_THRESHOLD, 1 << 20); });
#endif
}

}  // namespace

template <class Game, class Rule>
void solve(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) {
  give_freed_buffers_back();
  require_backend(opts.backend);
#ifdef CGTB_HAVE_CUDA
  if (opts.backend == backend_kind::cuda) return detail::solve_cuda<Game, Rule>(game, opts, consume);
#endif
  detail::solve_cpu<Game, Rule>(game, opts, consume);
}

#define CGTB_SOLVE(G, R) \
  template void solve<G, R>(const G&, const solve_options&, const level_consumer<typename R::record>&);
#include "cgtb/instantiations.inc"
#undef CGTB_SOLVE

}  // namespace cgtb
