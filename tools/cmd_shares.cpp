// `cgtb shares FILE`: how evenly the classes of each level of a keyed table
// would be shared among the ranks of a distributed build, by hash or by key
// ranges (cgtb/rank_shares.hpp; docs/distributed.md).
#include <cstdio>
#include <cxxopts.hpp>
#include <iostream>
#include <string>

#include "cgtb/rank_shares.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_shares(int argc, char** argv) {
  cxxopts::Options o = command_options("shares");
  o.add_options()("ranks", "rank counts, comma-separated", cxxopts::value<std::string>()->default_value("16,64,256"))(
      "sample-per-rank", "keys sampled per rank for the range splitters",
      cxxopts::value<std::string>()->default_value("4096"))("seed", "seed of the sample",
                                                            cxxopts::value<std::string>()->default_value("1"));
  auto r = parse_file_command(o, argc, argv, "shares", "keyed tablebase (reachable Cram or Domineering)");
  share_options opt;
  opt.ranks.clear();
  for (const std::string& p : split_text(r["ranks"].as<std::string>(), ','))
    opt.ranks.push_back(static_cast<std::uint32_t>(parse_integer(p, "--ranks", 1, 1 << 20)));
  opt.sample_per_rank = static_cast<std::uint64_t>(
      parse_integer(r["sample-per-rank"].as<std::string>(), "--sample-per-rank", 1, 1 << 20));
  opt.seed = static_cast<std::uint64_t>(parse_integer(r["seed"].as<std::string>(), "--seed", 0, 1L << 62));
  tablebase tb(r["file"].as<std::string>(), std::size_t{64} << 20);
  std::printf(
      "largest rank's share / mean share, per level (by hash of the key | by key ranges, %llu keys "
      "sampled per rank); '-' levels are solved on one rank\n",
      static_cast<unsigned long long>(opt.sample_per_rank));
  std::printf("%5s %14s", "level", "classes");
  for (std::uint32_t p : opt.ranks) std::printf("   %6s %-15s", ("P=" + std::to_string(p)).c_str(), "hash | ranges");
  std::printf("\n");
  std::vector<double> worst_hash(opt.ranks.size(), 0), worst_range(opt.ranks.size(), 0);
  opt.on_level = [&](const std::vector<level_share>& shares) {
    if (shares.empty()) return;
    std::printf("%5d %14llu", shares[0].level, static_cast<unsigned long long>(shares[0].positions));
    for (std::size_t i = 0; i < shares.size(); ++i) {
      const level_share& s = shares[i];
      if (!s.split) {
        std::printf("   %6s %-15s", "", "-");
        continue;
      }
      worst_hash[i] = std::max(worst_hash[i], s.hash_ratio());
      worst_range[i] = std::max(worst_range[i], s.range_ratio());
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.3f | %.3f", s.hash_ratio(), s.range_ratio());
      std::printf("   %6s %-15s", "", cell);
    }
    std::printf("\n");
    std::fflush(stdout);
  };
  measure_shares(tb, opt);
  std::printf("%5s %14s", "worst", "");
  for (std::size_t i = 0; i < opt.ranks.size(); ++i) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%.3f | %.3f", worst_hash[i], worst_range[i]);
    std::printf("   %6s %-15s", "", worst_hash[i] > 0 ? cell : "-");
  }
  std::printf("\n");
  return 0;
}

}  // namespace cgtb::tools
