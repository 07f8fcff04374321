// cgtb_bench: lookup latency of a tablebase (cold and warm), and the cost of a
// full query (values, outcome, winning moves) through the game driver.
//
//   cgtb_bench FILE [LOOKUPS] [--positions N]
// prints figures; with --positions N it instead writes N random positions of
// the file's game (one per line) to stdout, for `cgtb query FILE < list`.
// CGTB_CACHE_MB sets the decompressed-block cache (default 1024, as cgtb
// query --cache-mb).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace {

using namespace cgtb;
using clock_type = std::chrono::steady_clock;

struct sample {
  int level;
  std::uint64_t rank;
  std::uint64_t key;  ///< the file key (keyed tables): what a driver's position_ref holds
};

/// n positions drawn uniformly from every position the file holds.
std::vector<sample> random_positions(const tablebase& tb, std::size_t n, std::uint64_t seed) {
  std::vector<double> weights;
  for (const auto& l : tb.levels()) weights.push_back(static_cast<double>(l.positions));
  std::mt19937_64 rng(seed);
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  std::vector<sample> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& l = tb.levels()[pick(rng)];
    const std::uint64_t r = std::uniform_int_distribution<std::uint64_t>(0, l.positions - 1)(rng);
    out.push_back({l.level, r, r});
  }
  return out;
}

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) {
      std::cerr << "usage: cgtb_bench FILE [LOOKUPS] | cgtb_bench FILE --positions N\n";
      return 2;
    }
    const char* cache_mb = std::getenv("CGTB_CACHE_MB");
    tablebase tb(argv[1], (cache_mb ? std::stoull(cache_mb) : 1024) << 20);
    auto drv = driver_for_header(tb.header());
    // Keyed tables (reachable domino tables): a lookup is the key's rank (a
    // search of the level's keys) and then the entry, both timed.
    const bool keyed = tb.keyed();
    auto with_keys = [&](std::vector<sample> list) {
      if (keyed)
        for (auto& s : list) s.key = tb.key_of(s.level, s.rank);
      return list;
    };
    if (argc >= 4 && std::string(argv[2]) == "--positions") {
      // Emit positions as text via unrank in the driver's own notation.
      auto list = with_keys(random_positions(tb, std::stoull(argv[3]), 7));
      std::ostringstream out;
      for (const auto& s : list) out << drv->format(s.level, s.key) << "\n";
      std::cout << out.str();
      return 0;
    }
    const std::size_t n = argc >= 3 ? std::stoull(argv[2]) : 1000000;
    auto list = with_keys(random_positions(tb, n, 1));
    std::int64_t v[kMaxFields];
    std::uint64_t sink = 0;
    auto lookup = [&](const sample& s) {
      const std::uint64_t r = keyed ? static_cast<std::uint64_t>(tb.rank_of_key(s.level, s.key)) : s.rank;
      tb.entry(s.level, r, v);
      sink += static_cast<std::uint64_t>(v[0]);
    };

    auto t0 = clock_type::now();
    for (const auto& s : list) lookup(s);
    double cold = seconds_since(t0);
    t0 = clock_type::now();
    for (const auto& s : list) lookup(s);
    double warm = seconds_since(t0);

    std::ostringstream null_out;
    const std::size_t nq = std::min<std::size_t>(n, 200000);
    t0 = clock_type::now();
    for (std::size_t i = 0; i < nq; ++i) {
      const auto& s = list[i];
      drv->query(tb, drv->parse(drv->format(s.level, s.key)), false, null_out);
      if (null_out.tellp() > (1 << 20)) null_out.str("");
    }
    double full = seconds_since(t0);

    std::printf("file: %s (%s %s, %zu fields)\n", argv[1], tb.header().ruleset.c_str(), tb.header().params.c_str(),
                tb.header().fields.size());
    if (keyed)
      std::printf("keyed index (%s, %s): each lookup includes the key's rank\n", tb.header().positions.c_str(),
                  tb.header().symmetry.c_str());
    std::printf("block cache: %llu MB\n", static_cast<unsigned long long>(cache_mb ? std::stoull(cache_mb) : 1024));
    std::printf("random lookups, first pass (blocks decompressed on demand): %zu in %.3f s, %.2f us each\n", n, cold,
                1e6 * cold / static_cast<double>(n));
    std::printf("random lookups, warm (blocks cached):                       %zu in %.3f s, %.3f us each\n", n, warm,
                1e6 * warm / static_cast<double>(n));
    std::printf("full queries (parse, values, winning moves, text), warm:   %zu in %.3f s, %.2f us each\n", nq, full,
                1e6 * full / static_cast<double>(nq));
    std::printf("(checksum %llu)\n", static_cast<unsigned long long>(sink));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "cgtb_bench: error: " << e.what() << "\n";
    return 2;
  }
}
