// Option parsing shared by the cgtb subcommands.
#pragma once

#include <cxxopts.hpp>
#include <string>

namespace cgtb::tools {

/// Parses a subcommand's arguments (argv[0] is the command): adds -h/--help,
/// which prints the help and `extra` and exits 0, and refuses an option given
/// twice (cxxopts would keep one of the two without a word). Throws
/// input_error, or cxxopts' exceptions for unknown options.
cxxopts::ParseResult parse_or_help(cxxopts::Options& o, int argc, char** argv, const std::string& extra = "");

/// The same for `cgtb COMMAND FILE [options]`: adds the positional FILE
/// (described as `what`, e.g. "scoring tablebase") and throws input_error when
/// it is missing or another argument follows it. The file is r["file"].
cxxopts::ParseResult parse_file_command(cxxopts::Options& o, int argc, char** argv, const std::string& command,
                                        const std::string& what = "tablebase");

}  // namespace cgtb::tools
