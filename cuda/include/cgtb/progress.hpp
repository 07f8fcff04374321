// Progress lines as a type: every long computation (the solver, the forward
// pass, a build, an octal sequence, a verification) reports to a
// progress_sink, never to a file descriptor. The command-line tool prints
// them on stderr (stderr_progress); the Python module hands them to a
// callback; tests collect them.
#pragma once

#include <cstdint>
#include <string>

namespace cgtb {

/// Where progress goes. Implementations must be thread-safe: the solving
/// thread and the level pipeline's thread both report.
class progress_sink {
 public:
  virtual ~progress_sink() = default;
  /// A finished line of text, without its line end.
  virtual void line(const std::string& text) = 0;
  /// A status line: where rewrites() is true, the next status or line
  /// replaces it; elsewhere it is a line (the default).
  virtual void status(const std::string& text) { line(text); }
  /// Whether status lines are rewritten in place (a terminal): then callers
  /// may send them often (ten a second), else sparingly.
  virtual bool rewrites() const { return false; }
  /// Work done so far of `total` (0: not known yet), in the unit of the
  /// computation (positions of a build); for progress bars. Default: none.
  virtual void advance(std::uint64_t /*done*/, std::uint64_t /*total*/) {}
};

/// The command-line tool's sink: stderr, status lines rewritten in place
/// when stderr is a terminal. One per process.
progress_sink& stderr_progress();

/// Formats a line (printf rules) and sends it to `sink`; nothing when sink
/// is null.
void progress_line(progress_sink* sink, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace cgtb
