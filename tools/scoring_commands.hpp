// Subcommands of `cgtb` for scoring play (Stewart's thesis, chapters 3-4): table,
// period and conjectures. Each takes the arguments after the command name
// (argv[0] is the command) and returns the exit status; bad input throws
// cgtb::input_error.
#pragma once

namespace cgtb::tools {

/// `cgtb table FILE --rows A..B --cols C..D [--csv]` (tools/cmd_table.cpp).
int cmd_table(int argc, char** argv);
/// `cgtb period FILE [--rows A..B]` (tools/cmd_period.cpp).
int cmd_period(int argc, char** argv);
/// `cgtb conjectures ...` (tools/cmd_conjectures.cpp).
int cmd_conjectures(int argc, char** argv);

}  // namespace cgtb::tools
