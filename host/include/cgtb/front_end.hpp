// What every front end of cgtb (the command-line tool, the Python module)
// shares: how errors are shown, how a typed position is cleaned, and the
// options of `cgtb build GAME`, so that each answers bad input the same way.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <string>

#include "cgtb/driver.hpp"  // also declares cxxopts::Options and ParseResult

namespace cgtb {

/// An error message as one printable line of valid UTF-8: control characters
/// and bytes that are not well-formed UTF-8 escaped as \xNN, bytes past 300
/// cut (on a character boundary).
std::string one_line(const std::string& msg);

/// The longest position text cgtb reads, in characters: an argument or a line
/// of `cgtb query` and `cgtb sum`, and `cgtb serve`'s ?pos= (the server
/// answers 414 to a request line that could hold no more).
inline constexpr std::size_t kMaxPositionChars = 100000;

/// A position as typed: surrounding white space and a trailing CR dropped;
/// throws input_error for a NUL byte or a text over kMaxPositionChars
/// characters ("position is longer than 100000 characters").
std::string clean_position_text(const std::string& raw);

/// Reads the next line of `in` into `line` (without its '\n'), storing at
/// most kMaxPositionChars + 1 characters: the rest of a longer line is
/// skipped unstored, and clean_position_text refuses what was kept. Returns
/// false at the end of the input (as std::getline does).
bool read_position_line(std::istream& in, std::string& line);

/// GAME-PARAMS.cgtb with every character other than letters, digits, '.',
/// '-' and ',' replaced by '_' (parameters such as "op=selective left=..."
/// make awkward file names).
std::string default_file_name(const std::string& game, const std::string& params);

/// Parses "12G", "800M", "1.5T" or a byte count, the value of `option`
/// (named in the error); throws input_error.
std::size_t parse_bytes(const std::string& text, const std::string& option = "--max-memory");

/// A cxxopts message as cgtb writes its own: ASCII quotes for cxxopts's
/// curly ones, a lower-case first letter.
std::string cxxopts_message(std::string what);

/// The option a cxxopts message names between its quotes ("Option ‘bord’
/// does not exist": "bord"), or "".
std::string cxxopts_option_name(const std::string& what);

/// The one wording of an unknown option: "unknown option 'NAME' ('HELP
/// --help' lists the options)". The CLI names the option as typed (--bord),
/// the Python module as its keyword (bord); `help` is the command whose
/// --help lists the options ("cgtb build cram").
std::string unknown_option_text(const std::string& name, const std::string& help);

/// Throws input_error when an option was given twice (cxxopts would keep one
/// of the two without a word).
void refuse_repeated_options(const cxxopts::ParseResult& r);

/// Adds the options of `cgtb build GAME` to `o`: the game's own, then the
/// build's (values, backend, output, force, threads, max-memory, stats, resume,
/// quiet, block-entries, zstd-level) with their defaults.
void add_build_options(cxxopts::Options& o, const game_entry& game);

/// The driver and request of parsed build options (see add_build_options);
/// req.progress is set from --quiet. Throws input_error naming a bad value.
std::unique_ptr<game_driver> build_request_from(const cxxopts::ParseResult& r, const game_entry& game,
                                                build_request& req);

}  // namespace cgtb
