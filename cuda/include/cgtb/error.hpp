// Error types shared by every layer.
#pragma once

#include <stdexcept>
#include <string>

namespace cgtb {

/// Bad input from the user: a malformed position, an impossible board, an
/// unknown ruleset, a corrupt or truncated file. The CLI prints the message on
/// one line and exits with status 2.
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file that opens but is not sound: a tablebase, checkpoint or saved-keys
/// file with a bad magic, a checksum that does not hold, a truncation, an
/// unsupported format version, a block that does not decode. An input_error
/// (the CLI's exit status 2); the Python module raises cgtb.CorruptFileError.
struct corrupt_file_error : input_error {
  using input_error::input_error;
};

/// A resource limit was hit (a level that does not fit in memory, a value that
/// does not fit its field). The CLI prints the message and exits with status 3.
struct resource_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A failure that is neither bad input nor a resource limit: a bug, or a
/// failing call into the CUDA runtime (the message names the call). The CLI
/// prints `cgtb: internal error: ...` and exits with status 1, as for any
/// other unexpected exception.
struct internal_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cgtb
