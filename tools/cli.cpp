// Option parsing shared by the cgtb subcommands (tools/cli.hpp).
#include "cli.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"

namespace cgtb::tools {

cxxopts::ParseResult parse_or_help(cxxopts::Options& o, int argc, char** argv, const std::string& extra) {
  o.add_options()("h,help", "show this help");
  auto r = o.parse(argc, argv);
  if (r.count("help")) {
    std::cout << o.help() << extra;
    std::exit(0);
  }
  refuse_repeated_options(r);
  return r;
}

cxxopts::ParseResult parse_file_command(cxxopts::Options& o, int argc, char** argv, const std::string& command,
                                        const std::string& what) {
  o.positional_help("FILE");
  o.add_options()("file", what, cxxopts::value<std::string>());
  o.parse_positional({"file"});
  auto r = parse_or_help(o, argc, argv);
  if (!r.count("file")) throw input_error(command + " needs a " + what + " file (cgtb " + command + " FILE)");
  if (!r.unmatched().empty())
    throw input_error(command + " takes one " + what + " file; unexpected '" + r.unmatched()[0] + "'");
  return r;
}

}  // namespace cgtb::tools
