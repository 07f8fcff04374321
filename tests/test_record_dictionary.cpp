// The record dictionary of interned records (cgtb/record_dictionary.hpp):
// concurrent inserts give every record an id whose entry is that record, a
// full dictionary says so, and a solve whose dictionary starts with one entry
// (and so grows many times, solving levels again) gives the same records as
// one that never grows, and the same values as the rules without a genus.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/build.hpp"
#include "cgtb/games/domino_reachable.hpp"
#include "cgtb/record_dictionary.hpp"
#include "cgtb/rules/impartial.hpp"

namespace {

using genus_rule = cgtb::impartial_rule<7>;
using genus_record = genus_rule::record;

static_assert(cgtb::interned_record<genus_rule>::value, "the genus rule's records are interned");
static_assert(!cgtb::interned_record<cgtb::impartial_rule<0>>::value, "2-byte records are stored as they are");

std::string bytes_of(const genus_record& r) { return std::string(reinterpret_cast<const char*>(&r), sizeof r); }

/// A record determined by k: few distinct ones among many draws.
genus_record record_of(std::uint64_t k) {
  genus_record r;
  std::memset(&r, 0, sizeof r);
  r.g = static_cast<std::uint8_t>(k % 7);
  for (int s = 0; s < genus_rule::states; ++s) r.m[s] = static_cast<std::uint8_t>((k * 2654435761u >> (s % 13)) % 5);
  return r;
}

struct dictionary_memory {
  std::vector<std::uint64_t> slots;
  std::vector<genus_record> entries;
  unsigned long long count = 0;
  explicit dictionary_memory(std::uint64_t capacity) : slots(2 * capacity, 0), entries(capacity) {}
  cgtb::record_dictionary<genus_record> view() {
    return {slots.data(), slots.size(), entries.data(), entries.size(), &count};
  }
};

TEST(RecordDictionary, ConcurrentInsertsGiveEveryRecordAnIdWhoseEntryIsThatRecord) {
  dictionary_memory mem(4096);
  const auto dict = mem.view();
  const std::int64_t draws = 200000;
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(draws));
  for (std::int64_t i = 0; i < draws; ++i)
    keys[static_cast<std::size_t>(i)] = (static_cast<std::uint64_t>(i) * 7919) % 997;
  std::vector<std::uint32_t> ids(keys.size());
  int full = 0;
#pragma omp parallel for num_threads(4) schedule(dynamic, 64)
  for (std::int64_t i = 0; i < draws; ++i)
    ids[static_cast<std::size_t>(i)] = dict.intern(record_of(keys[static_cast<std::size_t>(i)]), &full);
  EXPECT_EQ(full, 0);
  std::set<std::string> distinct, named;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    distinct.insert(bytes_of(record_of(keys[i])));
    ASSERT_LT(ids[i], mem.count);
    ASSERT_EQ(bytes_of(mem.entries[ids[i]]), bytes_of(record_of(keys[i]))) << "draw " << i;
    named.insert(bytes_of(mem.entries[ids[i]]));
  }
  EXPECT_EQ(named, distinct);
  // Entries are only wasted when two threads insert the same new record at once.
  EXPECT_GE(mem.count, distinct.size());
  EXPECT_LT(mem.count, 2 * distinct.size());
  // Inserting again finds every record: no entry is added.
  const unsigned long long before = mem.count;
  for (std::uint64_t k = 0; k < 997; ++k)
    EXPECT_EQ(bytes_of(mem.entries[dict.intern(record_of(k), &full)]), bytes_of(record_of(k)));
  EXPECT_EQ(mem.count, before);
}

TEST(RecordDictionary, AFullDictionarySaysSo) {
  dictionary_memory mem(4);
  const auto dict = mem.view();
  int full = 0;
  for (std::uint64_t k = 0; k < 4; ++k) dict.intern(record_of(k), &full);
  EXPECT_EQ(full, 0);
  dict.intern(record_of(2), &full);  // known: no new entry
  EXPECT_EQ(full, 0);
  EXPECT_EQ(dict.intern(record_of(9), &full), cgtb::kNoRecordId);
  EXPECT_EQ(full, 1);
  // Known records are still found while the dictionary is full.
  EXPECT_EQ(bytes_of(mem.entries[dict.intern(record_of(3), &full)]), bytes_of(record_of(3)));
}

TEST(RecordDictionary, ReinsertedEntriesAreFoundUnderTheirIds) {
  dictionary_memory small(16);
  int full = 0;
  std::vector<std::uint32_t> ids;
  for (std::uint64_t k = 0; k < 16; ++k) ids.push_back(small.view().intern(record_of(k), &full));
  dictionary_memory big(64);
  std::copy(small.entries.begin(), small.entries.end(), big.entries.begin());
  big.count = small.count;
  for (std::uint64_t id = 0; id < small.count; ++id) big.view().reinsert(id);
  for (std::uint64_t k = 0; k < 16; ++k) EXPECT_EQ(big.view().intern(record_of(k), &full), ids[k]);
  EXPECT_EQ(big.count, small.count);
  EXPECT_EQ(full, 0);
}

/// Records of every level, read through the consumer's view, with the
/// dictionary's entry count after the last level and the times it grew.
template <class Game, class Rule>
std::map<int, std::vector<typename Rule::record>> solve_records(const Game& g, std::uint64_t capacity, int threads,
                                                                std::uint64_t* entries = nullptr,
                                                                int* growths = nullptr) {
  std::map<int, std::vector<typename Rule::record>> out;
  cgtb::solve_options o;
  o.threads = threads;
  o.dictionary_capacity = capacity;
  cgtb::solve<Game, Rule>(g, o,
                          [&](const cgtb::level_report& rep, const cgtb::level_records<typename Rule::record>& rec) {
                            EXPECT_EQ(rec.ids != nullptr, cgtb::interned_record<Rule>::value);
                            for (std::uint64_t i = 0; i < rep.positions; ++i) out[rep.level].push_back(rec[i]);
                            if (entries) *entries = rep.dictionary_entries;
                            if (growths) *growths += rep.dictionary_growths;
                          });
  return out;
}

template <class Game>
void expect_growth_changes_nothing(const Game& g) {
  std::uint64_t entries = 0;
  int growths = 0;
  const auto once = solve_records<Game, genus_rule>(g, 1 << 16, 0, &entries, &growths);
  EXPECT_GT(entries, 8u);
  EXPECT_EQ(growths, 0);
  for (int threads : {1, 2, 4}) {
    // From one entry the dictionary grows on several levels, and each time
    // solves again only the positions whose record found no entry.
    growths = 0;
    const auto grown = solve_records<Game, genus_rule>(g, 1, threads, nullptr, &growths);
    EXPECT_GE(growths, 3);
    ASSERT_EQ(grown.size(), once.size());
    for (const auto& [level, recs] : once) {
      ASSERT_EQ(grown.at(level).size(), recs.size());
      for (std::size_t i = 0; i < recs.size(); ++i)
        ASSERT_EQ(bytes_of(grown.at(level)[i]), bytes_of(recs[i])) << "level " << level << " rank " << i;
    }
  }
  // G and G- of the genus records are those of the rules that store their
  // records as they are.
  const auto plain = solve_records<Game, cgtb::impartial_rule<0>>(g, 0, 0);
  for (const auto& [level, recs] : once)
    for (std::size_t i = 0; i < recs.size(); ++i) {
      ASSERT_EQ(recs[i].g, plain.at(level)[i].g);
      ASSERT_EQ(recs[i].misere(0), plain.at(level)[i].misere(0));
    }
}

TEST(InternedSolve, AReachableCramSolveThatGrowsItsDictionaryGivesTheSameRecords) {
  expect_growth_changes_nothing(cgtb::cram_reachable(cgtb::cram(4, 5), "rectangle"));
}

TEST(InternedSolve, AnAllRegionsCramSolveThatGrowsItsDictionaryGivesTheSameRecords) {
  expect_growth_changes_nothing(cgtb::cram(3, 5));
}

TEST(InternedSolve, BuildStatsNameTheLevelsWhereTheDictionaryGrew) {
  std::vector<cgtb::level_report> reports;
  cgtb::solve_options o;
  o.dictionary_capacity = 1;
  cgtb::solve<cgtb::cram_reachable, genus_rule>(
      cgtb::cram_reachable(cgtb::cram(4, 5), "rectangle"), o,
      [&](const cgtb::level_report& rep, const cgtb::level_records<genus_record>&) { reports.push_back(rep); });
  std::string levels;
  int times = 0, grown_levels = 0;
  for (const auto& r : reports)
    if (r.dictionary_growths) {
      levels += (levels.empty() ? " " : ", ") + std::to_string(r.level);
      times += r.dictionary_growths;
      ++grown_levels;
    }
  ASSERT_GE(grown_levels, 2);
  std::ostringstream out;
  cgtb::print_build_stats(out, reports, 1.0, "x.cgtb", 1, true);
  EXPECT_NE(out.str().find("grown " + std::to_string(times) + " times (while solving levels" + levels + ")\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
