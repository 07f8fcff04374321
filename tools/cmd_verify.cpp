// `cgtb verify FILE`: re-derives a tablebase's values from the stored values
// of the positions' options with code independent of the solver
// (cgtb/verify.hpp).
#include <cxxopts.hpp>
#include <iomanip>
#include <iostream>

#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"
#include "cgtb/verify.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_verify(int argc, char** argv) {
  cxxopts::Options o = command_options("verify");
  o.add_options()("sample", "check N random positions per level (0 = every position)",
                  cxxopts::value<std::uint64_t>()->default_value("0"))(
      "seed", "seed of the sample", cxxopts::value<std::uint64_t>()->default_value("1"))(
      "deep",
      "derive the genus from each position's whole game tree instead of its options' stored genus, and parse "
      "back every option's text (slow; the default check is already complete)")(
      "threads", "worker threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))(
      "no-genus", "leave the genus out: check the other values")(
      "max-memory",
      "memory for the levels decoded into memory, e.g. 18G (default: half the memory available; levels past it "
      "are read through the file, slower); with --deep --sample, for the states of the sample's followers too "
      "(levels past it are then checked without the genus)",
      cxxopts::value<std::string>())(
      "resume",
      "keep a checkpoint beside the table after each level (FILE.verify-checkpoint) and continue from the one a "
      "stopped run of the same options left; removed when the run ends")("q,quiet", "no progress lines");
  auto r = tools::parse_file_command(o, argc, argv, "verify");
  if (r["threads"].as<int>() < 0) throw input_error("--threads must be 0 or more");
  verify_options opt;
  opt.sample = r["sample"].as<std::uint64_t>();
  opt.seed = r["seed"].as<std::uint64_t>();
  opt.threads = r["threads"].as<int>();
  opt.genus = !r.count("no-genus");
  opt.deep = r.count("deep") > 0;
  opt.resume = r.count("resume") > 0;
  if (r.count("max-memory")) opt.genus_memory = opt.level_memory = parse_bytes(r["max-memory"].as<std::string>());
  opt.progress = r.count("quiet") ? nullptr : &stderr_progress();
  const std::string path = r["file"].as<std::string>();
  const verify_report rep = verify_tablebase(path, opt);
  if (!rep.failure.empty()) {
    std::cout << path << ": INCONSISTENT after " << rep.positions << " positions: " << rep.failure << "\n";
    return 1;
  }
  std::string fields;
  for (const auto& f : rep.fields) fields += (fields.empty() ? "" : ",") + f;
  // A deep sampled genus check derives the states of every follower the
  // sample needs (the genus of a position rests on its whole game tree), so
  // its options are those of the followers too.
  const bool followers = opt.deep && opt.sample && fields.find("genus") != std::string::npos;
  std::cout << path << ": OK: " << rep.positions << (opt.sample ? " sampled" : "")
            << " positions agree with the values derived from "
            << (followers  ? "the options of their followers ("
                : opt.deep ? "their "
                           : "the stored values of their ")
            << rep.options << " options" << (followers ? " read)" : "") << " (" << fields << ")";
  if (rep.genus_left_out_from >= 0)
    std::cout << "; genus compared on " << rep.genus_positions << " positions: every one checked below level "
              << rep.genus_left_out_from << ", none above it (the states of level " << rep.genus_left_out_from
              << "'s sample pass the memory allowed, --max-memory)";
  if (!rep.period.empty())
    std::cout << "; the other " << rep.period_checked
              << " heaps checked against the period the stored values prove (octal periodicity theorem): "
              << rep.period;
  if (rep.exact_index) std::cout << "; every stored position is reachable";
  std::cout << "; " << std::fixed << std::setprecision(2) << rep.seconds << " s\n";
  return 0;
}

}  // namespace cgtb::tools
