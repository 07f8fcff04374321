// Owner functions of a distributed build and the shares they give
// (cgtb/rank_shares.hpp, `cgtb shares`), against counts made here key by key.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/rank_shares.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

using cgtb::level_share;
using namespace cgtb_test;
__extension__ typedef unsigned __int128 u128;

/// Builds the reachable classes of Cram `board` (a keyed table) at `path`.
void build_reachable(const std::string& board, const std::string& path) {
  const cli_result r = run_cgtb({"build", "cram", "--board", board, "--positions", "reachable", "--values", "normal",
                                 "--block-entries", "256", "-q", "-o", path});
  ASSERT_EQ(r.code, 0) << describe(r);
}

/// Every key of level `le`, one reader lookup at a time.
std::vector<std::uint64_t> keys_of(cgtb::tablebase& tb, const cgtb::level_entry& le) {
  std::vector<std::uint64_t> k;
  for (std::uint64_t r = 0; r < le.positions; ++r) k.push_back(tb.key_of(le.level, r));
  return k;
}

TEST(RankShares, HashSharesEqualACountOfEveryKeysOwner) {
  temp_dir dir;
  const std::string path = dir.file("c45.cgtb");
  build_reachable("4x5", path);
  cgtb::tablebase tb(path, 0);
  ASSERT_TRUE(tb.keyed());
  cgtb::share_options opt;
  opt.ranks = {1, 2, 3, 7};
  const std::vector<level_share> shares = cgtb::measure_shares(tb, opt);
  ASSERT_EQ(shares.size(), tb.levels().size() * opt.ranks.size());
  std::size_t i = 0;
  for (const auto& le : tb.levels()) {
    const std::vector<std::uint64_t> keys = keys_of(tb, le);
    for (std::uint32_t p : opt.ranks) {
      const level_share& s = shares[i++];
      ASSERT_EQ(s.level, le.level);
      ASSERT_EQ(s.ranks, p);
      // The owner as the scaled high bits of the mixed key, in 128-bit
      // arithmetic.
      std::map<unsigned, std::uint64_t> count;
      for (std::uint64_t k : keys) {
        const unsigned owner = static_cast<unsigned>((static_cast<u128>(cgtb::mix64(k)) * p) >> 64);
        ASSERT_LT(owner, p);
        EXPECT_EQ(cgtb::hash_owner(k, p), owner);
        ++count[owner];
      }
      std::uint64_t largest = 0;
      for (const auto& [owner, n] : count) largest = std::max(largest, n);
      EXPECT_EQ(s.largest_by_hash, largest) << "level " << le.level << ", " << p << " ranks";
      // Some rank holds at least the mean under ranges too; one rank all.
      EXPECT_GE(s.largest_by_range * p, le.positions);
      EXPECT_LE(s.largest_by_range, le.positions);
      if (p == 1) {
        EXPECT_EQ(s.largest_by_range, le.positions);
      }
      EXPECT_EQ(s.split, p > 1 && le.positions / p >= 4096);
    }
  }
}

TEST(RankShares, SplittersFromEveryKeyShareTheLevelWithinOneKeyOfTheMean) {
  temp_dir dir;
  const std::string path = dir.file("c45.cgtb");
  build_reachable("4x5", path);
  cgtb::tablebase tb(path, 0);
  for (const auto& le : tb.levels()) {
    const std::vector<std::uint64_t> keys = keys_of(tb, le);
    for (std::uint32_t p : {1u, 2u, 5u, 16u}) {
      const std::vector<std::uint64_t> s = cgtb::range_splitters(keys, p);
      ASSERT_EQ(s.size(), p - 1);
      std::vector<std::uint64_t> count(p, 0);
      for (std::uint64_t k : keys) {
        const std::uint32_t owner = cgtb::range_owner(s, k);
        ASSERT_LT(owner, p);
        // Rank r owns [s[r-1], s[r]).
        if (owner > 0) {
          EXPECT_GE(k, s[owner - 1]);
        }
        if (owner + 1 < p) {
          EXPECT_LT(k, s[owner]);
        }
        ++count[owner];
      }
      for (std::uint64_t n : count) {
        EXPECT_LE(n, keys.size() / p + 1) << "level " << le.level << ", " << p;
      }
    }
  }
}

TEST(RankShares, CommandPrintsTheWorstShareAndRefusesAFileWithoutKeys) {
  temp_dir dir;
  const std::string path = dir.file("c55.cgtb");
  build_reachable("5x5", path);
  const cli_result r = run_cgtb({"shares", path, "--ranks", "2,4"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("worst"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("P=4"), std::string::npos) << r.out;
  const std::string octal = dir.file("o.cgtb");
  const cli_result b = run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "50", "-o", octal});
  ASSERT_EQ(b.code, 0) << describe(b);
  const cli_result s = run_cgtb({"shares", octal});
  EXPECT_NE(s.code, 0);
  EXPECT_NE(s.err.find("has no keys"), std::string::npos) << describe(s);
  const cli_result z = run_cgtb({"shares", path, "--ranks", "0"});
  EXPECT_NE(z.code, 0) << describe(z);
}

}  // namespace

namespace {

// Block b holds level ranks [b*B, (b+1)*B) and is written by the owner of
// its first entry; every rank's blocks, lent and borrowed entries counted
// entry by entry.
TEST(RankShares, BlocksPerRankAgreeWithAnEntryByEntryCount) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint64_t block = 1 + rng() % 9;
    std::vector<std::uint64_t> counts(1 + rng() % 6);
    for (auto& c : counts) c = rng() % 4 == 0 ? 0 : rng() % 25;
    std::vector<std::uint32_t> owner;
    for (std::uint32_t r = 0; r < counts.size(); ++r) owner.insert(owner.end(), counts[r], r);
    const std::vector<cgtb::rank_blocks> k = cgtb::blocks_per_rank(counts, block);
    ASSERT_EQ(k.size(), counts.size());
    std::vector<std::vector<std::uint64_t>> written(counts.size());
    std::vector<std::uint64_t> lent(counts.size(), 0), borrowed(counts.size(), 0);
    for (std::uint64_t i = 0; i < owner.size(); ++i) {
      const std::uint64_t b = i / block;
      const std::uint32_t writer = owner[b * block];
      if (i % block == 0) written[writer].push_back(b);
      if (writer != owner[i]) {
        ++lent[owner[i]];
        ++borrowed[writer];
      }
    }
    std::uint64_t first = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      EXPECT_EQ(k[r].first_rank, first);
      EXPECT_EQ(k[r].count, counts[r]);
      first += counts[r];
      ASSERT_EQ(k[r].blocks, written[r].size()) << "trial " << trial << ", rank " << r;
      for (std::uint64_t j = 0; j < written[r].size(); ++j) EXPECT_EQ(written[r][j], k[r].first_block + j);
      EXPECT_EQ(k[r].lent, lent[r]) << "trial " << trial << ", rank " << r;
      EXPECT_EQ(k[r].borrowed, borrowed[r]) << "trial " << trial << ", rank " << r;
    }
  }
  EXPECT_THROW(cgtb::blocks_per_rank({1, 2}, 0), std::invalid_argument);
}

}  // namespace
