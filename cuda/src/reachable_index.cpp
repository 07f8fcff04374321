#include "cgtb/reachable_index.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cgtb/error.hpp"

namespace cgtb {

board_symmetry board_symmetry::make(int rows, int cols, const std::string& group) {
  board_symmetry s;
  // Cell maps as (row, col) -> (row', col').
  std::vector<int> kinds;  // bit 0: mirror columns, bit 1: mirror rows, bit 2: transpose first
  if (group == "none") {
    kinds = {0};
    s.name = "none";
  } else if (group == "rectangle") {
    kinds = {0, 1, 2, 3};
    s.name = "rectangle-4";
  } else if (group == "square") {
    if (rows != cols) throw input_error("the square's symmetries need a square board");
    kinds = {0, 1, 2, 3, 4, 5, 6, 7};
    s.name = "square-8";
  } else {
    throw input_error("unknown symmetry group '" + group + "'");
  }
  // Each distinct cell map once, the identity first: on a strip the mirror
  // across it is the identity (and the half turn the other mirror), on a
  // single cell every map is.
  s.count = 0;
  s.image_bit.assign(kinds.size() * 64, 0);
  for (const int kind : kinds) {
    const auto map = s.image_bit.begin() + static_cast<std::ptrdiff_t>(s.count) * 64;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        int rr = r, cc = c;
        if (kind & 4) std::swap(rr, cc);
        if (kind & 1) cc = cols - 1 - cc;
        if (kind & 2) rr = rows - 1 - rr;
        map[r * cols + c] = 1ull << (rr * cols + cc);
      }
    bool seen = false;
    for (int j = 0; j < s.count && !seen; ++j)
      seen = std::equal(map, map + 64, s.image_bit.begin() + static_cast<std::ptrdiff_t>(j) * 64);
    if (!seen) ++s.count;
  }
  s.image_bit.resize(static_cast<std::size_t>(s.count) * 64);
  return s;
}

}  // namespace cgtb

namespace cgtb {

namespace {
/// Bits of the low part for n keys below `universe`: ⌊log2(universe / n)⌋ − 1
/// (2 to 4 buckets a key), at least 0.
int low_bits_for(std::uint64_t n, std::uint64_t universe) {
  int l = 0;
  while (n && l < 62 && (universe >> (l + 1)) >= n) ++l;
  return l > 0 ? l - 1 : 0;
}
}  // namespace

double elias_fano_bytes(double n, double universe) {
  if (n < 1) return 0;
  int l = 0;
  while (l < 62 && universe / std::ldexp(1.0, l + 1) >= n) ++l;
  l = l > 0 ? l - 1 : 0;
  const double zeros = universe / std::ldexp(1.0, l) + 1;
  return (n * l + n + zeros) / 8 + (n / 256 + zeros / 64) * 8 + 32;
}

elias_fano_builder::elias_fano_builder(std::uint64_t n, std::uint64_t largest) {
  k_.size = n;
  k_.low_bits = low_bits_for(n, largest == ~0ull ? largest : largest + 1);
  k_.buckets = n ? (largest >> k_.low_bits) + 1 : 0;
  k_.upper.assign((n + k_.buckets) / 64 + 2, 0);
  k_.lower.assign(n * static_cast<std::uint64_t>(k_.low_bits) / 64 + 2, 0);
}

void elias_fano_builder::push(std::uint64_t key) {
  if (pushed_ == k_.size || (pushed_ && key <= last_) || (key >> k_.low_bits) >= k_.buckets)
    throw std::logic_error("elias_fano_builder: key " + std::to_string(key) + " out of order or range");
  const std::uint64_t pos = (key >> k_.low_bits) + pushed_;
  k_.upper[pos >> 6] |= 1ull << (pos & 63);
  if (k_.low_bits) {
    const std::uint64_t low = key & ((1ull << k_.low_bits) - 1);
    const std::uint64_t bit = pushed_ * static_cast<std::uint64_t>(k_.low_bits), w = bit >> 6;
    const int off = static_cast<int>(bit & 63);
    k_.lower[w] |= low << off;
    if (off + k_.low_bits > 64) k_.lower[w + 1] |= low >> (64 - off);
  }
  last_ = key;
  ++pushed_;
}

elias_fano_keys elias_fano_builder::finish() {
  if (pushed_ != k_.size)
    throw std::logic_error("elias_fano_builder: " + std::to_string(pushed_) + " keys pushed, " +
                           std::to_string(k_.size) + " announced");
  // Select samples: the position of every 256th one and every 64th zero.
  const std::uint64_t bits = k_.size + k_.buckets;
  k_.ones.reserve(k_.size / 256 + 1);
  k_.zeros.reserve(k_.buckets / 64 + 1);
  std::uint64_t ones = 0, zeros = 0;
  for (std::uint64_t w = 0; w * 64 < bits; ++w) {
    const std::uint64_t word = k_.upper[w];
    const int n = static_cast<int>(std::min<std::uint64_t>(64, bits - w * 64));
    const std::uint64_t valid = n == 64 ? ~0ull : (1ull << n) - 1;
    const int c1 = popcount64(word & valid), c0 = n - c1;
    for (std::uint64_t j = (ones + 255) / 256 * 256; j < ones + static_cast<std::uint64_t>(c1); j += 256)
      k_.ones.push_back(w * 64 + static_cast<std::uint64_t>(select_in_word(word, static_cast<int>(j - ones))));
    for (std::uint64_t j = (zeros + 63) / 64 * 64; j < zeros + static_cast<std::uint64_t>(c0); j += 64)
      k_.zeros.push_back(w * 64 +
                         static_cast<std::uint64_t>(select_in_word(~word & valid, static_cast<int>(j - zeros))));
    ones += static_cast<std::uint64_t>(c1);
    zeros += static_cast<std::uint64_t>(c0);
  }
  if (k_.ones.empty()) k_.ones.push_back(0);
  if (k_.zeros.empty()) k_.zeros.push_back(0);
  return std::move(k_);
}

void elias_fano_keys::decode(std::uint64_t first, std::uint64_t count, std::uint64_t* out) const {
  view().for_each_key(first, first + count, [&](std::uint64_t r, std::uint64_t key) { out[r - first] = key; });
}

elias_fano_keys encode_keys(const std::uint64_t* k, std::uint64_t n) {
  elias_fano_builder b(n, n ? k[n - 1] : 0);
  for (std::uint64_t i = 0; i < n; ++i) b.push(k[i]);
  return b.finish();
}

elias_fano_keys merge_key_runs(const std::vector<elias_fano_keys>& runs) {
  std::uint64_t n = 0, largest = 0;
  for (const auto& r : runs)
    if (r.size) {
      n += r.size;
      largest = std::max(largest, r.view().key(r.size - 1));
    }
  elias_fano_builder b(n, largest);
  struct cursor {
    std::vector<std::uint64_t> buf;
    std::uint64_t next = 0, at = 0;
  };
  std::vector<cursor> cur(runs.size());
  constexpr std::uint64_t chunk = 1 << 16;
  auto head = [&](std::size_t i) -> const std::uint64_t* {
    cursor& c = cur[i];
    if (c.at == c.buf.size()) {
      const std::uint64_t m = std::min(chunk, runs[i].size - c.next);
      if (!m) return nullptr;
      c.buf.resize(m);
      runs[i].decode(c.next, m, c.buf.data());
      c.next += m;
      c.at = 0;
    }
    return &c.buf[c.at];
  };
  for (std::uint64_t done = 0; done < n; ++done) {
    std::size_t best = runs.size();
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::uint64_t* h = head(i);
      if (h && (best == runs.size() || *h < key)) {
        best = i;
        key = *h;
      }
    }
    b.push(key);
    ++cur[best].at;
  }
  return b.finish();
}

}  // namespace cgtb
