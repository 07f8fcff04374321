// The cgtb subcommands: one table (tools/commands.cpp) holds each command's
// name, arguments, the line `cgtb --help` lists it with, the description its
// own --help prints, and its entry point.
#pragma once

#include <cxxopts.hpp>
#include <string>
#include <vector>

namespace cgtb::tools {

/// One subcommand of `cgtb`. `run` takes the arguments after `cgtb` (argv[0]
/// is the command's name) and returns the exit status; bad input throws
/// cgtb::input_error, a resource that does not suffice cgtb::resource_error.
struct command {
  const char* name;
  const char* arguments;    ///< what follows the name, e.g. "FILE" or "GAME"
  const char* summary;      ///< one line for the list of `cgtb --help`
  const char* description;  ///< the text at the top of `cgtb NAME --help`
  int (*run)(int argc, char** argv);
};

/// Every command built into this cgtb, in the order `cgtb --help` lists them.
const std::vector<command>& command_table();

/// The command called `name`; throws input_error naming `cgtb --help` when
/// there is none.
const command& find_command(const std::string& name);

/// The option parser of command `name`: titled "cgtb NAME", with the
/// command's description from the table. Throws as find_command.
cxxopts::Options command_options(const std::string& name);

/// The list of commands for `cgtb --help`, one line each.
std::string command_list();

/// The entry point of a command (see command::run).
using command_entry = int(int argc, char** argv);

// One source file each, tools/cmd_NAME.cpp (build, plan, query, info and
// census: tools/cgtb.cpp); serve is built where cpp-httplib is found.
command_entry cmd_build, cmd_plan, cmd_query, cmd_info, cmd_census, cmd_verify, cmd_export, cmd_serve, cmd_sum,
    cmd_quotient, cmd_table, cmd_period, cmd_sequence, cmd_conjectures, cmd_classify, cmd_intervals, cmd_shares,
    cmd_search;

}  // namespace cgtb::tools
