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

subset_byte_ranker::subset_byte_ranker(int n) : n_(n), bytes_((n + 7) / 8) {
  const std::vector<std::uint64_t> binom = make_binomial_table();
  const subset_index ix{binom.data(), n};
  table_.assign(static_cast<std::size_t>(bytes_) * static_cast<std::size_t>(n + 1) * 256, 0);
  for (int b = 0; b < bytes_; ++b)
    for (int t = 0; t <= n; ++t)
      for (unsigned v = 0; v < 256; ++v) {
        std::uint64_t sum = 0;
        int j = t;
        for (int i = 0; i < 8; ++i) {
          const int c = 8 * b + i;
          if (((v >> i) & 1u) && ++j <= c) sum += ix.choose(c, j);  // C(c, j) = 0 for j > c
        }
        table_[(static_cast<std::size_t>(b) * static_cast<std::size_t>(n + 1) + static_cast<std::size_t>(t)) * 256 +
               v] = sum;
      }
}

}  // namespace cgtb
