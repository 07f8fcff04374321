#include "cgtb/subset_index.hpp"

namespace cgtb {

std::vector<std::uint64_t> make_binomial_table() {
  std::vector<std::uint64_t> t(static_cast<std::size_t>(kMaxCells + 1) * kBinomStride, 0);
  for (int c = 0; c <= kMaxCells; ++c) {
    t[static_cast<std::size_t>(c) * kBinomStride] = 1;
    for (int j = 1; j <= c; ++j)
      t[static_cast<std::size_t>(c) * kBinomStride + j] =
          t[static_cast<std::size_t>(c - 1) * kBinomStride + j - 1] +
          (j <= c - 1 ? t[static_cast<std::size_t>(c - 1) * kBinomStride + j] : 0);
  }
  return t;
}

}  // namespace cgtb
