// Shared parts of the libFuzzer targets in tests/fuzz: drivers made the way a
// file header makes them, the expected error types, and the position checks
// every game's parser target runs (parse, then format and options of what
// parsed, with their round trips).
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb_fuzz {

/// Reports a finding (something the product promised that did not hold) and
/// aborts, so that libFuzzer saves the input.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "cgtb fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Text of a byte string for messages: printable ASCII as is, the rest \xNN.
inline std::string shown(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      o += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      o += b;
    }
  }
  return o;
}

/// Runs f; the documented error types (input_error, resource_error) are
/// expected outcomes and make it return false; any other exception is a
/// finding.
template <class F>
bool expected_errors(const char* where, F f) {
  try {
    f();
    return true;
  } catch (const cgtb::input_error&) {
    return false;
  } catch (const cgtb::resource_error&) {
    return false;
  } catch (const std::exception& e) {
    finding(std::string(where) + ": unexpected exception: " + e.what());
  } catch (...) {
    finding(std::string(where) + ": unexpected exception of unknown type");
  }
}

/// One thread: the targets measure robustness, and libFuzzer runs one input
/// at a time.
inline void init_once() { omp_set_num_threads(1); }

/// The driver a file header with these lines gets (index keys/1 with
/// positions reachable for the reachable domino tables).
inline std::unique_ptr<cgtb::game_driver> make_driver(const std::string& ruleset, const std::string& params,
                                                      bool keyed = false, const std::string& symmetry = "none") {
  cgtb::tablebase_header h;
  h.ruleset = ruleset;
  h.params = params;
  if (keyed) {
    h.index = cgtb::kIndexKeys;
    h.positions = "reachable";
    h.symmetry = symmetry;
  }
  return cgtb::driver_for_header(h);
}

/// Options checked per position (a position of a large board has hundreds).
constexpr std::size_t kMaxOptionsChecked = 64;

/// Feeds `text` to d.parse. If it parses, parsing its text again gives the
/// same position (level, rank and text). When the position is in the game's
/// index (format of its level and rank succeeds; a parsed position outside it,
/// e.g. of the wrong parity, is refused by the query with input_error), its
/// canonical text parses back to the same level and rank, and so do the
/// canonical texts of its options (at most kMaxOptionsChecked checked).
inline void check_position_text(const cgtb::game_driver& d, const std::string& text) {
  cgtb::position_ref p;
  if (!expected_errors("parse", [&] { p = d.parse(text); })) return;
  const std::string what = d.ruleset() + " " + d.params() + ": '" + shown(text) + "'";
  auto parse_or_finding = [&](const char* whose, const std::string& t) {
    try {
      return d.parse(t);
    } catch (const std::exception& e) {
      finding(what + ": " + whose + ": parse of '" + shown(t) + "' refused: " + e.what());
    }
  };
  const cgtb::position_ref again = parse_or_finding("its text", p.text);
  if (again.level != p.level || again.rank != p.rank || again.text != p.text)
    finding(what + ": parsing its text '" + shown(p.text) + "' again gives '" + shown(again.text) + "' (level " +
            std::to_string(again.level) + ", rank " + std::to_string(again.rank) + "), not level " +
            std::to_string(p.level) + ", rank " + std::to_string(p.rank));
  // Canonical text of (level, rank): false when the index has no such position.
  auto round_trip = [&](const std::string& whose, int level, std::uint64_t rank) {
    std::string canon;
    if (!expected_errors("format", [&] { canon = d.format(level, rank); })) return false;
    const cgtb::position_ref q = parse_or_finding(whose.c_str(), canon);
    if (q.level != level || q.rank != rank)
      finding(what + ": " + whose + ": canonical text '" + shown(canon) + "' parses to level " +
              std::to_string(q.level) + " rank " + std::to_string(q.rank) + ", not level " + std::to_string(level) +
              " rank " + std::to_string(rank));
    return true;
  };
  const bool indexed = round_trip("the position", p.level, p.rank);
  std::vector<cgtb::option_ref> opts;
  if (!expected_errors("options", [&] { opts = d.options(p); }) || !indexed) return;
  for (std::size_t i = 0; i < opts.size() && i < kMaxOptionsChecked; ++i)
    if (!round_trip("option " + opts[i].move, opts[i].after.level, opts[i].after.rank))
      finding(what + ": option " + opts[i].move + " (level " + std::to_string(opts[i].after.level) + ", rank " +
              std::to_string(opts[i].after.rank) + ") of a position in the index is not in the index");
}

/// Target body of a game's parser: the first byte picks one of the drivers,
/// the rest is the position text.
inline void fuzz_positions(const std::vector<std::unique_ptr<cgtb::game_driver>>& drivers, const std::uint8_t* data,
                           std::size_t size) {
  if (size == 0 || drivers.empty()) return;
  if (size > 4096) return;  // positions are short; longer inputs only slow the run
  const cgtb::game_driver& d = *drivers[data[0] % drivers.size()];
  check_position_text(d, std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
}

}  // namespace cgtb_fuzz
