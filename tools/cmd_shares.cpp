// `cgtb shares FILE`: how evenly the classes of each level of a keyed table
// would be shared among the ranks of a distributed build, by hash or by key
// ranges (cgtb/rank_shares.hpp; docs/distributed.md).
#include <algorithm>
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
namespace {
/// Appends a column to `line`: `text` padded to 15 characters after a
/// 10-character gap.
void column(std::string& line, const std::string& text) {
  line += std::string(10, ' ') + text + std::string(text.size() < 15 ? 15 - text.size() : 0, ' ');
}
/// Prints `line` without its trailing blanks.
void print_line(std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  std::printf("%s\n", line.c_str());
}
}  // namespace

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
  char head[64];
  std::snprintf(head, sizeof head, "%5s %14s", "level", "classes");
  std::string line = head;
  for (std::uint32_t p : opt.ranks) {
    const std::string name = "P=" + std::to_string(p);
    line += std::string(name.size() < 9 ? 9 - name.size() : 0, ' ') + name + " hash | ranges ";
  }
  print_line(line);
  std::vector<double> worst_hash(opt.ranks.size(), 0), worst_range(opt.ranks.size(), 0);
  opt.on_level = [&](const std::vector<level_share>& shares) {
    if (shares.empty()) return;
    char lead[64];
    std::snprintf(lead, sizeof lead, "%5d %14llu", shares[0].level,
                  static_cast<unsigned long long>(shares[0].positions));
    std::string row = lead;
    for (std::size_t i = 0; i < shares.size(); ++i) {
      const level_share& s = shares[i];
      if (!s.split) {
        column(row, "-");
        continue;
      }
      worst_hash[i] = std::max(worst_hash[i], s.hash_ratio());
      worst_range[i] = std::max(worst_range[i], s.range_ratio());
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.3f | %.3f", s.hash_ratio(), s.range_ratio());
      column(row, cell);
    }
    print_line(row);
    std::fflush(stdout);
  };
  measure_shares(tb, opt);
  std::snprintf(head, sizeof head, "%5s %14s", "worst", "");
  line = head;
  for (std::size_t i = 0; i < opt.ranks.size(); ++i) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%.3f | %.3f", worst_hash[i], worst_range[i]);
    column(line, worst_hash[i] > 0 ? cell : "-");
  }
  print_line(line);
  return 0;
}

}  // namespace cgtb::tools
