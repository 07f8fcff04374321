// Shares of a keyed table's levels among the ranks of a distributed build
// (cgtb/rank_shares.hpp).
#include "cgtb/rank_shares.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "cgtb/error.hpp"
#include "cgtb/reachable_index.hpp"

namespace cgtb {

std::uint32_t hash_owner(std::uint64_t key, std::uint32_t ranks) {
  return static_cast<std::uint32_t>(hash_home(key, ranks));
}

std::vector<std::uint64_t> range_splitters(std::vector<std::uint64_t> sample, std::uint32_t ranks) {
  if (sample.empty() || ranks < 2) return std::vector<std::uint64_t>(ranks > 0 ? ranks - 1 : 0, ~std::uint64_t{0});
  std::vector<std::uint64_t> s;
  std::sort(sample.begin(), sample.end());
  for (std::uint32_t r = 1; r < ranks; ++r) s.push_back(sample[sample.size() * r / ranks]);
  return s;
}

std::uint32_t range_owner(const std::vector<std::uint64_t>& s, std::uint64_t key) {
  return static_cast<std::uint32_t>(std::upper_bound(s.begin(), s.end(), key) - s.begin());
}

bool split_across_ranks(std::uint64_t positions, std::uint32_t ranks, std::uint64_t min_per_rank) {
  return ranks > 1 && positions / ranks >= std::max<std::uint64_t>(min_per_rank, 1);
}

std::vector<rank_blocks> blocks_per_rank(const std::vector<std::uint64_t>& counts, std::uint64_t block_entries) {
  if (block_entries == 0) throw std::invalid_argument("blocks_per_rank: a block of no entries");
  const std::uint64_t b = block_entries;
  std::uint64_t n = 0;
  for (std::uint64_t c : counts) n += c;
  std::vector<rank_blocks> out(counts.size());
  std::uint64_t first = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    rank_blocks& k = out[r];
    k.first_rank = first;
    k.count = counts[r];
    const std::uint64_t end = first + counts[r];
    // The blocks whose first entry lies in [first, end).
    const std::uint64_t from = (first + b - 1) / b, to = (end + b - 1) / b;
    if (to > from) {
      k.first_block = from;
      k.blocks = to - from;
      k.borrowed = std::min(to * b, n) - end;
    }
    k.lent = std::min(counts[r], from * b - first);
    first = end;
  }
  return out;
}

namespace {
double ratio(std::uint64_t largest, const level_share& s) {
  return s.positions ? static_cast<double>(largest) * s.ranks / static_cast<double>(s.positions) : 0.0;
}
}  // namespace

double level_share::hash_ratio() const { return ratio(largest_by_hash, *this); }
double level_share::range_ratio() const { return ratio(largest_by_range, *this); }

std::vector<level_share> measure_shares(tablebase& tb, const share_options& opt) {
  if (!tb.keyed())
    throw input_error(tb.path() +
                      " has no keys: its index is the ruleset's own, so a distributed build would split its ranks "
                      "evenly without a table of shares");
  for (std::uint32_t p : opt.ranks)
    if (p == 0) throw input_error("a rank count must be at least 1");
  std::vector<level_share> all;
  std::vector<std::uint64_t> keys;
  for (const level_entry& le : tb.levels()) {
    keys.clear();
    keys.reserve(le.positions);
    for (std::uint64_t b = 0; b < le.blocks; ++b) {
      const decoded_block d = tb.read_block(le.first_block + b);
      keys.insert(keys.end(), d.keys.begin(), d.keys.end());
    }
    if (keys.size() != le.positions)
      throw corrupt_file_error(tb.path() + ": level " + std::to_string(le.level) + " holds " +
                               std::to_string(keys.size()) + " keys, its index says " + std::to_string(le.positions));
    std::vector<level_share> here;
    for (std::uint32_t p : opt.ranks) {
      level_share s;
      s.level = le.level;
      s.positions = le.positions;
      s.ranks = p;
      s.split = split_across_ranks(le.positions, p);
      std::vector<std::uint64_t> count(p, 0);
      for (std::uint64_t k : keys) ++count[hash_owner(k, p)];
      s.largest_by_hash = *std::max_element(count.begin(), count.end());
      // Splitters from a random sample of the level, as a distributed build
      // draws them from the classes its ranks generate; the keys are in file
      // order (ascending), so each range's share is a difference of ranks.
      std::vector<std::uint64_t> sample;
      if (!keys.empty()) {
        std::mt19937_64 rng(opt.seed * 1000003u + static_cast<std::uint64_t>(le.level) * 7919u + p);
        std::uniform_int_distribution<std::size_t> pick(0, keys.size() - 1);
        const std::uint64_t n = std::min<std::uint64_t>(keys.size(), opt.sample_per_rank * p);
        for (std::uint64_t i = 0; i < n; ++i) sample.push_back(keys[pick(rng)]);
      }
      const std::vector<std::uint64_t> split = range_splitters(sample, p);
      std::size_t from = 0;
      for (std::uint32_t r = 0; r < p; ++r) {
        const std::size_t to =
            r + 1 < p ? static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), split[r]) - keys.begin())
                      : keys.size();
        s.largest_by_range = std::max<std::uint64_t>(s.largest_by_range, to - std::min(from, to));
        from = std::max(from, to);
      }
      here.push_back(s);
    }
    if (opt.on_level) opt.on_level(here);
    all.insert(all.end(), here.begin(), here.end());
  }
  return all;
}

}  // namespace cgtb
