// GPU tests (label gpu): the CUDA backend gives byte-identical records to the
// CPU backend on every level of several games. Skipped where no GPU is present.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/games/domino_reachable.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"

namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/// Skips the test where no CUDA device is visible, or fails it where
/// CGTB_REQUIRE_GPU is set (tests/gpu/run.sh sets it: on the GPU machine a
/// device that cannot be seen is a failure, not a pass).
#define CGTB_NEED_GPU()                                                                          \
  do {                                                                                           \
    if (have_gpu()) break;                                                                       \
    int n_ = 0;                                                                                  \
    const cudaError_t e_ = cudaGetDeviceCount(&n_);                                              \
    if (std::getenv("CGTB_REQUIRE_GPU")) FAIL() << "no CUDA device: " << cudaGetErrorString(e_); \
    GTEST_SKIP() << "no CUDA device";                                                            \
  } while (0)

/// Every level's records (and keys, for a keyed index) as bytes. With
/// interned records, `dictionary_capacity` is the dictionary's starting size.
template <class Game, class Rule>
std::map<int, std::vector<unsigned char>> solve_bytes(const Game& g, cgtb::backend_kind b,
                                                      std::uint64_t dictionary_capacity = std::uint64_t{1} << 16) {
  std::map<int, std::vector<unsigned char>> out;
  cgtb::solve_options o;
  o.backend = b;
  o.dictionary_capacity = dictionary_capacity;
  cgtb::solve<Game, Rule>(g, o,
                          [&](const cgtb::level_report& r, const cgtb::level_records<typename Rule::record>& rec) {
                            for (std::uint64_t i = 0; i < r.positions; ++i) {
                              auto p = reinterpret_cast<const unsigned char*>(&rec[i]);
                              out[r.level].insert(out[r.level].end(), p, p + sizeof(typename Rule::record));
                            }
                            if (r.keys) {  // keyed index: the stored positions must agree too
                              auto k = reinterpret_cast<const unsigned char*>(r.keys);
                              out[r.level].insert(out[r.level].end(), k, k + r.positions * sizeof(std::uint64_t));
                            }
                          });
  return out;
}

/// Solves g on the CPU and on the CUDA backend (there from a record
/// dictionary of `cuda_dictionary_capacity` entries) and expects the same
/// bytes on every level. Returns the CPU's levels.
template <class Game, class Rule>
std::map<int, std::vector<unsigned char>> expect_cuda_matches_cpu(
    const Game& g, std::uint64_t cuda_dictionary_capacity = std::uint64_t{1} << 16) {
  auto cpu = solve_bytes<Game, Rule>(g, cgtb::backend_kind::cpu);
  auto gpu = solve_bytes<Game, Rule>(g, cgtb::backend_kind::cuda, cuda_dictionary_capacity);
  EXPECT_EQ(cpu.size(), gpu.size());
  for (const auto& [level, bytes] : cpu) EXPECT_EQ(bytes, gpu[level]) << "level " << level;
  return cpu;
}

class CramGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(CramGpu, CudaRecordsAreByteIdenticalToCpu) {
  CGTB_NEED_GPU();
  auto g = cgtb::cram::from_board_text(GetParam());
  using R = cgtb::impartial_rule<7>;
  expect_cuda_matches_cpu<cgtb::cram, R>(g);
}

INSTANTIATE_TEST_SUITE_P(Boards, CramGpu, ::testing::Values("1x12", "3x4", "4x5", "3x6", "5x5", "4x6"));

TEST_P(CramGpu, ReachableIndexKeysAndRecordsAreByteIdenticalToCpu) {
  CGTB_NEED_GPU();
  auto c = cgtb::cram::from_board_text(GetParam());
  const cgtb::cram_reachable g(c, c.rows() == c.cols() ? "square" : "rectangle");
  using R = cgtb::impartial_rule<7>;
  expect_cuda_matches_cpu<cgtb::cram_reachable, R>(g);
}

TEST(DomineeringGpu, ReachableIndexKeysAndRecordsAreByteIdenticalToCpu) {
  CGTB_NEED_GPU();
  const cgtb::domineering_reachable g(cgtb::domineering(5, 5), "rectangle");
  using R = cgtb::partizan_rule;
  expect_cuda_matches_cpu<cgtb::domineering_reachable, R>(g);
}

TEST(CramGpu, PipelinedLevelsOfAReachableTableAreByteIdenticalToCpu) {
  // Cram 5x6: levels of over 65,536 stored positions, copied to the host on
  // the staging streams and consumed while the next levels solve.
  CGTB_NEED_GPU();
  auto c = cgtb::cram::from_board_text("5x6");
  const cgtb::cram_reachable g(c, "rectangle");
  using R = cgtb::impartial_rule<7>;
  const auto cpu = expect_cuda_matches_cpu<cgtb::cram_reachable, R>(g);
  std::size_t large = 0;
  for (const auto& [level, bytes] : cpu)
    large += bytes.size() >= (std::size_t{1} << 16) * (sizeof(R::record) + sizeof(std::uint64_t));
  EXPECT_GE(large, 3u) << "the table should have levels the pipeline hands over";
}

TEST(CramGpu, ADictionaryThatGrowsDuringTheSolveGivesTheCpuRecords) {
  // From one entry the record dictionary fills on most levels; the kernel
  // then solves again only the positions whose record found no entry, with
  // many device threads interning at once.
  CGTB_NEED_GPU();
  auto c = cgtb::cram::from_board_text("5x5");
  const cgtb::cram_reachable g(c, "square");
  using R = cgtb::impartial_rule<7>;
  expect_cuda_matches_cpu<cgtb::cram_reachable, R>(g, 1);
}

TEST(CramGpu, DeviceMemoryIsGivenBackWhenTheSolveEnds) {
  // Buffers come from the stream-ordered pool, which keeps freed memory
  // during a solve; the backend trims it at the end.
  CGTB_NEED_GPU();
  auto c = cgtb::cram::from_board_text("5x5");
  const cgtb::cram_reachable g(c, "square");
  std::size_t free_before = 0, free_after = 0, total = 0;
  solve_bytes<cgtb::cram_reachable, cgtb::impartial_rule<7>>(g, cgtb::backend_kind::cuda);  // first-use costs
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  solve_bytes<cgtb::cram_reachable, cgtb::impartial_rule<7>>(g, cgtb::backend_kind::cuda);
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_GE(free_after + (std::size_t{16} << 20), free_before) << "device memory kept after the solve";
}

}  // namespace
