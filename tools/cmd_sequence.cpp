// `cgtb sequence FILE`: the values of an octal Grundy sequence, one heap per
// line or as CSV (cgtb/octal_sequence.hpp).
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/octal_sequence.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_sequence(int argc, char** argv) {
  cxxopts::Options o = command_options("sequence");
  o.add_options()("from", "first heap", cxxopts::value<long long>()->default_value("0"))(
      "to", "last heap (default: the last of the file)", cxxopts::value<long long>())(
      "csv", "CSV with a header row: n,grundy");
  auto r = parse_file_command(o, argc, argv, "sequence", "octal sequence");
  tablebase tb(r["file"].as<std::string>(), std::size_t{64} << 20);
  driver_for_analysis(tb, "sequence");
  const std::vector<std::uint16_t> s = read_octal_sequence(tb);
  const long long last = static_cast<long long>(s.size()) - 1;
  const long long from = r["from"].as<long long>(), to = r.count("to") ? r["to"].as<long long>() : last;
  if (to < from)
    throw input_error("--from " + std::to_string(from) + " is past --to " + std::to_string(to) +
                      " (give the smaller heap first)");
  if (from < 0 || to > last)
    throw input_error("--from " + std::to_string(from) + " --to " + std::to_string(to) +
                      " is not a range of the file's heaps 0.." + std::to_string(last));
  std::string out;
  if (r.count("csv")) {
    out = "n,grundy\n";
    for (long long n = from; n <= to; ++n) out += std::to_string(n) + "," + std::to_string(s[n]) + "\n";
  } else {
    for (long long n = from; n <= to; ++n)
      out += std::to_string(s[n]) + ((n - from) % 20 == 19 || n == to ? "\n" : " ");
  }
  std::cout << out;
  return 0;
}

}  // namespace cgtb::tools
