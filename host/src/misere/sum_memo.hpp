// The memo of the misère sum search (sum_search.cpp): sums already decided.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "component_source.hpp"

namespace cgtb::misere_detail {

/// Sums already decided: each a sorted list of components with its outcome,
/// in one arena, found by open addressing over full keys (no false match).
class sum_memo {
 public:
  /// The outcome of the sum s[0..n): 1 = the player to move wins, 0 =
  /// loses, -1 = not in the memo.
  int find(const component* s, std::size_t n) const {
    if (slots_.empty()) return -1;
    const std::uint64_t h = hash(s, n);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const std::uint64_t e = slots_[i];
      if (!e) return -1;
      const std::uint64_t off = (e & kOffsetMask) - 1;
      if ((e >> 40) == (h >> 40) && same(off, s, n)) return static_cast<int>(arena_[off] & 1);
    }
  }
  /// Records the outcome of the sum s[0..n) (not in the memo yet).
  void insert(const component* s, std::size_t n, bool win) {
    if ((entries_ + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash(s, n);
    const std::uint64_t off = arena_.size();
    arena_.push_back((static_cast<std::uint64_t>(n) << 1) | (win ? 1 : 0));
    arena_.insert(arena_.end(), s, s + n);
    std::size_t i = h & mask_;
    while (slots_[i]) i = (i + 1) & mask_;
    slots_[i] = (h >> 40 << 40) | (off + 1);
    ++entries_;
  }
  /// Forgets every sum and frees the memory.
  void clear() {
    std::vector<std::uint64_t>().swap(slots_);
    std::vector<std::uint64_t>().swap(arena_);
    entries_ = 0;
    mask_ = 0;
  }
  /// Sums held now.
  std::size_t entries() const { return entries_; }
  /// Bytes the memo holds now.
  std::size_t bytes() const { return (slots_.capacity() + arena_.capacity()) * sizeof(std::uint64_t); }

 private:
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << 40) - 1;
  static std::uint64_t hash(const component* s, std::size_t n) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (std::size_t i = 0; i < n; ++i) {
      h ^= s[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  }
  bool same(std::uint64_t off, const component* s, std::size_t n) const {
    if ((arena_[off] >> 1) != n) return false;
    return std::equal(s, s + n, arena_.begin() + static_cast<std::ptrdiff_t>(off + 1));
  }
  void grow() {
    const std::size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
    std::vector<std::uint64_t> old(size, 0);
    old.swap(slots_);
    mask_ = size - 1;
    for (std::uint64_t e : old) {
      if (!e) continue;
      const std::uint64_t off = (e & kOffsetMask) - 1;
      std::size_t i = hash(&arena_[off + 1], arena_[off] >> 1) & mask_;
      while (slots_[i]) i = (i + 1) & mask_;
      slots_[i] = e;
    }
  }
  std::vector<std::uint64_t> slots_;  // (hash tag << 40) | (arena offset + 1); 0 = empty
  std::vector<std::uint64_t> arena_;
  std::size_t entries_ = 0, mask_ = 0;
};

}  // namespace cgtb::misere_detail
